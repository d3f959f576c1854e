// The report's pair browser: a seeded sample of a round's pairs, each with its prompt, both answers, their claims'
// verdicts and scores, and its image once as a data: URI. Sampling bounds the page whatever the round's size.
import { readFileSync } from 'node:fs';
import type { Db, RoundRow } from '../store/index.js';
import { answerClaims, getBrowserAnswer, getBrowserPair, roundPairIds, type BrowserAnswerRow } from '../store/report-pairs.js';
import { pairVerdict } from '../store/pair-judgments.js';
import { createRng, hashSeed, sampleWithoutReplacement } from '../feedback/rng.js';
import { isRejected } from '../feedback/verdict.js';
import { sniffImageType } from '../backends/openai/images.js';
import { promptKind } from './data.js';
import { sentenceSegments } from './highlight.js';
import { browserOnPolicy } from './on-policy.js';
import { pairLens } from '../eval/difficulty.js';
import type { BrowserAnswer, BrowserPair, PairBrowser, Turn } from './types.js';

/**
 * The ids of `n` of a round's pairs drawn with the round's seed, in the round's prompt order; the same ids on every
 * run. All pairs when n ≥ their number.
 */
export function samplePairIds(db: Db, round: RoundRow, n: number): { total: number; ids: string[] } {
  const all = roundPairIds(db, round.id, round.pair_method);
  if (n >= all.length) return { total: all.length, ids: all };
  const picked = new Set(sampleWithoutReplacement(all, n, createRng(hashSeed(round.seed, 'report-pairs'))));
  return { total: all.length, ids: all.filter((id) => picked.has(id)) };
}

/** Gathers the browser's `n` sampled pairs (n > 0), images read once each from their stored files. */
export function gatherPairBrowser(db: Db, round: RoundRow, n: number): PairBrowser {
  const { total, ids } = samplePairIds(db, round, n);
  const images: PairBrowser['images'] = {};
  const onPolicy = browserOnPolicy(db, round.id);
  const pairs = ids.map((id) => {
    const p = getBrowserPair(db, id)!;
    if (!(p.image_id in images)) images[p.image_id] = imageDataUri(p.image_path);
    const meta = parseMeta(p.meta_json);
    const answer = (cid: string) => browserAnswer(db, round, getBrowserAnswer(db, cid)!);
    const pair: BrowserPair = {
      id: p.id,
      prompt_id: p.prompt_id,
      kind: promptKind(p.meta_json),
      image_id: p.image_id,
      image_path: p.image_path,
      instruction: p.question,
      // The prompt's stored turns; a prompt from before multi-turn input may carry them in meta.history.
      history: p.history_json ? historyOf({ history: JSON.parse(p.history_json) }) : historyOf(meta),
      truth: meta && 'truth' in meta ? meta.truth : null,
      chosen: answer(p.chosen_id),
      rejected: answer(p.rejected_id),
      chosen_score: p.chosen_score,
      rejected_score: p.rejected_score,
      margin: p.margin,
      balance_kept: p.balance_kept === null ? null : p.balance_kept === 1,
      gate: p.gate_kept === null ? null : { confidence: p.confidence, kept: p.gate_kept === 1, judge: judgeVerdict(db, round.id, p) },
      pair_kind: p.kind,
      editor: p.editor,
      edits:
        p.kind === 'correction' && p.edits_json
          ? (JSON.parse(p.edits_json) as BrowserPair['edits']).map((e) => ({ sentence: e.sentence, old: e.old, new: e.new }))
          : [],
      on_policy: onPolicy({ id: p.id, prompt_id: p.prompt_id, chosen_id: p.chosen_id }),
      difficulty: null,
    };
    // The difficulty lens (src/eval/difficulty.ts): how far apart the sides are, and what kind of claim decided it.
    const lens = (a: BrowserAnswer) => ({ text: a.segments.map((x) => x.text).join(''), claims: a.claims.map((c) => ({ claim: c.claim, rejected: c.rejected })) });
    const l = pairLens(lens(pair.chosen), lens(pair.rejected));
    pair.difficulty = { claim_diff: l.claim_diff, edit_distance: l.edit_distance, deciding_form: l.deciding_form };
    return pair;
  });
  return { total, shown: pairs.length, seed: round.seed, method: round.pair_method, accept_rule: round.accept_rule, pairs, images };
}

/** The judge model's verdict on a gated pair (its model is the judge id's model part); null when no judge rated it. */
function judgeVerdict(db: Db, roundId: number, p: { chosen_id: string; rejected_id: string }): NonNullable<BrowserPair['gate']>['judge'] {
  const v = pairVerdict(db, roundId, p.chosen_id, p.rejected_id);
  return v ? { model: v.judge.replace(/\|anyprefer:[0-9a-f]+$/, ''), score: v.score, reply: v.reply } : null;
}

function browserAnswer(db: Db, round: RoundRow, a: BrowserAnswerRow): BrowserAnswer {
  const claims = answerClaims(db, a.id, round.labeler_model);
  const { segments, missing } = sentenceSegments(a.text, claims.map((c) => c.sentence));
  return {
    id: a.id,
    words: a.words,
    finish_reason: a.finish_reason,
    segments,
    claims: claims.map((c, i) => ({
      claim: c.claim,
      // A found sentence is its marked segment already; only a missing one is carried, to be named.
      missing_sentence: missing.includes(i) ? c.sentence : null,
      question: c.question,
      p_yes: c.p_yes,
      p_no: c.p_no,
      rejected: c.p_yes === null || c.p_no === null ? null : isRejected(c.p_yes, c.p_no, round.accept_rule),
    })),
    n_claims: a.n_claims,
    n_rejected: a.n_rejected,
    rej_c: a.rej_c,
    rej_p: a.rej_p,
  };
}

/** The image file as a data: URI; null when the file is gone or is no image a browser shows (the page says so). */
function imageDataUri(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const type = sniffImageType(bytes);
  return type ? `data:${type};base64,${bytes.toString('base64')}` : null;
}

function parseMeta(json: string | null): Record<string, unknown> | null {
  const m = json ? (JSON.parse(json) as unknown) : null;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : null;
}

/**
 * Earlier turns, where the prompt carries them (today in its meta). A turn that is not {role, content} strings is
 * still shown, as JSON, rather than hidden.
 */
function historyOf(meta: Record<string, unknown> | null): Turn[] {
  const h = meta?.history;
  if (!Array.isArray(h)) return [];
  return h.map((t: unknown) => {
    const o = (t !== null && typeof t === 'object' ? t : {}) as { role?: unknown; content?: unknown };
    const role = typeof o.role === 'string' ? o.role : '?';
    return { role, content: typeof o.content === 'string' ? o.content : JSON.stringify(typeof t === 'object' ? o.content ?? t : t) };
  });
}
