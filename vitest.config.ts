import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'tests/*/vitest.config.ts'],
    // Two workers on CI's two cores: most files wait on sockets and databases, not the CPU. The
    // suites that measure their own behaviour under load (faults, the runtimes' processes) run
    // afterwards, one file at a time (`sequence.groupOrder: 1` in their configs).
    maxWorkers: 2,
    minWorkers: 1,
  },
});
