import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@sessauth/source'] },
  test: { name: 'core', include: ['test/**/*.test.ts'] },
});
