import { libraryBuild } from '../../tsup.library.js';

export default libraryBuild({
  index: 'src/index.ts',
  adapter: 'src/adapter.ts',
  store: 'src/store.ts',
  argon2: 'src/password/argon2.ts',
  'argon2-wasm': 'src/password/argon2-wasm.ts',
  mmdb: 'src/geo/mmdb/mmdb-provider.ts',
  openapi: 'src/openapi.ts',
});
