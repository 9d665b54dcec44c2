import { sessauthProject } from '../../vitest.project.js';

// Each file spawns a runtime and runs the conformance suite in it: in a group of its own after
// the faults suites, one file at a time (a single fork), so a runtime's process never shares the
// two cores with the matrix or with another runtime (two at a time, Deno's login/flood case saw
// its WASM hasher keep up with the flood and refuse nothing).
export default sessauthProject('runtimes', {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  sequence: { groupOrder: 2 },
  poolOptions: { forks: { singleFork: true } },
});
