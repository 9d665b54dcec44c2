import { defineProject } from 'vitest/config';

// Tests run in Vite's SSR environment, which reads `ssr.resolve.conditions`, not
// `resolve.conditions` (Vite 6+): both name the source condition.
const conditions = ['@sessauth/source', 'module', 'node', 'development|production'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { name: 'redis', include: ['test/**/*.test.ts'] },
});
