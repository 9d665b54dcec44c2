import { sessauthProject } from '../../vitest.project.js';

// Real Chromium against four in-process API servers.
export default sessauthProject('browser-cors', {
  testTimeout: 60_000,
  hookTimeout: 90_000,
});
