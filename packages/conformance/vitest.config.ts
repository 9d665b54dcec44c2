import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@sessauth/source'] },
  test: { name: 'conformance', include: ['test/**/*.test.ts'] },
});
