import { defineConfig } from 'tsup';

// The client is ESM only, for browsers: `index.js` is the readable build that bundlers and the
// examples' `<script type="module">` load; `sessauth-client.min.js` (exported as
// `@sessauth/client/sessauth-client.min.js`) is the one file a page without a bundler
// serves, and the size the READMEs state (test/readme-size.test.ts). No `clean`: the
// two builds run in parallel and would race to empty dist/.
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
  {
    // The view bindings (`@sessauth/client/react`, `/vue`): ESM and CJS, React and Vue left to the
    // host (optional peers). They import only types of the client, so the main entry does not grow
    // and no second copy of the client ships with them.
    entry: { react: 'src/react.ts', vue: 'src/vue.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    treeshake: true,
    platform: 'browser',
    target: 'es2022',
    external: ['react', 'vue'],
  },
]);
