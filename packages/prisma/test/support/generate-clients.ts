import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** vitest's global setup: the Prisma clients of the tests, generated from this package's model blocks. */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/generate-test-clients.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
