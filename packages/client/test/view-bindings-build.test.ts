import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import configs from '../tsup.config.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

interface Conditional {
  readonly import: { readonly types: string; readonly default: string };
  readonly require: { readonly types: string; readonly default: string };
}

// The React and Vue bindings as `pnpm build` makes them (the tsup config with the two entries), into a
// temporary folder; Chromium drives them in tests/browser-client (view-bindings.test.ts).
describe('the view bindings @sessauth/client/react and /vue', () => {
  // Inside the package, so the builds find react and vue (its dev dependencies) as a host's would.
  const outDir = mkdtempSync(join(PACKAGE, 'node_modules', '.views-'));
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
    exports: Record<string, Conditional>;
    publishConfig: { exports: Record<string, Conditional> };
    peerDependenciesMeta: Record<string, { optional: boolean }>;
    dependencies?: Record<string, string>;
  };
  const built = (path: string) => join(outDir, path.replace(/^\.\/dist\//, ''));

  beforeAll(async () => {
    const views = (configs as Options[]).find((config) => JSON.stringify(config.entry).includes('react'));
    if (views === undefined) throw new Error('tsup.config.ts has no build of the view bindings');
    await build({ ...views, entry: { react: join(PACKAGE, 'src/react.ts'), vue: join(PACKAGE, 'src/vue.ts') }, outDir, silent: true, config: false });
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it.each(['react', 'vue'])('./%s: exported with types for ESM and CJS (in the workspace and as published), every file built', (name) => {
    for (const exports of [manifest.exports, manifest.publishConfig.exports]) {
      const entry = exports[`./${name}`];
      expect(entry, `./${name}`).toBeDefined();
      for (const path of [entry!.import.types, entry!.import.default, entry!.require.types, entry!.require.default]) {
        expect(existsSync(built(path)), path).toBe(true);
      }
    }
    // React and Vue are the host's: optional peers, never dependencies.
    expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
    expect(manifest.dependencies?.[name]).toBeUndefined();
  });

  it('both builds load (ESM import, CJS require) and export useSession; neither carries a copy of the client', async () => {
    const requireFrom = createRequire(join(PACKAGE, 'package.json'));
    for (const name of ['react', 'vue']) {
      const entry = manifest.exports[`./${name}`]!;
      const esm = (await import(pathToFileURL(built(entry.import.default)).href)) as { useSession?: unknown };
      const cjs = requireFrom(built(entry.require.default)) as { useSession?: unknown };
      expect(typeof esm.useSession, name).toBe('function');
      expect(typeof cjs.useSession, name).toBe('function');
      // The client's own strings stay in the main entry: the bindings read a client the page made.
      expect(readFileSync(built(entry.require.default), 'utf8')).not.toContain('refusing to send the access token');
    }
  });
});
