import { sessauthProject } from '../../vitest.project.js';

// Example servers on real stores, started from TypeScript source, under load:
// long timeouts. `pnpm test:soak` runs the same files with SESSAUTH_SOAK=1 (longer windows).
export default sessauthProject('faults', {
  testTimeout: process.env.SESSAUTH_SOAK === '1' ? 900_000 : 180_000,
  hookTimeout: 120_000,
  // After every other project, alone and one file at a time: these files load the machine on purpose.
  fileParallelism: false,
  sequence: { groupOrder: 1 },
});
