// One answer's reply: its status, reward and components, and on request its claims with question, p(yes), p(no),
// verdict and character span in the completion.
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { answerReward, type RewardComponents, type RewardPreset, type RewardWeights } from '../feedback/reward.js';
import type { AnswerEvidence } from '../store/index.js';
import type { Scored } from './scorer.js';
import { claimSpan, locateSentences } from '../feedback/claim-spans.js';

/** How much of an answer's evidence a reply carries. */
export type Detail = 'none' | 'summary' | 'claims';

/** A claim as a reply shows it. */
export interface ClaimReply {
  text: string;
  sentence: string;
  question: string;
  p_yes: number | null;
  p_no: number | null;
  verdict: 'accepted' | 'rejected' | 'unscored';
  /** [start, end) of the claim's source text in the completion (the divider's stored span, else its sentence located); null when neither is found. */
  span: [number, number] | null;
}

/** One item of a reply. */
export type ItemReply = {
  id: string | null;
  status: 'ok' | 'unscorable' | 'error';
  reward: number | null;
  reason?: string;
  claims?: ClaimReply[];
} & Partial<RewardComponents>;

/** An item that failed before or during scoring. */
export function errorReply(id: string | null, reason: string): ItemReply {
  return { id, status: 'error', reward: null, reason };
}

const spanOf = (s: { start: number; end: number } | null): [number, number] | null => (s ? [s.start, s.end] : null);

/** The claims of an answer as a reply shows them. */
function claimReplies(ev: AnswerEvidence, completion: string, rule: AcceptRule): ClaimReply[] {
  const located = locateSentences(completion, ev.claims.map((c) => c.sentence));
  return ev.claims.map((c, i) => {
    const judged = c.p_yes !== null && c.p_no !== null;
    return {
      text: c.claim,
      sentence: c.sentence,
      question: c.question,
      p_yes: c.p_yes,
      p_no: c.p_no,
      verdict: !judged ? 'unscored' : isRejected(c.p_yes!, c.p_no!, rule) ? 'rejected' : 'accepted',
      span: spanOf(claimSpan({ start: c.span_start, end: c.span_end }, located[i] ?? null, completion.length)),
    };
  });
}

/**
 * Studies only (never in config): a claim's verdict from another source than the labeler, per question: true =
 * rejected, false = accepted, null = unjudged. The online study's oracle arm gives the shapes truth checker's answer to
 * each claim's question, as the DPO loop's oracle pairs use it (src/eval/pairs.ts, kind "oracle").
 */
export type VerdictOverride = (question: string) => boolean | null;

/** The reply for one scored answer under a preset; with `override`, its verdicts replace the labeler's. */
export function itemReply(
  id: string | null,
  scored: Scored,
  completion: string,
  opts: { preset: RewardPreset; weights: RewardWeights; rule: AcceptRule; detail: Detail },
  override?: VerdictOverride,
): ItemReply {
  if ('error' in scored) return errorReply(id, scored.error);
  const ev = scored.evidence;
  if (!ev.divided) return errorReply(id, `divide: ${ev.divideError ?? 'the answer was not divided'}`);
  const failed = ev.claims.find((c) => !c.labeled);
  if (failed) return errorReply(id, `label: ${failed.label_error ?? 'the labeler gave no label'} (question "${failed.question}")`);
  const claims = claimReplies(ev, completion, opts.rule);
  if (override) {
    for (const c of claims) {
      const v = override(c.question);
      c.verdict = v === null ? 'unscored' : v ? 'rejected' : 'accepted';
    }
  }
  const r = answerReward(
    ev.claims.map((c, i) => ({ questionId: c.question_id, rejected: claims[i]!.verdict === 'unscored' ? null : claims[i]!.verdict === 'rejected' })),
    opts.preset,
    opts.weights,
  );
  const out: ItemReply = { id, status: r.status, reward: r.reward, ...(opts.detail === 'none' ? {} : r.components) };
  if (r.status === 'unscorable') out.reason = 'the labeler could not judge any of its questions (neither yes nor no among its top tokens)';
  if (opts.detail === 'claims') out.claims = claims;
  return out;
}
