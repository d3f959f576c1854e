// A hand-built round whose every figure is worked out by hand in the tests (see the comments there).
import type { EvalAnswer, EvalClaim, EvalRound, StoredScore } from '../../src/eval/index.js';
import type { Truth } from '../../src/shapes/index.js';

// Image: a large red circle in the top left and a small blue square in the center.
export const TRUTH: Truth = {
  objects: [
    { shape: 'circle', color: 'red', size: 'large', position: 'top left' },
    { shape: 'square', color: 'blue', size: 'small', position: 'center' },
  ],
};

type C = Omit<EvalClaim, 'idx'>;
const claim = (claimText: string, question: string, pYes: number | null, pNo: number | null, sentence = claimText): C => ({
  sentence,
  claim: claimText,
  questionId: `q:${question}`,
  question,
  pYes,
  pNo,
});

// Truth — labeler verdict (scripts rule: rejected unless p_yes > p_no).
export const RC = claim('There is a red circle.', 'Is there a red circle?', 0.9, 0.1); //          true  — accepted (tn)
export const BS = claim('There is a blue square.', 'Is there a blue square?', 0.3, 0.7); //        true  — rejected (fp)
export const GT = claim('There is a green triangle.', 'Is there a green triangle?', 0.2, 0.8); //  false — rejected (tp)
export const YS = claim('There is a yellow star.', 'Is there a yellow star?', 0.6, 0.4); //        false — accepted (fn)
export const RC_POS = claim('The red circle is in the center.', 'Is the red circle in the center?', 0.1, 0.9); // false — rejected (tp)
export const TWO = claim('There are two shapes.', 'Are there two shapes?', 0.8, 0.2); //            true  — accepted (tn)
// Outside the checker's language; a tie, so the scripts rule rejects it.
export const HAPPY = claim('The circle is happy.', 'Is the circle happy?', 0.5, 0.5); //           unknown — rejected
// Its question was never labeled.
export const RC_UNLABELED = claim('There is a red circle.', 'Is there a red circle in the image?', null, null, 'A red circle is there.'); // true — none
// The question lost the negation: the claim is true, the question's answer is no.
export const NO_GT = claim('There is no green triangle.', 'Is there a green triangle?', 0.2, 0.8); // true — rejected (fp)

export function answer(id: string, claims: C[], opts: { words?: number; text?: string; score?: StoredScore | null; skipped?: { sentence: string; reason: string }[]; divided?: boolean } = {}): EvalAnswer {
  return {
    id,
    sampleIndex: Number(id.slice(1)),
    text: opts.text ?? claims.map((c) => c.sentence).join(' '),
    words: opts.words ?? 10,
    division: opts.divided === false ? null : { skipped: opts.skipped ?? [] },
    claims: claims.map((c, idx) => ({ ...c, idx })),
    score: opts.score === undefined ? null : opts.score,
  };
}

const sc = (nClaims: number, nJudged: number, nRejected: number): StoredScore => ({
  nClaims,
  nJudged,
  nRejected,
  rejC: nJudged === 0 ? null : 0 - nRejected,
  rejP: nJudged === 0 ? null : nRejected / nJudged,
});

/**
 * Prompt p1: a1 [RC, BS] (0 false), a2 [RC, GT] (1), a3 [YS, TWO] (1), a4 [GT, RC_POS, TWO] (2).
 * Prompt p2: b1 [GT, RC, BS, TWO] (1 false of 4), b2 [YS] (1 false of 1).
 * Prompt p3 (not paired): c1 [HAPPY, RC_UNLABELED, NO_GT] with a skipped false sentence; c2 never divided.
 * Settings: REJ-C, diff 1, every pair kept, no length balance.
 */
export function handRound(): EvalRound {
  return {
    id: 1,
    status: 'done',
    seed: 5,
    labeler: 'test-labeler',
    acceptRule: 'scripts',
    scoreMethod: 'rejc',
    feedbackMethod: 'divide',
    pairGap: 1,
    samples: 4,
    pair: { strategy: 'rlaifv', diff: 1, maxPairs: 'all', lengthBalance: false, repeatedClaims: 'drop' },
    prompts: [
      {
        id: 'p1',
        question: 'Describe the image.',
        kind: 'detailed',
        truth: TRUTH,
        paired: true,
        answers: [
          answer('a1', [RC, BS], { score: sc(2, 2, 1) }),
          answer('a2', [RC, GT], { score: sc(2, 2, 1) }),
          answer('a3', [YS, TWO], { score: sc(2, 2, 0), words: 4 }),
          answer('a4', [GT, RC_POS, TWO], { score: sc(3, 3, 2) }),
        ],
      },
      {
        id: 'p2',
        question: 'What shapes are in the image?',
        kind: 'listing',
        truth: TRUTH,
        paired: true,
        answers: [answer('b1', [GT, RC, BS, TWO], { score: sc(4, 4, 2) }), answer('b2', [YS], { score: sc(1, 1, 0) })],
      },
      {
        id: 'p3',
        question: 'Describe the image.',
        kind: 'detailed',
        truth: TRUTH,
        paired: false,
        answers: [
          answer('c1', [HAPPY, RC_UNLABELED, NO_GT], {
            score: sc(3, 2, 2),
            skipped: [{ sentence: 'There is a purple star.', reason: 'test' }],
            text: 'The circle is happy. A red circle is there. There is no green triangle. There is a purple star.',
          }),
          answer('c2', [], { divided: false, text: 'Hmm.' }),
        ],
      },
    ],
    storedPairs: [
      ['a3', 'a1'],
      ['a1', 'a4'],
      ['a3', 'a2'],
      ['a2', 'a4'],
      ['a3', 'a4'],
      ['b2', 'b1'],
    ].map(([c, r]) => ({ promptId: c!.startsWith('a') ? 'p1' : 'p2', chosenId: c!, rejectedId: r!, balanceKept: true })),
    failures: {},
  };
}
