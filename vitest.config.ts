import { defineConfig } from 'vitest/config';

// Two projects, classified by what a test file really does (docs/testing.md):
// - e2e: the built CLI or another child process, a real HTTP server on 127.0.0.1, Python, Chromium, loops;
// - unit: everything else (pure units, real SQLite files in temp folders, the real tiny models in this process).
// A new folder lands in unit unless it is listed below; a file anywhere named *.e2e.test.ts or *cli*.test.ts is e2e.
const E2E = [
  // Whole folders: every file in them runs the CLI, a server, Python or a loop.
  'tests/cli/**/*.test.ts',
  'tests/compare/**/*.test.ts',
  'tests/docs/**/*.test.ts',
  'tests/doctor/**/*.test.ts',
  'tests/faults/**/*.test.ts',
  'tests/loop/**/*.test.ts',
  'tests/serve/**/*.test.ts',
  // By name, anywhere.
  'tests/**/*.e2e.test.ts',
  'tests/**/*cli*.test.ts',
  // Single files in mixed folders.
  'tests/backends/{divider-spans,mimic,mimic-quirks,openai,openai-errors,openai-sequence-scorer,sequence-logprobs}.test.ts',
  'tests/eval/{ablation,correction,policy,round}.test.ts',
  'tests/input/images.test.ts',
  'tests/methods/{dpo-reward-round,methods,pair-judge}.test.ts',
  'tests/multiturn/generate.test.ts',
  'tests/report/{loop,on-policy,pair-browser,report}.test.ts',
  'tests/stages/{corrections,reference-logprobs,refine-teacher,rewrite,sample-guard,shards,tools}.test.ts',
  'tests/shapes/dpo-spans.test.ts',
  'tests/tools/{context,vlm}.test.ts',
];

// Time limits live here and only here, one pair per project; they are never raised to make a test pass.
export default defineConfig({
  test: {
    pool: 'forks',
    // Two files at a time on a 2-core machine. Vitest's default is one fewer worker than cores, so on 2 cores every file
    // ran alone: the whole suite took 20 min on an idle machine with 1.3 cores busy on average (docs/testing.md).
    maxWorkers: 2,
    // Every Python child (the shapes trainer, the reference log-prob helper) inherits this: libgomp's threads then
    // sleep while they wait instead of spinning. Same bytes out; a 5-step trainer run on a shared 2-core machine took
    // 5.3 s of CPU instead of 20.8 s (docs/testing.md, "How long it takes").
    env: { OMP_WAIT_POLICY: 'PASSIVE' },
    // The run's own folders, made fresh per run and removed at its end (tests/helpers/run-folders-setup.ts): the round
    // cache (runDemoRound builds a given round once and hands each caller a copy: tests/helpers/round-cache.ts) and the
    // folder every tempDir() is made in.
    globalSetup: ['tests/helpers/run-folders-setup.ts'],
    // Before each test, the server kinds detected per base URL are forgotten (tests/helpers/fresh-server-kinds.ts):
    // a port an earlier test's server held may be a new server's now.
    setupFiles: ['tests/helpers/fresh-server-kinds.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: E2E,
          // One process per worker for all its unit files: they share the module cache, so transformers.js, zod and
          // the store are imported once per worker instead of once per file (122 s -> 77 s for the project). A unit
          // file must leave no module state behind (the config's shared defaults were the one found: config.test.ts).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          // As unit: one process per worker for all its files, so each worker imports transformers.js, zod, the store
          // and the test server once, not once per file (28 of its files: 138 s -> 104 s of CPU, docs/testing.md). A
          // file restores what it sets in process.env and closes its own servers and browsers, and any pool it made
          // itself, in afterAll; its rounds and test servers run in the process's shared pool (tests/helpers/file-pool.ts).
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
