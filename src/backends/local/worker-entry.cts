// The file piscina loads in each worker thread. piscina loads its worker file with require() first and falls back to
// import(); on Node 20 with require(esm), a require() of the ES-module worker that meets a graph another import() is
// still loading aborts the whole process (V8: "IsGraphAsync must be used on an instantiated module"; seen as a test
// worker killed mid-run). This CommonJS entry is what require() loads, and it reaches the real worker (local.worker.js)
// only through import(), once per thread, so no require(esm) ever happens.
const load = () => import('./local.worker.js').then((m) => m.default);
let worker: ReturnType<typeof load> | undefined;

function run(task: Parameters<Awaited<ReturnType<typeof load>>>[0]): Promise<unknown> {
  worker ??= load();
  return worker.then((f) => f(task));
}

export = run;
