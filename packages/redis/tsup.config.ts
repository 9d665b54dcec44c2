import { libraryBuild } from '../../tsup.library.js';

export default libraryBuild(['src/index.ts', 'src/cli.ts']);
