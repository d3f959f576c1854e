// What a judge's score predicts (README "Study: what a judge's score predicts"): for every loop arm and round whose
// pairs file still exists, the gate's judge model (Anyprefer's reward-model prompt, score/10; the test server's
// stand-in: the rules divider and the real tiny labeler) rates a seeded sample of the pairs the round trained on. Each
// (arm, round) is one point: the judge's mean score against the truth's pair accuracy of those pairs (from the study's
// JSON) and against the next policy's change in false claims (held-out, sampled). Spearman's ρ with a bootstrap 95%
// interval over the points (seeded).
//
//   npx tsx scripts/study/judge-score.ts --runs JSON:DIR[,JSON:DIR...] [--per-round 500] [--min-pairs 50] [--json FILE]
//   npx tsx scripts/study/judge-score.ts --from FILE [--min-pairs 50]      # the correlations again from a --json file
//
// JSON is a study-loop --json file, DIR the --out folder of that run (the arms' stores and checkpoints). A point with
// fewer than --min-pairs judged pairs is listed but left out of the correlations. Rounds confound the pooled figures
// (later rounds have both fewer errors to remove and other pairs), so ρ is also given within rounds: each variable
// ranked among the points of the same round index, the ranks (scaled to 0–1) pooled.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configSchema } from '../../src/config/schema.js';
import { PairJudge } from '../../src/methods/pair-judge.js';
import { createRng, hashSeed, sampleWithoutReplacement } from '../../src/feedback/rng.js';
import { mapLimit } from '../../src/progress.js';
import { ranks, spearman } from '../../src/eval/correlation.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../mimic/openai-server.js';

interface Point {
  run: string;
  arm: string;
  round: number;
  pairs: number;
  judged: number;
  judge_mean: number;
  pair_accuracy: number | null;
  false_before: number | null;
  false_after: number | null;
  delta_false: number | null;
}

/** ρ and its percentile bootstrap 95% interval over the points (2,000 resamples, seeded). */
function withInterval(x: number[], y: number[], seed: string): { rho: number | null; ci95: [number, number] | null; n: number } {
  const rho = spearman(x, y);
  const rng = createRng(hashSeed('judge-score-bootstrap', seed));
  const draws: number[] = [];
  for (let b = 0; b < 2000; b++) {
    const pick = x.map(() => Math.floor(rng() * x.length));
    const r = spearman(pick.map((i) => x[i]!), pick.map((i) => y[i]!));
    if (r !== null) draws.push(r);
  }
  draws.sort((a, b) => a - b);
  const q = (p: number) => draws[Math.min(draws.length - 1, Math.floor(p * draws.length))]!;
  return { rho, ci95: draws.length ? [q(0.025), q(0.975)] : null, n: x.length };
}

async function main() {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const runs = (get('--runs') ?? '').split(',').filter(Boolean).map((s) => s.split(':') as [string, string]);
  const from = get('--from');
  if (runs.length === 0 && !from) throw new Error('--runs JSON:DIR[,JSON:DIR...] or --from FILE is required');
  const perRound = Number(get('--per-round') ?? 500);
  const minPairs = Number(get('--min-pairs') ?? 50);
  const points: Point[] = from ? (JSON.parse(readFileSync(from, 'utf8')) as { points: Point[] }).points : [];
  const server = runs.length ? await TestServer.start({ workers: 2, models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } }) : null;
  if (server) try {
    const cfg = configSchema.parse({ feedback: { gate: { threshold: 0.9, judge: { backend: { type: 'openai', model: 'rubric-judge', base_urls: [server.url] } } } } }).feedback.gate.judge!;
    const judge = new PairJudge(cfg);
    for (const [json, dir] of runs) {
      const study = JSON.parse(readFileSync(json, 'utf8')) as {
        results: { arm: string; baseline: { sampled: { false_claim_rate: number | null } }; rounds: { loop_round: number; pairs: number; pair_accuracy: number | null; eval: { false_claim_rate: number | null } | null }[] }[];
      };
      for (const r of study.results) {
        let before = r.baseline.sampled.false_claim_rate;
        for (const x of r.rounds) {
          const file = path.join(dir, `${r.arm}.checkpoints`, 'loop-1', `round-${x.loop_round}`, 'pairs', 'pairs.jsonl');
          const after = x.eval?.false_claim_rate ?? null;
          if (!existsSync(file)) {
            process.stderr.write(`${json} ${r.arm} round ${x.loop_round}: no pairs file ${file}; skipped\n`);
            before = after;
            continue;
          }
          const rows = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { images: string[]; prompt: { content: unknown }[]; chosen: { content: unknown }[]; rejected: { content: unknown }[] });
          const text = (m: { content: unknown }) => (typeof m.content === 'string' ? m.content : (m.content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text).join(''));
          const picked = rows.length > perRound ? sampleWithoutReplacement(rows, perRound, createRng(hashSeed('judge-score', json, r.arm, x.loop_round))) : rows;
          const scores = await mapLimit(picked, judge.concurrency, async (p) => {
            const v = await judge.rate({ imagePath: p.images[0]!, question: text(p.prompt.at(-1)!), history: [], positive: text(p.chosen[0]!), negative: text(p.rejected[0]!) });
            return 'score' in v ? v.score : null;
          });
          const ok = scores.filter((s): s is number => s !== null);
          points.push({
            run: path.basename(json),
            arm: r.arm,
            round: x.loop_round,
            pairs: rows.length,
            judged: ok.length,
            judge_mean: ok.reduce((a, b) => a + b, 0) / Math.max(1, ok.length),
            pair_accuracy: x.pair_accuracy,
            false_before: before,
            false_after: after,
            delta_false: before !== null && after !== null ? after - before : null,
          });
          process.stderr.write(`${path.basename(json)} ${r.arm} round ${x.loop_round}: judge ${points.at(-1)!.judge_mean.toFixed(2)} on ${ok.length} pairs, accuracy ${x.pair_accuracy}, Δ false ${points.at(-1)!.delta_false}\n`);
          before = after;
        }
      }
    }
    await judge.pool.close?.();
  } finally {
    await server!.close();
  }
  const used = points.filter((p) => p.judged >= minPairs);
  const acc = used.filter((p) => p.pair_accuracy !== null);
  const dl = used.filter((p) => p.delta_false !== null && p.pair_accuracy !== null);
  // Within rounds: each value replaced by its rank among the points of the same round index, scaled to 0–1.
  const withinRound = (ps: Point[], f: (p: Point) => number) => {
    const byRound = new Map<number, Point[]>();
    for (const p of ps) byRound.set(p.round, [...(byRound.get(p.round) ?? []), p]);
    return ps.map((p) => {
      const g = byRound.get(p.round)!;
      if (g.length < 2) return 0.5;
      const r = ranks(g.map(f));
      return (r[g.indexOf(p)]! - 1) / (g.length - 1);
    });
  };
  const out = {
    min_pairs: minPairs,
    points,
    judge_vs_pair_accuracy: withInterval(acc.map((p) => p.judge_mean), acc.map((p) => p.pair_accuracy!), 'acc'),
    judge_vs_delta_false: withInterval(dl.map((p) => p.judge_mean), dl.map((p) => p.delta_false!), 'delta'),
    pair_accuracy_vs_delta_false: withInterval(dl.map((p) => p.pair_accuracy!), dl.map((p) => p.delta_false!), 'acc-delta'),
    within_round: {
      judge_vs_pair_accuracy: withInterval(withinRound(acc, (p) => p.judge_mean), withinRound(acc, (p) => p.pair_accuracy!), 'w-acc'),
      judge_vs_delta_false: withInterval(withinRound(dl, (p) => p.judge_mean), withinRound(dl, (p) => p.delta_false!), 'w-delta'),
      pair_accuracy_vs_delta_false: withInterval(withinRound(dl, (p) => p.pair_accuracy!), withinRound(dl, (p) => p.delta_false!), 'w-acc-delta'),
    },
  };
  const f = (x: { rho: number | null; ci95: [number, number] | null; n: number }) => `ρ ${x.rho === null ? '–' : x.rho.toFixed(2)} [${x.ci95 ? x.ci95.map((v) => v.toFixed(2)).join(', ') : '–'}] over ${x.n} points`;
  process.stdout.write(
    `| arm | round | pairs judged | judge mean /10 | pair accuracy (truth) | false claims before → after |\n|---|---|---|---|---|---|\n` +
      points.map((p) => `| ${p.arm} (${p.run}) | ${p.round} | ${p.judged} of ${p.pairs} | ${p.judge_mean.toFixed(2)} | ${p.pair_accuracy === null ? '–' : (100 * p.pair_accuracy).toFixed(1) + '%'} | ${p.false_before === null ? '–' : (100 * p.false_before).toFixed(1)} → ${p.false_after === null ? '–' : (100 * p.false_after).toFixed(1)} |`).join('\n') +
      `\n\n(points with at least ${minPairs} judged pairs)\njudge mean vs pair accuracy: ${f(out.judge_vs_pair_accuracy)}; within rounds ${f(out.within_round.judge_vs_pair_accuracy)}\n` +
      `judge mean vs change in false claims: ${f(out.judge_vs_delta_false)}; within rounds ${f(out.within_round.judge_vs_delta_false)}\n` +
      `pair accuracy vs change in false claims: ${f(out.pair_accuracy_vs_delta_false)}; within rounds ${f(out.within_round.pair_accuracy_vs_delta_false)}\n`,
  );
  const j = get('--json');
  if (j) writeFileSync(j, JSON.stringify(out, null, 2) + '\n');
}

await main();
