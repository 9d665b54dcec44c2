import { sessauthProject } from '../../vitest.project.js';

export default sessauthProject('runtimes', { testTimeout: 30_000, hookTimeout: 60_000 });
