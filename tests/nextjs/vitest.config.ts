import { sessauthProject } from '../../vitest.project.js';

// One real Next.js app, built once (`next build`, about half a minute on two cores) and
// started twice; the hook timeout covers the build.
export default sessauthProject('nextjs', {
  testTimeout: 30_000,
  hookTimeout: 240_000,
});
