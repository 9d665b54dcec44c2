import { sessauthProject } from '../../vitest.project.js';

// The Prisma clients the tests use are generated from this package's own model blocks first.
export default sessauthProject('prisma', { globalSetup: ['test/support/generate-clients.ts'] });
