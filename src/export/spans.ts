// Claim spans (RLHF-V's fine-grained segments, for token-weighted DPO): where each claim's sentence sits in an answer,
// with the labeler's verdict on the claim and its p(no). Exported as `chosen_spans` / `rejected_spans` when asked for.
import { pairSides, roundLabeling, spanClaims } from '../store/spans.js';
import type { Db } from '../store/index.js';
import type { ExportPair } from '../store/deliveries.js';
import { isRejected, type AcceptRule } from '../feedback/verdict.js';
import { ExportInputError } from './errors.js';
import { claimSpan, locateSentences } from '../feedback/claim-spans.js';
import type { Container } from './formats.js';

/** Spans go in JSON rows only (a Parquet file's schema is fixed to the data set's columns). */
export function spansAllowed(container: Container): void {
  if (container === 'parquet') throw new ExportInputError('--spans: claim spans are written to JSON Lines and JSON files only, not Parquet; give a .jsonl or .json --out.');
}

/** One claim's source text in an answer: characters [start, end) of the answer text. */
export interface ClaimSpan {
  start: number;
  end: number;
  claim: string;
  /** rejected: the labeler says no (the round's accept rule); accepted; unjudged: no label, or neither yes nor no. */
  verdict: 'rejected' | 'accepted' | 'unjudged';
  p_no: number | null;
  /** A correction's chosen side: the sentence is one its editor wrote (token-weighted DPO weighs it as a rejected one). */
  edited?: true;
}

/** One stored claim with its round's label; span_start/span_end are null for a row stored before spans were. */
export interface SpanClaim {
  sentence: string;
  claim: string;
  p_yes: number | null;
  p_no: number | null;
  span_start?: number | null;
  span_end?: number | null;
}

/**
 * The spans of one answer: each claim's stored span, or for a claim stored without one its sentence found in the text
 * in order (a sentence of several claims gives one range per claim). A claim with neither (the divider rewrote its
 * sentence so that it is not in the text verbatim) gives no span.
 */
export function answerSpans(text: string, claims: readonly SpanClaim[], rule: AcceptRule, edited: ReadonlySet<string> = new Set()): ClaimSpan[] {
  const located = locateSentences(text, claims.map((c) => c.sentence));
  const out: ClaimSpan[] = [];
  claims.forEach((c, i) => {
    const span = claimSpan({ start: c.span_start, end: c.span_end }, located[i] ?? null, text.length);
    if (!span) return;
    const verdict = c.p_yes === null || c.p_no === null ? 'unjudged' : isRejected(c.p_yes, c.p_no, rule) ? 'rejected' : 'accepted';
    out.push({ ...span, claim: c.claim, verdict, p_no: c.p_no, ...(edited.has(c.sentence) ? { edited: true as const } : {}) });
  });
  return out;
}

/** Adds `chosen_spans` and `rejected_spans` to each exported pair, from the store's claims and its round's labels. */
export function* withSpans(db: Db, rows: Iterable<ExportPair>): IterableIterator<ExportPair> {
  for (const p of rows) {
    const pair = pairSides(db, p.pair_id);
    const r = roundLabeling(db, p.round);
    const spans = (id: string, text: string, edited?: ReadonlySet<string>) =>
      answerSpans(text, spanClaims(db, r.labeler_model, id), r.accept_rule, edited);
    yield { ...p, chosen_spans: spans(pair.chosen_id, p.chosen, editedSentences(pair.edits_json)), rejected_spans: spans(pair.rejected_id, p.rejected) };
  }
}

/** The sentences a correction's editor wrote (its edits' new texts), from the corrected answer's edits_json. */
export function editedSentences(editsJson: string | null): Set<string> {
  if (editsJson === null) return new Set();
  return new Set((JSON.parse(editsJson) as { new: string | null }[]).flatMap((e) => (e.new === null ? [] : [e.new])));
}
