import { sessauthProject } from '../../vitest.project.js';

// Generating the types and running tsc take seconds each on a loaded machine.
export default sessauthProject('openapi-client', { testTimeout: 120_000 });
