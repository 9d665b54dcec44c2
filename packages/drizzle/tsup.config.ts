import { libraryBuild } from '../../tsup.library.js';

// The store, and one schema entry per dialect (a user's drizzle schema imports only its own).
export default libraryBuild({ index: 'src/index.ts', pg: 'src/pg/schema.ts', mysql: 'src/mysql/schema.ts', sqlite: 'src/sqlite/schema.ts' });
