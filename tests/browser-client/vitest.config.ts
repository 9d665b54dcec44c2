import { sessauthProject } from '../../vitest.project.js';

// Real Chromium against real example servers: one file at a time (two cores), and
// timeouts that cover a server's start-up from TypeScript source.
export default sessauthProject('browser-client', {
  testTimeout: 60_000,
  hookTimeout: 90_000,
  fileParallelism: false,
});
