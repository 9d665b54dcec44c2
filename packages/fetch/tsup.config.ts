import { libraryBuild } from '../../tsup.library.js';

export default libraryBuild({ index: 'src/index.ts', hono: 'src/hono.ts', next: 'src/next.ts' });
