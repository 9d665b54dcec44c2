import { existsSync } from 'node:fs';
import { reachService } from '@sessauth/conformance';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless. Without it the browser tests skip with a loud line
 * (or fail under SESSAUTH_REQUIRE_SERVICES=1). The background-networking flags
 * keep it from calling out: this machine has no network beyond loopback.
 */
export function launchChromium(): Promise<Browser | null> {
  return reachService(`Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`, async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error('not installed');
    return chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
    });
  });
}
