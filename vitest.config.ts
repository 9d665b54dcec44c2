import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'tests/*/vitest.config.ts'],
    // Two workers on CI's two cores: most files wait on sockets and databases, not the CPU. The
    // suites that load the machine on purpose (faults) or spawn runtimes run afterwards, each in a
    // group of its own (`sequence.groupOrder` in their configs). A project cannot set its own
    // worker count in Vitest 3 (`fileParallelism` is a root option).
    maxWorkers: 2,
    minWorkers: 1,
  },
});
