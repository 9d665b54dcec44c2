import { defineConfig, type Options } from 'tsup';

/**
 * The build of every Node library package: ESM + CJS + declarations, for Node 20.
 * A package names only its entry points (the browser client has its own config).
 */
export function libraryBuild(entry: Options['entry'] = ['src/index.ts']) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
    target: 'node20',
  });
}
