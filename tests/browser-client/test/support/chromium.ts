import { existsSync } from 'node:fs';
import { reachService } from '@sessauth/conformance';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium, or (through the shared helper) skips loudly when it
 * is missing, and fails when SESSAUTH_REQUIRE_SERVICES=1.
 */
export function launchChromium(): Promise<Browser | null> {
  return reachService(`Chromium (${CHROMIUM_PATH}) for the browser-client tests`, async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} not found (apt-get install chromium)`);
    return chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
  });
}
