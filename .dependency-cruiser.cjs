// The layer map of docs/architecture.md, enforced by `npm run lint:deps` and tests/architecture/layers.test.ts.
// Each layer imports only from its own layer or the ones below it; no cycle at file level; better-sqlite3 only in
// store/, transformers.js and onnxruntime only in backends/local/, SQL statements only in store/. Exceptions are named
// one by one below (none is a blanket allowance) and listed in docs/architecture.md.

/** Layers from the bottom up: each entry is a list of path patterns (regex sources, relative to the repo root). */
const LAYERS = [
  {
    name: 'leaf',
    paths: ['src/(shapes|divide|feedback|image|util|prompts)/', 'src/(errors|progress|domain)\\.ts$'],
  },
  { name: 'config', paths: ['src/config/'] },
  { name: 'store/backends/input/tools', paths: ['src/(store|backends|input|tools)/'] },
  { name: 'methods/stages/export', paths: ['src/(methods|stages|export)/'] },
  {
    name: 'orchestration',
    paths: ['src/(pipeline|eval|report|doctor|loop|serve)/'],
  },
  { name: 'cli', paths: ['src/cli/', 'src/index\\.ts$'] },
];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `no-upward-from-${layer.name.replace(/\//g, '-')}`,
  comment: `${layer.name} may import only from its own layer or lower ones (docs/architecture.md)`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: LAYERS.slice(i + 1).flatMap((l) => l.paths) },
}));

/** Every src file must sit in a layer, so a new root file or folder cannot escape the map unseen. */
const everyPath = LAYERS.flatMap((l) => l.paths);

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-file-cycle',
      comment: 'no import cycle between files, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'better-sqlite3-only-in-store',
      comment: 'store/ is the only module that opens SQLite',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: 'node_modules/better-sqlite3/' },
    },
    {
      name: 'model-runtime-only-in-backends-local',
      comment: 'transformers.js and onnxruntime run behind backends/local/ alone',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/backends/local/' },
      to: { path: 'node_modules/(@huggingface/transformers|onnxruntime-node|onnxruntime-common)/' },
    },
    {
      name: 'eval-figures-import-no-runner',
      comment: "eval/'s figures are pure over a loaded round: they never import a runner (eval/runs/ generates)",
      severity: 'error',
      from: { path: '^src/eval/', pathNot: ['^src/eval/runs/', '^src/eval/index\\.ts$'] },
      to: { path: '^src/eval/runs/' },
    },
    {
      name: 'statements-only-in-store',
      comment: 'SQL lives in store/: outside it nobody prepares statements through store/statements.ts',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/statements\\.ts$' },
    },
    {
      name: 'src-file-in-a-layer',
      comment: 'every file under src/ belongs to a layer of the map',
      severity: 'error',
      from: { path: '^src/', pathNot: everyPath },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
