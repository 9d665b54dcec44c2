import { libraryBuild } from '../../tsup.library.js';

export default libraryBuild();
