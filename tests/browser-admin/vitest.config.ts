import { sessauthProject } from '../../vitest.project.js';

// Real Chromium against real example servers (started from TypeScript source): the
// bounds cover a start-up on two cores; they are for a hung run, not timing assertions.
export default sessauthProject('browser-admin', {
  testTimeout: 60_000,
  hookTimeout: 120_000,
});
