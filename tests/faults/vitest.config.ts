import { sessauthProject } from '../../vitest.project.js';

// Example servers on real stores, started from TypeScript source, under load:
// long timeouts. `pnpm test:soak` runs the same files with SESSAUTH_SOAK=1 (longer windows).
export default sessauthProject('faults', {
  testTimeout: process.env.SESSAUTH_SOAK === '1' ? 900_000 : 180_000,
  hookTimeout: 120_000,
  // After every other project, one file at a time in one process (its own group, a single fork):
  // these files load the machine on purpose and measure what the server does under it.
  sequence: { groupOrder: 1 },
  poolOptions: { forks: { singleFork: true } },
});
