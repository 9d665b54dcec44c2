// The import rules of the repository, checked by `pnpm lint` (dependency-cruiser).
// 1. No import cycle anywhere.
// 2. The core's folders are layers that only import downward (docs/ARCHITECTURE.md draws
//    CORE_LAYERS; a test holds the picture equal to this list). A folder may import its own
//    files and any folder of a LOWER band, never one of its own band or above; the entry
//    files at the top of src/ may import anything.

const { CORE_LAYERS } = require('./packages/core/layers.cjs');

const core = (folder) => `^packages/core/src/${folder}/`;
const below = (index) => CORE_LAYERS.slice(index + 1).flatMap((layer) => layer.folders);

const layerRules = CORE_LAYERS.flatMap((layer, index) =>
  layer.folders.map((folder) => ({
    name: `core-${folder}-imports-down`,
    comment: `core/${folder} (${layer.band}) may import only its own folder and the bands below it`,
    severity: 'error',
    from: { path: core(folder) },
    to: {
      path: '^packages/core/src/',
      pathNot: [core(folder), ...below(index).map(core)],
    },
  })),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['@sessauth/source', 'import', 'types', 'default'] },
  },
};
