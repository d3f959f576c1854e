// The labeler's answer as numbers: p(yes) and p(no) from the first generated position (REFERENCE §3).

/** Normalises a token's text for the yes/no test: drops SentencePiece/byte-BPE space markers, trims, lower-cases. */
export function normaliseTokenText(text: string): string {
  return text.replace(/^[\u2581\u0120\s]+/u, '').trim().toLowerCase();
}

/** Token ids of every vocabulary entry that reads "yes" or "no" (Yes, yes, ▁Yes, ĠNo, ...). */
export function yesNoTokenIds(vocab: Iterable<[string, number]>): { yes: number[]; no: number[] } {
  const yes: number[] = [];
  const no: number[] = [];
  for (const [text, id] of vocab) {
    const n = normaliseTokenText(text);
    if (n === 'yes') yes.push(id);
    else if (n === 'no') no.push(id);
  }
  if (yes.length === 0 || no.length === 0) {
    throw new Error(`The labeler's vocabulary has no ${yes.length === 0 ? '"yes"' : '"no"'} token; it cannot answer yes/no.`);
  }
  return { yes: yes.sort((a, b) => a - b), no: no.sort((a, b) => a - b) };
}

/** One token of the labeler's first-position distribution. */
export interface TopToken {
  token: string;
  p: number;
}

/** p(yes), p(no) and the top tokens from one row of logits (softmax over the full vocabulary). */
export interface YesNoProbs {
  pYes: number;
  pNo: number;
  top: TopToken[];
}

/**
 * Softmax over the whole vocabulary, then sums the yes and no variants.
 * @example yesNoFromLogits(Float32Array.of(2, 0, 1), { yes: [0], no: [2] }, ['Yes', 'x', 'No']) // pYes ≈ 0.665
 */
export function yesNoFromLogits(
  logits: ArrayLike<number>,
  ids: { yes: number[]; no: number[] },
  vocabText?: (id: number) => string,
  topK = 5,
): YesNoProbs {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  const p = (i: number) => Math.exp(logits[i]! - max) / sum;
  const pYes = ids.yes.reduce((a, i) => a + p(i), 0);
  const pNo = ids.no.reduce((a, i) => a + p(i), 0);
  const top: TopToken[] = [];
  if (vocabText && topK > 0) for (const i of topIndices(logits, topK)) top.push({ token: vocabText(i), p: p(i) });
  return { pYes, pNo, top };
}

/** Indices of the k largest values, largest first (ties: lower index first); one pass, no sort of the vocabulary. */
export function topIndices(values: ArrayLike<number>, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (best.length === k && v <= values[best[k - 1]!]!) continue;
    let j = best.length < k ? best.length : k - 1;
    while (j > 0 && values[best[j - 1]!]! < v) {
      if (j < k) best[j] = best[j - 1]!;
      j--;
    }
    best[j] = i;
  }
  return best;
}

/** One entry of a server's `top_logprobs`. */
export interface TopLogprob {
  token: string;
  logprob: number;
}

/** p(yes), p(no) read from a server's top-K list; null when neither is listed. */
export interface YesNoFromTop {
  pYes: number | null;
  pNo: number | null;
  top: TopToken[];
  /** True when one side was missing from the top K and bounded by the smallest listed probability. */
  boundUsed: boolean;
}

/**
 * Sums every listed token whose text (trimmed, lower-cased) is yes / no (REFERENCE §3). A side missing from the top K
 * has probability at most the smallest listed one: that bound is used and flagged. Neither listed: unscored (nulls).
 * @example yesNoFromTopLogprobs([{ token: 'Yes', logprob: -0.1 }, { token: ' no', logprob: -2.5 }]).pYes // ≈ 0.905
 */
export function yesNoFromTopLogprobs(list: TopLogprob[]): YesNoFromTop {
  const top = list.map((t) => ({ token: t.token, p: Math.exp(t.logprob) }));
  let yes = 0;
  let no = 0;
  let sawYes = false;
  let sawNo = false;
  let min = Infinity;
  for (const t of top) {
    const n = normaliseTokenText(t.token);
    if (n === 'yes') {
      yes += t.p;
      sawYes = true;
    } else if (n === 'no') {
      no += t.p;
      sawNo = true;
    }
    if (t.p < min) min = t.p;
  }
  if (!sawYes && !sawNo) return { pYes: null, pNo: null, top, boundUsed: false };
  if (sawYes && sawNo) return { pYes: yes, pNo: no, top, boundUsed: false };
  return sawYes ? { pYes: yes, pNo: min, top, boundUsed: true } : { pYes: min, pNo: no, top, boundUsed: true };
}
