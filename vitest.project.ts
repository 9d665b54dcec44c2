import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Tests run in Vite's SSR environment, which reads `ssr.resolve.conditions`, not
// `resolve.conditions` (Vite 6+): both name the source condition, so workspace
// packages resolve to their TypeScript source and no build is needed to test.
const conditions = ['@sessauth/source', 'module', 'node', 'development|production'];

/** The vitest project of one workspace package. */
export function sessauthProject(name: string, test: UserWorkspaceConfig['test'] = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, include: ['test/**/*.test.ts'], ...test },
  });
}
