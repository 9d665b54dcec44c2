import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@sessauth/source'] },
  test: { name: 'kysely', include: ['test/**/*.test.ts'] },
});
