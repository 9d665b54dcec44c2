import { existsSync } from 'node:fs';
import { reachService } from '@sessauth/conformance';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium through playwright-core (no browser download). Without it the
 * browser tests skip with a loud line, or fail under SESSAUTH_REQUIRE_SERVICES=1.
 * The machines that run these tests reach nothing beyond loopback: the flags keep
 * Chromium from calling out (background networking, component updates, sync), and
 * `--no-sandbox` lets it start as root in a container.
 */
export function launchChromium(): Promise<Browser | null> {
  return reachService(`Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`, async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error('not installed');
    return chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-gpu',
      ],
    });
  });
}
