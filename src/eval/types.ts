// A round as `rlaifv eval` sees it: what the store holds about every answer, claim and label, plus each prompt's truth.
import type { AcceptRule } from '../feedback/verdict.js';
import type { ScoreMethod } from '../feedback/scores.js';
import type { RepeatedClaims } from '../feedback/pairs.js';
import type { Truth } from '../shapes/truth.js';

/** One claim of an answer, with the labeler's reading of its question (null p's: unscored, failed or not labeled yet). */
export interface EvalClaim {
  idx: number;
  sentence: string;
  claim: string;
  questionId: string;
  question: string;
  pYes: number | null;
  pNo: number | null;
  /** Which source decided the verdict in a round with label.tools: "labeler" or a tool's name (absent: the labeler). */
  source?: string;
  /** In a round with label.tools: the labeler's own p(yes)/p(no) for the question (null p's: it has none). */
  own?: { pYes: number | null; pNo: number | null };
}

/** The score row the pipeline stored for an answer (absent when the answer was never scored). */
export interface StoredScore {
  nClaims: number;
  nJudged: number;
  nRejected: number;
  rejC: number | null;
  rejP: number | null;
}

/** One sampled answer with its division (null when it was never divided, e.g. a divide failure). */
export interface EvalAnswer {
  id: string;
  sampleIndex: number;
  text: string;
  /** Whitespace words, as stored with the candidate (what pairing and length balance use). */
  words: number;
  division: { skipped: { sentence: string; reason: string }[] } | null;
  /** In answer order (claims.idx). */
  claims: EvalClaim[];
  score: StoredScore | null;
}

/** A corrected answer (pair.corrections): an answer like the sampled ones, with the one it corrects and how. */
export interface EvalCorrection extends EvalAnswer {
  correctsId: string;
  editor: string;
  edits: { sentence: number; old: string; new: string | null; claim_ids: string[]; source_id?: string }[];
}

/** One prompt of the round with its image's truth. */
export interface EvalPrompt {
  id: string;
  question: string;
  /** The instruction's kind from meta.kind (shapes world: detailed, listing, attribute, position, counting), if any. */
  kind: string | null;
  truth: Truth;
  /** The prompt's image (a tool reads it; `rlaifv eval --tools`). */
  imageId?: string;
  imagePath?: string;
  /** True when the pipeline paired this prompt (a pairings row for the round's method): only these are paired here. */
  paired: boolean;
  /** The policy's sampled answers. */
  answers: EvalAnswer[];
  /** Corrected answers the editors wrote (pair.corrections); absent or empty without. */
  corrections?: EvalCorrection[];
}

/** The pair settings a round was made with (REFERENCE §5; config `pair`). */
export interface PairConfig {
  strategy: string;
  diff: number;
  maxPairs: number | 'all';
  lengthBalance: boolean;
  /** pair.repeated_claims; 'keep' for rounds made before the setting existed (how they were paired). */
  repeatedClaims: RepeatedClaims;
  /** feedback.gate.threshold: the quality gate's threshold (absent or null: no gate). */
  gate?: number | null;
  /** pair.corrections: the correction editors (absent: none). */
  corrections?: string[];
  /** pair.rank_pairs (absent: true). */
  rankPairs?: boolean;
}

/** A pair as the store holds it. */
export interface StoredPair {
  promptId: string;
  chosenId: string;
  rejectedId: string;
  /** null when length balance has not run yet; false for a pair the quality gate dropped. */
  balanceKept: boolean | null;
  /** The quality gate's decision (null: no gate ran). */
  gateKept?: boolean | null;
  /** 'rank' (absent: rank) or 'correction', with the correction's editor. */
  kind?: 'rank' | 'correction';
  editor?: string | null;
}

/** Everything the evaluation needs about one round; built by loadEvalRound, or by hand in tests. */
export interface EvalRound {
  id: number;
  status: string;
  seed: number;
  labeler: string;
  acceptRule: AcceptRule;
  scoreMethod: ScoreMethod;
  /** The round's feedback method (divide, holistic, dpo-reward, oracle); stored pairs are of its pair method. */
  feedbackMethod: string;
  /** The minimum score gap the round's stored pairs were made with (pair.diff for divide). */
  pairGap: number;
  /** A judge model gated the round's pairs (feedback.gate.judge): its verdicts cannot be recomputed. */
  judgeGate?: boolean;
  samples: number;
  pair: PairConfig;
  prompts: EvalPrompt[];
  /** The stored pairs of the round's own score method. */
  storedPairs: StoredPair[];
  /** Failure rows of the round by stage. */
  failures: Record<string, number>;
  /** A round with label.tools: its labeler's own id and the routing table its verdicts came from (absent: none). */
  tools?: { labeler: string; routing: Record<string, string> };
}
