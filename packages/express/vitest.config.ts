import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@sessauth/source'] },
  test: { name: 'express', include: ['test/**/*.test.ts'] },
});
