import { sessauthProject } from '../../vitest.project.js';

// Real example servers started from TypeScript source: hook timeouts that cover a server's start-up.
export default sessauthProject('examples', {
  testTimeout: 30_000,
  hookTimeout: 90_000,
});
