import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', argon2: 'src/password/argon2.ts', mmdb: 'src/geo/mmdb/mmdb-provider.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  target: 'node20',
});
