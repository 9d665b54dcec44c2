import { sessauthProject } from '../../vitest.project.js';

// Real example servers started from TypeScript source: one file at a time (two
// cores), and hook timeouts that cover a server's start-up.
export default sessauthProject('examples', {
  testTimeout: 30_000,
  hookTimeout: 90_000,
  fileParallelism: false,
});
