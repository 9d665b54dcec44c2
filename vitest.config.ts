import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@sessauth/source'] },
  test: {
    projects: ['packages/*/vitest.config.ts', 'tests/*/vitest.config.ts'],
  },
});
