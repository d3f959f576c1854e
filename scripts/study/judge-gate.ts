// The quality gate's judge model (feedback.gate.judge, Anyprefer's reward-model prompt "score/10") on real rounds, for
// the README table "The gate's judge model": each arm is one whole round on the same prompts with the same seed (so
// the same answers), run by the real pipeline; the judge is the test server's (scripts/mimic/openai-server.ts: the
// rules divider and the real tiny labeler behind Anyprefer's prompt, a stand-in for a served VLM judge). Pairs are
// judged by the shapes truth. Yield is the arm's pairs ÷ the same method's pairs without a gate.
//
//   npx tsx scripts/study/judge-gate.ts [--prompts data/shapes/test/prompts.jsonl] [--limit 500] [--out tmp/judge-gate] [--json]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, PACKAGE_ROOT } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb } from '../../src/store/index.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { evaluateRound } from '../../src/eval/report.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../mimic/openai-server.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i]!;
  if (k === '--json') args.set('json', '1');
  else args.set(k.replace(/^--/, ''), process.argv[++i] ?? '');
}
const prompts = path.resolve(args.get('prompts') ?? path.join(PACKAGE_ROOT, 'data/shapes/test/prompts.jsonl'));
const limit = Number(args.get('limit') ?? 500);
const out = path.resolve(args.get('out') ?? 'tmp/judge-gate');
const only = args.get('arms')?.split(',');
mkdirSync(out, { recursive: true });

interface Arm {
  name: string;
  method: 'divide' | 'holistic';
  gate: { threshold: number; judge: boolean; top_up?: number } | null;
}
const ARMS: Arm[] = ([
  { name: 'holistic', method: 'holistic', gate: null },
  { name: 'holistic + judge τ 0.7', method: 'holistic', gate: { threshold: 0.7, judge: true } },
  { name: 'holistic + judge τ 0.9', method: 'holistic', gate: { threshold: 0.9, judge: true } },
  { name: 'holistic + judge τ 0.9, top-up 4', method: 'holistic', gate: { threshold: 0.9, judge: true, top_up: 4 } },
  { name: 'divide (REJ-C)', method: 'divide', gate: null },
  { name: 'divide + claims gate τ 0.9', method: 'divide', gate: { threshold: 0.9, judge: false } },
  { name: 'divide + judge τ 0.9', method: 'divide', gate: { threshold: 0.9, judge: true } },
] satisfies Arm[]).filter((a) => !only || only.some((o) => a.name.startsWith(o)));

const server = await TestServer.start({ workers: 1, models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
const rows: Record<string, unknown>[] = [];
try {
  for (const arm of ARMS) {
    const db = path.join(out, `${arm.name.replace(/[^a-z0-9.]+/gi, '-')}.sqlite`);
    rmSync(db, { force: true });
    const file = path.join(out, 'config.json');
    const gate = arm.gate
      ? {
          threshold: arm.gate.threshold,
          top_up: arm.gate.top_up ?? 0,
          ...(arm.gate.judge ? { judge: { backend: { type: 'openai', model: 'rubric-judge', base_urls: [server.url] } } } : {}),
        }
      : {};
    writeFileSync(file, JSON.stringify({ db, prompts, seed: 0, feedback: { method: arm.method, gate } }));
    const config = loadConfig(file, { workers: 1 }).config;
    const t0 = performance.now();
    const asked0 = server.stats.byModel['rubric-judge'] ?? 0;
    const { round } = await runRound(config, { choice: 'next', stages: STAGES, limit });
    const seconds = (performance.now() - t0) / 1000;
    const h = openDb(db, { readonly: true });
    const e = evaluateRound(loadEvalRound(h, round.id));
    const prompted = h.prepare('SELECT COUNT(DISTINCT prompt_id) FROM pairs WHERE round_id = ? AND gate_kept IS NOT 0').pluck().get(round.id) as number;
    const topUps = h.prepare('SELECT COUNT(*) FROM round_prompts WHERE round_id = ? AND extra_samples > 0').pluck().get(round.id) as number;
    h.close();
    const sp = e.stored_pairs;
    rows.push({
      arm: arm.name,
      pairs: sp.all.pairs,
      accuracy: sp.all.pair_accuracy,
      inverted: sp.all.inverted_share,
      gated: sp.gated?.pairs ?? 0,
      gated_accuracy: sp.gated?.pair_accuracy ?? null,
      prompts_with_pair: prompted,
      top_ups: topUps,
      judge_calls: (server.stats.byModel['rubric-judge'] ?? 0) - asked0,
      seconds,
    });
    process.stderr.write(`${arm.name}: ${sp.all.pairs} pairs, ${((sp.all.pair_accuracy ?? 0) * 100).toFixed(2)}% accurate (${seconds.toFixed(0)} s)\n`);
  }
} finally {
  await server.close();
}
const base = (r: Record<string, unknown>) => rows.find((x) => (x.arm as string) === (String(r.arm).startsWith('holistic') ? 'holistic' : 'divide (REJ-C)'));
if (args.has('json')) process.stdout.write(JSON.stringify({ prompts, limit, rows }, null, 2) + '\n');
else {
  const pct = (x: unknown) => (typeof x === 'number' ? `${(100 * x).toFixed(1)}%` : '–');
  process.stdout.write(`${limit} prompts of ${path.relative(process.cwd(), prompts)}, 10 samples, seed 0, max_pairs 2\n`);
  process.stdout.write('| arm | pairs | yield | accuracy | inverted | dropped by the gate (their accuracy) | prompts with a pair | judge calls |\n');
  process.stdout.write('|---|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    const b = base(r);
    process.stdout.write(
      `| ${r.arm} | ${r.pairs} | ${b ? pct((r.pairs as number) / (b.pairs as number)) : '–'} | ${pct(r.accuracy)} | ${pct(r.inverted)} | ` +
        `${r.gated} (${pct(r.gated_accuracy)}) | ${r.prompts_with_pair}${(r.top_ups as number) > 0 ? ` (${r.top_ups} topped up)` : ''} | ${r.judge_calls} |\n`,
    );
  }
}
