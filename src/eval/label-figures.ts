// `rlaifv eval`'s label figures: the labeler's verdicts against the truth, overall and per question form.
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { labelQuality, ratio, tally, type ByForm, type Confusion, type LabelQuality } from './metrics.js';
import { claimSource, claimVerdict, labelerVerdict, type VerdictSource } from './pairs.js';
import type { AnswerTruth, QuestionForm } from './truth.js';
import type { EvalClaim, EvalRound } from './types.js';

/** The labeler's verdicts (under the round's accept rule) against the truth, per claim. */
export interface LabelFigures extends LabelQuality {
  /** Claims of divided answers. */
  claims: number;
  /** Claims whose question has no usable label (unscored or failed). */
  unlabeled: number;
  /** Labeled claims the checker cannot judge (left out of the confusion matrix). */
  unknown_truth: number;
  /** Per question form: quality and the share of claims of that form that are false. */
  by_form: ByForm;
}

/** The labeler's verdicts against the truth, overall and per question form. */
export function labelFigures(
  round: EvalRound,
  truths: Map<string, AnswerTruth>,
  src: VerdictSource = { kind: 'labeler' },
): LabelFigures {
  const all: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const forms = new Map<QuestionForm, Confusion>();
  // Per form: per deciding source [claims, right]; and the labeler's own [claims, right] where it was asked.
  const sources = new Map<QuestionForm, Map<string, [number, number]>>();
  const alone = new Map<QuestionForm, [number, number]>();
  const count = (m: Map<string, [number, number]>, k: string, right: boolean) => {
    const x = m.get(k) ?? [0, 0];
    x[0]++;
    if (right) x[1]++;
    m.set(k, x);
  };
  let claims = 0;
  let unlabeled = 0;
  let unknown = 0;
  for (const p of round.prompts) {
    for (const a of p.answers) {
      const t = truths.get(a.id)!;
      a.claims.forEach((c, k) => {
        claims++;
        const truth = t.claims[k]!;
        const v = claimVerdict(src, c, truth.question, round.acceptRule);
        if (v === null) return void unlabeled++;
        if (truth.claim === 'unknown') return void unknown++;
        tally(all, v, truth.claim === 'false');
        let fc = forms.get(truth.form);
        if (!fc) forms.set(truth.form, (fc = { tp: 0, fp: 0, fn: 0, tn: 0 }));
        tally(fc, v, truth.claim === 'false');
        let fs = sources.get(truth.form);
        if (!fs) sources.set(truth.form, (fs = new Map()));
        count(fs, claimSource(src, c), v === (truth.claim === 'false'));
        const own = ownVerdict(src, c, round.acceptRule);
        if (own !== null) {
          const x = alone.get(truth.form) ?? [0, 0];
          alone.set(truth.form, [x[0] + 1, x[1] + (own === (truth.claim === 'false') ? 1 : 0)]);
        }
      });
    }
  }
  const byForm: ByForm = {};
  for (const form of [...forms.keys()].sort()) {
    const q = labelQuality(forms.get(form)!);
    const bySource = Object.fromEntries(
      [...sources.get(form)!].sort(([a], [b]) => a.localeCompare(b)).map(([s, [n, right]]) => [s, { n, accuracy: ratio(right, n) }]),
    );
    const own = alone.get(form);
    byForm[form] = { ...q, false_share: ratio(q.tp + q.fn, q.n), by_source: bySource, ...(own ? { labeler_alone: { n: own[0], accuracy: ratio(own[1], own[0]) } } : {}) };
  }
  return { ...labelQuality(all), claims, unlabeled, unknown_truth: unknown, by_form: byForm };
}

/**
 * The labeler's own verdict on a claim where tool verdicts are in play (a round with label.tools, or tool labels
 * recomputed by `eval --tools`), so its accuracy alone can stand beside the sources'; null otherwise.
 */
function ownVerdict(src: VerdictSource, c: EvalClaim, rule: AcceptRule): boolean | null {
  if (c.own) return c.own.pYes === null || c.own.pNo === null ? null : isRejected(c.own.pYes, c.own.pNo, rule);
  return src.kind === 'labels' ? labelerVerdict(c, rule) : null;
}
