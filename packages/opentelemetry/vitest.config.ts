import { defineProject } from 'vitest/config';

// As every package's project (vitest.project.ts), without the `module` condition: the
// OpenTelemetry packages' `module` builds import without file extensions, which Node's ESM
// loader refuses; their `main` (CommonJS) builds load everywhere.
const conditions = ['@sessauth/source', 'node', 'development|production'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { name: 'opentelemetry', include: ['test/**/*.test.ts'] },
});
