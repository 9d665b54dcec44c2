import { sessauthProject } from '../../vitest.project.js';

// Real Chromium against four in-process API servers: one file at a time (two cores).
export default sessauthProject('browser-cors', {
  testTimeout: 60_000,
  hookTimeout: 90_000,
  fileParallelism: false,
});
