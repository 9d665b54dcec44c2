import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@sessauth/source'] },
  test: { name: 'redis', include: ['test/**/*.test.ts'] },
});
