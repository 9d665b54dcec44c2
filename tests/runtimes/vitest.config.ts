import { sessauthProject } from '../../vitest.project.js';

// Each file spawns a runtime and runs the conformance suite in it: after every other project,
// one file at a time, so a runtime's process never shares the two cores with the matrix.
export default sessauthProject('runtimes', {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  fileParallelism: false,
  sequence: { groupOrder: 1 },
});
