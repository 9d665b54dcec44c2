import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'tests/*/vitest.config.ts'],
    // Two workers on CI's two cores: most files wait on sockets and databases, not the CPU. The
    // suites that load the machine on purpose (faults) or spawn runtimes run afterwards, each in a
    // group of its own, one file at a time (`sequence.groupOrder` and a single fork in their
    // configs). A project cannot set a worker count of its own in Vitest 3.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
