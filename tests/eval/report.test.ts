// The evaluation's pure figures on a hand-built round; every expected number is worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import {
  claimVerdict,
  errorSources,
  evaluateRound,
  judgeRound,
  labelQuality,
  pairQuality,
  pairRound,
  questionForm,
  ratio,
  renderReport,
  roundSetting,
  scoreVerdicts,
  storeCheck,
  variantRows,
  type EvalPair,
  type YesNo,
} from '../../src/eval/index.js';
import { GT, handRound, NO_GT } from './fixture.js';

const ids = (pairs: EvalPair[]) => pairs.map((p) => `${p.chosenId}>${p.rejectedId}`).sort();

describe('pure pieces', () => {
  it('questionForm names the forms of the test questions', () => {
    expect(questionForm('Is there a red circle?')).toBe('exists');
    expect(questionForm('Are there no stars?')).toBe('not_exists');
    expect(questionForm('Is there no blue square in the center?')).toBe('not_exists');
    expect(questionForm('Are there two shapes?')).toBe('count');
    expect(questionForm('Is the circle large?')).toBe('attribute');
    expect(questionForm('Is the square not blue?')).toBe('attribute_not');
    expect(questionForm('Is the red circle in the top left?')).toBe('position');
    expect(questionForm('Is the star not in the center?')).toBe('position_not');
    expect(questionForm('Is there a red circle and a blue star?')).toBe('list');
    expect(questionForm('Is the circle happy?')).toBe('other');
  });

  it('scoreVerdicts scores like the score stage: judged claims only, no claims = not scored', () => {
    expect(scoreVerdicts([true, null, false])).toEqual({ nClaims: 3, nJudged: 2, nRejected: 1, rejC: -1, rejP: 0.5 });
    expect(scoreVerdicts([false, false])).toEqual({ nClaims: 2, nJudged: 2, nRejected: 0, rejC: 0, rejP: 0 });
    expect(scoreVerdicts([])).toEqual({ nClaims: 0, nJudged: 0, nRejected: 0, rejC: null, rejP: null });
    expect(scoreVerdicts([null])).toEqual({ nClaims: 1, nJudged: 0, nRejected: 0, rejC: null, rejP: null });
  });

  it('labelQuality: accuracy, precision and recall of rejection', () => {
    expect(labelQuality({ tp: 3, fp: 1, fn: 2, tn: 4 })).toEqual({
      tp: 3, fp: 1, fn: 2, tn: 4, n: 10, accuracy: 0.7, precision: 0.75, recall: 0.6,
    });
    // Nothing rejected: precision is undefined, not 0; nothing false: recall undefined.
    expect(labelQuality({ tp: 0, fp: 0, fn: 0, tn: 5 })).toMatchObject({ accuracy: 1, precision: null, recall: null });
    expect(ratio(1, 0)).toBeNull();
  });

  it('pairQuality: accurate, inverted and equal pairs by false claims', () => {
    const truths = judgeRound(handRound());
    const pair = (c: string, r: string, cw = 10, rw = 10): EvalPair => ({
      promptId: 'p', chosenId: c, rejectedId: r, chosenWords: cw, rejectedWords: rw, margin: 1, balanceKept: true,
    });
    // false claims: a1 0, a2 1, a3 1, a4 2, c1 0 (one claim unknown to the checker).
    const q = pairQuality([pair('a1', 'a4', 8, 12), pair('a4', 'a2'), pair('a2', 'a3'), pair('a1', 'c1')], truths);
    expect(q).toEqual({
      pairs: 4,
      accurate: 1,
      inverted: 1,
      equal: 2,
      pair_accuracy: 0.25,
      inverted_share: 0.25,
      equal_share: 0.5,
      with_unknown: 1,
      mean_false_chosen: (0 + 2 + 1 + 0) / 4,
      mean_false_rejected: (2 + 1 + 1 + 0) / 4,
      mean_words_chosen: (8 + 10 + 10 + 10) / 4,
      mean_words_rejected: (12 + 10 + 10 + 10) / 4,
    });
    expect(pairQuality([], truths).pair_accuracy).toBeNull();
    expect(() => pairQuality([pair('a1', 'zz')], truths)).toThrow(/no truth for answer zz/);
  });
});

describe('evaluateRound on the hand-built round', () => {
  const e = evaluateRound(handRound());

  it('divide: sentences, claims, truth of claims and questions', () => {
    expect(e.divide).toEqual({
      answers: 8,
      divided: 7, // c2 was never divided
      answers_with_claims: 7,
      claims: 17, // p1 2+2+2+3, p2 4+1, p3 3
      claims_per_answer: 17 / 7,
      sentences: 18, // one per claim in p1, p2 (14); c1: 3 with claims + 1 skipped
      judgeable_sentences: 16, // c1: "The circle is happy." is not; the skipped one gave no claim
      judgeable_sentence_share: 16 / 18,
      skipped_sentences: 1,
      skipped_judgeable: 1, // "There is a purple star." is false, and no question asked about it
      claims_false: 6, // GT ×3, YS ×2, RC_POS
      claims_true: 10,
      claims_unknown: 1, // HAPPY
      false_claim_share: 6 / 16,
      question_truth_mismatch: 1, // NO_GT asks "Is there a green triangle?"
      answers_checker_mismatch: 1, // c1: the checker's own split finds the purple star
    });
  });

  it('label: the labeler against the truth of the claims', () => {
    // tp: a2 GT, a4 GT, a4 RC_POS, b1 GT; fp: a1 BS, b1 BS, c1 NO_GT; fn: a3 YS, b2 YS;
    // tn: a1 RC, a2 RC, a3 TWO, a4 TWO, b1 RC, b1 TWO. HAPPY: unknown truth; RC_UNLABELED: no label.
    expect(e.label).toMatchObject({ tp: 4, fp: 3, fn: 2, tn: 6, n: 15, claims: 17, unlabeled: 1, unknown_truth: 1 });
    expect(e.labeler_accuracy).toBeCloseTo(10 / 15, 12);
    expect(e.labeler_precision).toBeCloseTo(4 / 7, 12);
    expect(e.labeler_recall).toBeCloseTo(4 / 6, 12);
    expect(Object.keys(e.label.by_form)).toEqual(['count', 'exists', 'position']);
    // exists: 11 claims, 6 right (RC ×3, GT ×3), 5 false (GT ×3, YS ×2).
    expect(e.label.by_form.exists).toMatchObject({ n: 11, accuracy: 6 / 11, false_share: 5 / 11 });
    expect(e.label.by_form.count).toMatchObject({ n: 3, accuracy: 1, false_share: 0 });
    expect(e.label.by_form.position).toMatchObject({ n: 1, accuracy: 1, false_share: 1 });
  });

  it('pairs: REJ-C with the labeler, and the oracle as upper bound', () => {
    // Labeler REJ-C: a1 −1, a2 −1, a3 0, a4 −2; b1 −2, b2 0.
    // a3>a1 inverted (1 vs 0), a1>a4 accurate, a3>a2 equal, a2>a4 accurate, a3>a4 accurate, b2>b1 equal.
    expect(e.pairs_rejc).toBe(6);
    expect(e.pairs_after_balance_rejc).toBe(6); // length balance off keeps all
    expect(e.accuracy_on).toBe('all pairs (length balance off)');
    expect(e.pair_accuracy_rejc).toBe(3 / 6);
    expect(e.inverted_rejc).toBe(1 / 6);
    const rejc = e.pairs[0]!;
    expect(rejc).toMatchObject({ name: 'labeler REJ-C', verdicts: 'labeler', method: 'rejc', considered: 6 + 1, after: null });
    expect(rejc.dropped).toEqual({ below_diff: 1, unjudged: 0, repeated_claims: 0, identical: 0, gate: 0, sampled_out: 0 });
    expect(rejc.before).toMatchObject({ accurate: 3, inverted: 1, equal: 2, mean_false_chosen: 5 / 6, mean_false_rejected: 8 / 6 });
    // REJ-P with diff 1 pairs only a 0% answer with a 100% one: there is none.
    expect(e.pairs_rejp).toBe(0);
    expect(e.pair_accuracy_rejp).toBeNull();
    expect(e.inverted_rejp).toBeNull();
    // Oracle REJ-C = −false: a1 0, a2 −1, a3 −1, a4 −2 (a2–a3 tie); b1 −1, b2 −1 (tie): 5 pairs, all accurate.
    expect(e.pairs[2]).toMatchObject({ name: 'oracle REJ-C', verdicts: 'oracle' });
    expect(e.pairs[2]!.before).toMatchObject({ pairs: 5, accurate: 5, inverted: 0 });
    expect(e.oracle_pair_accuracy_rejc).toBe(1);
    expect(e.oracle_inverted_rejc).toBe(0);
    expect(e.prompts).toBe(3);
    expect(e.prompts_paired).toBe(2); // p3 was not paired by the pipeline, so not here either
  });

  it('errors: every inaccurate pair has a wrong label; accuracy by margin', () => {
    // a3>a1 (a3 accepted YS; a1's BS rejected), a3>a2 (a3 accepted YS), b2>b1 (b2 accepted YS; b1's BS rejected).
    expect(e.errors.rejc).toEqual({
      not_accurate: 3,
      label: 3,
      divide: 0,
      rule: 0,
      missed_in_chosen: 3,
      false_alarm_in_rejected: 2,
      by_margin: [
        { margin: '1', pairs: 4, pair_accuracy: 0.5, inverted_share: 0.25 }, // a3>a1, a1>a4, a3>a2, a2>a4
        { margin: '2', pairs: 2, pair_accuracy: 0.5, inverted_share: 0 }, // a3>a4, b2>b1
      ],
    });
  });

  it('the store check: recomputed pairs and scores equal the stored ones, and a difference shows', () => {
    expect(e.check).toEqual({ method: 'rejc', stored_pairs: 6, computed_pairs: 6, pairs_match: true, score_mismatches: 0 });
    const r = handRound();
    const truths = judgeRound(r);
    const made = pairRound(r, truths, roundSetting(r, 'rejc'));
    r.storedPairs.pop();
    expect(storeCheck(r, made)).toMatchObject({ stored_pairs: 5, pairs_match: false });
    const r2 = handRound();
    r2.storedPairs[0]!.balanceKept = null;
    r2.prompts[0]!.answers[0]!.score!.nRejected = 2;
    expect(storeCheck(r2, made)).toMatchObject({ pairs_match: false, score_mismatches: 1 });
  });

  it('renders a table with the figures', () => {
    const text = renderReport(e);
    expect(text).toMatch(/labeler REJ-C\s+6\s+50\.0%\s+16\.7%\s+33\.3%/);
    expect(text).toMatch(/oracle REJ-C\s+5\s+100\.0%\s+0\.0%/);
    expect(text).toMatch(/accuracy 66\.7%, precision 57\.1%, recall 66\.7%/);
    expect(text).toMatch(/rejc pairs recomputed 6, stored 6, identical/);
  });
});

describe('variants', () => {
  const r = handRound();
  const truths = judgeRound(r);

  it('REJ-P with diff 0.5, labeler and oracle; the oracle shows the rule\'s own error', () => {
    const [lab, orc] = variantRows(r, [
      { name: 'rejp labeler', method: 'rejp', diff: 0.5 },
      { name: 'rejp oracle', method: 'rejp', diff: 0.5, verdicts: { kind: 'oracle' } },
    ]);
    // Labeler shares: a1 .5, a2 .5, a3 0, a4 2/3; b1 .5, b2 0.
    // a3>a1 inverted, a3>a2 equal, a3>a4 accurate (gap 2/3), b2>b1 equal; a1–a4, a2–a4 gap 1/6 < .5.
    expect(lab!.before).toMatchObject({ pairs: 4, accurate: 1, inverted: 1, equal: 2 });
    // Oracle shares: a1 0, a2 .5, a3 .5, a4 2/3; b1 1/4, b2 1: a1 beats a2, a3, a4; b1 beats b2 with as many false claims.
    expect(orc!.before).toMatchObject({ pairs: 4, accurate: 3, inverted: 0, equal: 1 });
    const made = pairRound(r, truths, { ...roundSetting(r, 'rejp', { kind: 'oracle' }), diff: 0.5 });
    expect(errorSources(r, truths, made.pairs, 'rejp', { kind: 'oracle' })).toMatchObject({ not_accurate: 1, label: 0, divide: 0, rule: 1 });
  });

  it('length balance: r and kept pairs by hand, both tie-breaks', () => {
    // Shorten ratios: a3 (4 words) over a1, a2, a4 (10): 0.6; the other three pairs 0. Any r < 0.6 keeps those three
    // with objective 0; r ≥ 0.6 keeps all six with |42 − 60| / 60 = 0.3.
    const [small, large] = variantRows(r, [
      { name: 'smaller', lengthBalance: true },
      { name: 'larger', lengthBalance: true, tieBreak: 'larger' },
    ]);
    expect(small!.balance_r).toBe(0);
    expect(large!.balance_r).toBe(0.58);
    for (const row of [small!, large!]) {
      expect(row.before.pairs).toBe(6);
      // Kept: a1>a4, a2>a4 (accurate), b2>b1 (equal).
      expect(row.after).toMatchObject({ pairs: 3, accurate: 2, inverted: 0, equal: 1 });
    }
  });

  it('max pairs: a seeded sample of the same candidates', () => {
    const all = pairRound(r, truths, roundSetting(r, 'rejc'));
    const two = pairRound(r, truths, { ...roundSetting(r, 'rejc'), maxPairs: 2 });
    expect(two.pairs.filter((p) => p.promptId === 'p1')).toHaveLength(2);
    expect(two.dropped.sampled_out).toBe(3);
    expect(ids(all.pairs)).toEqual(expect.arrayContaining(ids(two.pairs)));
    expect(ids(pairRound(r, truths, { ...roundSetting(r, 'rejc'), maxPairs: 2 }).pairs)).toEqual(ids(two.pairs));
  });

  it('a noisy labeler: accuracy 1 is the oracle, 0 inverts it, and one question gets one answer', () => {
    const oracle = pairRound(r, truths, roundSetting(r, 'rejc', { kind: 'oracle' }));
    const perfect = pairRound(r, truths, roundSetting(r, 'rejc', { kind: 'noisy', accuracy: 1, seed: 1 }));
    expect(ids(perfect.pairs)).toEqual(ids(oracle.pairs));
    // Every answer flipped: rejected = true claims. a1 −2, a2 −1, a3 −1, a4 −1; b1 −3, b2 0:
    // a2>a1, a3>a1, a4>a1 inverted; b2>b1 equal.
    const flipped = pairRound(r, truths, roundSetting(r, 'rejc', { kind: 'noisy', accuracy: 0, seed: 1 }));
    expect(pairQuality(flipped.pairs, truths)).toMatchObject({ pairs: 4, accurate: 0, inverted: 3, equal: 1 });
    // GT and NO_GT ask the same question: a noisy labeler answers it once.
    for (let seed = 0; seed < 20; seed++) {
      const src = { kind: 'noisy', accuracy: 0.5, seed } as const;
      expect(claimVerdict(src, { ...GT, idx: 0 }, 'false', 'scripts')).toBe(claimVerdict(src, { ...NO_GT, idx: 0 }, 'false', 'scripts'));
    }
  });

  it('a noisy labeler is right at the asked rate over many questions', () => {
    let right = 0;
    for (let i = 0; i < 4000; i++) {
      const c = { ...GT, idx: 0, questionId: `q${i}` };
      if (claimVerdict({ kind: 'noisy', accuracy: 0.7, seed: 3 }, c, i % 2 ? 'false' : 'true', 'scripts') === (i % 2 === 1)) right++;
    }
    expect(right / 4000).toBeGreaterThan(0.67);
    expect(right / 4000).toBeLessThan(0.73);
  });

  it('other labels per question: the stored ones reproduce the labeler, a changed one changes a pair', () => {
    const labels = new Map<string, YesNo>();
    for (const p of r.prompts) for (const a of p.answers) for (const c of a.claims) labels.set(c.questionId, { pYes: c.pYes, pNo: c.pNo });
    const base = ids(pairRound(r, truths, roundSetting(r, 'rejc')).pairs);
    expect(ids(pairRound(r, truths, roundSetting(r, 'rejc', { kind: 'labels', name: 'same', labels })).pairs)).toEqual(base);
    // Yes to "Is there a blue square?": a1 becomes 0, b1 −1. p1: a1 0, a2 −1, a3 0, a4 −2; p2: b1 −1, b2 0.
    labels.set('q:Is there a blue square?', { pYes: 0.9, pNo: 0.1 });
    const changed = ids(pairRound(r, truths, roundSetting(r, 'rejc', { kind: 'labels', name: 'bs yes', labels })).pairs);
    expect(changed).toEqual(['a1>a2', 'a1>a4', 'a2>a4', 'a3>a2', 'a3>a4', 'b2>b1']);
  });
});
