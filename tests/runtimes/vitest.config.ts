import { sessauthProject } from '../../vitest.project.js';

// Each file spawns a runtime and runs the conformance suite in it: in a group of its own after
// the faults suites, so a runtime's process never shares the two cores with the matrix. Two files
// at a time (the root's two workers): a runtime waits on its sockets more than it computes.
export default sessauthProject('runtimes', {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  sequence: { groupOrder: 2 },
});
