// Checkpoint selection (loop.select: best): every checkpoint the trainer left is evaluated on the validation prompts and
// the lowest truth-free rejected-claim rate becomes the round's checkpoint.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { getLoopRound, updateLoopRound, type LoopRoundRow, type LoopRow } from '../store/index.js';
import type { Progress } from '../progress.js';
import { evaluatePolicy } from '../eval/runs/policy-eval.js';
import { hashCheckpoint, isNonEmptyFolder } from '../util/checkpoint.js';
import { withDb } from './steps.js';
import type { WorkerPool } from '../backends/local/pool.js';

/** One candidate of checkpoint selection, as recorded in loop_rounds.select_json. */
export interface SelectCandidate {
  checkpoint: string;
  sha256: string;
  eval_id: number;
  /** The truth-free rejected-claim rate on loop.select_prompts (lower is better). */
  rejected_claim_rate: number | null;
  selected: boolean;
}

/**
 * Checkpoint selection (loop.select: best): the trainer's {out} and every {out}/checkpoint-<n> it left are evaluated on
 * the validation prompts; the one with the lowest truth-free rejected-claim rate becomes the round's checkpoint (a
 * tie goes to the later one, {out} last). Every candidate's figure is recorded with the choice, in one transaction.
 */
export async function selectCheckpoint(config: Config, loop: LoopRow, row: LoopRoundRow, progress: Progress, pool: WorkerPool | null = null): Promise<LoopRoundRow> {
  const l = config.loop;
  const out = row.checkpoint!;
  const subs = readdirSync(out, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^checkpoint-\d+$/.test(e.name))
    .map((e) => ({ n: Number(e.name.slice('checkpoint-'.length)), dir: path.join(out, e.name) }))
    .filter((c) => isNonEmptyFolder(c.dir))
    .sort((a, b) => a.n - b.n)
    .map((c) => c.dir);
  if (subs.length === 0) progress.log(`loop round ${row.idx}: loop.select best: the trainer left no ${out}/checkpoint-*; keeping ${out}`);
  const candidates: SelectCandidate[] = [];
  // A trainer's last epoch is often saved twice ({out}/checkpoint-<last> and {out}): the same weights are evaluated once.
  const byWeights = new Map<string, SelectCandidate>();
  for (const dir of [...subs, out]) {
    const weights = existsSync(path.join(dir, 'onnx')) ? hashCheckpoint(path.join(dir, 'onnx')) : null;
    const same = weights ? byWeights.get(weights) : undefined;
    if (same) {
      candidates.push({ ...same, checkpoint: dir, sha256: hashCheckpoint(dir), selected: false });
      continue;
    }
    const ev = await evaluatePolicy(config, {
      policy: { type: 'local', model: dir },
      prompts: l.select_prompts,
      limit: l.select_limit,
      samples: l.eval_samples,
      temperature: l.eval_temperature,
      greedy: false,
      progress,
      pool,
    });
    candidates.push({ checkpoint: dir, sha256: ev.policy_sha256 ?? hashCheckpoint(dir), eval_id: ev.id, rejected_claim_rate: ev.truth_free.rejected_claim_rate, selected: false });
    if (weights) byWeights.set(weights, candidates.at(-1)!);
  }
  let best = candidates.length - 1;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const f = candidates[i]!.rejected_claim_rate ?? Infinity;
    if (f < (candidates[best]!.rejected_claim_rate ?? Infinity)) best = i;
  }
  candidates[best]!.selected = true;
  const won = candidates[best]!;
  progress.log(
    `loop round ${row.idx}: selected ${won.checkpoint} (${candidates.map((c) => `${path.basename(c.checkpoint)} ${c.rejected_claim_rate === null ? '-' : (100 * c.rejected_claim_rate).toFixed(1) + '%'}`).join(', ')} rejected on ${l.select_prompts})`,
  );
  return withDb(config, (db) =>
    db.transaction(() => {
      updateLoopRound(db, loop.id, row.idx, { select_json: JSON.stringify(candidates), checkpoint: won.checkpoint, checkpoint_sha256: won.sha256 });
      return getLoopRound(db, loop.id, row.idx)!;
    }).immediate(),
  );
}
