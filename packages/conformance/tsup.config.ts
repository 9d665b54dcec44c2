import { libraryBuild } from '../../tsup.library.js';

export default libraryBuild({ index: 'src/index.ts', faults: 'src/faults/index.ts' });
