import { sessauthProject } from '../../vitest.project.js';

// Example servers on real stores, started from TypeScript source, under load:
// long timeouts. `pnpm test:soak` runs the same files with SESSAUTH_SOAK=1 (longer windows).
export default sessauthProject('faults', {
  testTimeout: process.env.SESSAUTH_SOAK === '1' ? 900_000 : 180_000,
  hookTimeout: 120_000,
  // After every other project (its own group): these files load the machine on purpose.
  sequence: { groupOrder: 1 },
});
