import { sessauthProject } from '../../vitest.project.js';

// Real Chromium against real example servers, with timeouts that cover a server's start-up
// from TypeScript source.
export default sessauthProject('browser-client', {
  testTimeout: 60_000,
  hookTimeout: 90_000,
});
