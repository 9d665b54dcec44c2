import { sessauthProject } from '../../vitest.project.js';

// npm installs from the registry, a native build on a cold cache, apps started as
// child processes: long hooks. One file; the work inside it runs in parallel.
export default sessauthProject('packaging', {
  testTimeout: 120_000,
  hookTimeout: 900_000,
});
