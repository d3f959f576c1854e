// `rlaifv eval`'s error sources: why the labeler's pairs are not accurate (label, divide or the rule), by margin.
import type { ScoreMethod } from '../feedback/scores.js';
import { pairQuality } from './metrics.js';
import { claimVerdict, type EvalPair, type VerdictSource } from './pairs.js';
import type { AnswerTruth } from './truth.js';
import type { EvalRound } from './types.js';

/** Where the labeler's non-accurate pairs come from. */
export interface ErrorSources {
  /** Final pairs (after length balance when the round balances) that are not accurate (inverted or equal). */
  not_accurate: number;
  /** ... with a question the labeler answered wrongly on either side: label errors. */
  label: number;
  /** ... else with a claim without a verdict, one the checker cannot judge, or a question whose truth is not its claim's. */
  divide: number;
  /** ... else (every verdict right, every claim judged): the pairing rule itself (e.g. REJ-P's share). */
  rule: number;
  /** Not-accurate pairs whose chosen answer has a false claim the labeler accepted. */
  missed_in_chosen: number;
  /** Not-accurate pairs whose rejected answer has a true claim the labeler rejected. */
  false_alarm_in_rejected: number;
  /** Pair quality by margin in rejected claims (REJ-C) or rejected share (REJ-P, by tenths). */
  by_margin: { margin: string; pairs: number; pair_accuracy: number | null; inverted_share: number | null }[];
}

/** Why the labeler's pairs are not accurate: label, divide or the rule itself; and accuracy by margin. */
export function errorSources(
  round: EvalRound,
  truths: Map<string, AnswerTruth>,
  pairs: readonly EvalPair[],
  method: ScoreMethod,
  src: VerdictSource = { kind: 'labeler' },
): ErrorSources {
  // Per answer: questions the labeler answered wrongly; claims the divide let down (no verdict, a claim or question
  // the checker cannot judge, a question whose truth is not the claim's); false claims accepted, true claims rejected.
  const wrong = new Map<string, { label: number; divide: number; missed: number; alarms: number }>();
  for (const p of round.prompts) {
    for (const a of p.answers) {
      const t = truths.get(a.id)!;
      const w = { label: 0, divide: 0, missed: 0, alarms: 0 };
      a.claims.forEach((c, k) => {
        const { claim, question } = t.claims[k]!;
        const v = claimVerdict(src, c, question, round.acceptRule);
        if (v === null || claim === 'unknown' || question === 'unknown') return void w.divide++;
        if (v !== (question === 'false')) w.label++;
        if (claim !== question) w.divide++;
        if (claim === 'false' && !v) w.missed++;
        if (claim === 'true' && v) w.alarms++;
      });
      wrong.set(a.id, w);
    }
  }
  const e: ErrorSources = { not_accurate: 0, label: 0, divide: 0, rule: 0, missed_in_chosen: 0, false_alarm_in_rejected: 0, by_margin: [] };
  const margins = new Map<string, EvalPair[]>();
  for (const p of pairs) {
    const key = method === 'rejc' ? (p.margin >= 3 ? '3+' : String(Math.round(p.margin))) : marginBucket(p.margin);
    let l = margins.get(key);
    if (!l) margins.set(key, (l = []));
    l.push(p);
    const c = truths.get(p.chosenId)!;
    const r = truths.get(p.rejectedId)!;
    if (c.nFalse < r.nFalse) continue;
    e.not_accurate++;
    const wc = wrong.get(p.chosenId)!;
    const wr = wrong.get(p.rejectedId)!;
    if (wc.label + wr.label > 0) e.label++;
    else if (wc.divide + wr.divide > 0) e.divide++;
    else e.rule++;
    if (wc.missed > 0) e.missed_in_chosen++;
    if (wr.alarms > 0) e.false_alarm_in_rejected++;
  }
  for (const key of [...margins.keys()].sort()) {
    const q = pairQuality(margins.get(key)!, truths);
    e.by_margin.push({ margin: key, pairs: q.pairs, pair_accuracy: q.pair_accuracy, inverted_share: q.inverted_share });
  }
  return e;
}

function marginBucket(m: number): string {
  const lo = Math.min(9, Math.floor(m * 10 + 1e-9));
  return `${(lo / 10).toFixed(1)}-${((lo + 1) / 10).toFixed(1)}`;
}
