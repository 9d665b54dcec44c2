import { defineConfig } from 'tsup';

// ESM only, for browsers: `index.js` is the readable build that bundlers and the
// examples' `<script type="module">` load; `sessauth-client.min.js` exists to
// measure (and serve, if you like) the minified size. No `clean`: the two builds
// run in parallel and would race to empty dist/.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    treeshake: true,
    platform: 'browser',
    target: 'es2022',
  },
  {
    entry: { 'sessauth-client.min': 'src/index.ts' },
    format: ['esm'],
    minify: true,
    treeshake: true,
    platform: 'browser',
    target: 'es2022',
  },
]);
