// The reward server's online round (`rlaifv serve`): which round a config writes into, its answers stored exactly once
// (by prompt and text), and what the server reads back to answer: each answer's claims with their labels.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';
import { putImage, putPrompt, type ImageRow, type PromptRow } from './inputs.js';

/** The online round a server with this config hash writes into; null when there is none yet. */
export function onlineRound(db: Db, configHash: string): number | null {
  const r = stmt(db, 'SELECT round_id FROM online_rounds WHERE config_hash = ? ORDER BY round_id DESC LIMIT 1').get(configHash) as
    | { round_id: number }
    | undefined;
  return r?.round_id ?? null;
}

/** Records that a round is a server's online round (call it in the transaction that creates the round). */
export function markOnlineRound(db: Db, roundId: number, configHash: string): void {
  stmt(db, 'INSERT INTO online_rounds (round_id, config_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(roundId, configHash, now());
}

/** One scored answer to store: its image, its prompt (image + question) and the answer's text. */
export interface OnlineAnswer {
  image: ImageRow;
  prompt: PromptRow;
  text: string;
  words: number;
  /** The policy's name when the trainer gave one; `online` otherwise. */
  model: string;
}

/** Where an online answer is stored: its candidate, its prompt's ordinal in the round, and whether it was new. */
export interface StoredAnswer {
  candidateId: string;
  promptId: string;
  ordinal: number;
  fresh: boolean;
}

/**
 * Stores answers as candidates of the online round, one transaction: a prompt joins the round at the next ordinal the
 * first time it is seen; an answer whose prompt already has the same text is that candidate again (a trainer's retry
 * never stores an answer twice). A reused candidate's open divide and label failures are reopened and its score row
 * dropped, so the stages take it up again (a labeler that was down is asked again). `candidateId` makes the id.
 */
export function putOnlineAnswers(
  db: Db,
  roundId: number,
  answers: readonly OnlineAnswer[],
  candidateId: (promptId: string, sampleIndex: number) => string,
): StoredAnswer[] {
  return db.transaction((): StoredAnswer[] => {
    const out: StoredAnswer[] = [];
    for (const a of answers) {
      putImage(db, a.image);
      putPrompt(db, a.prompt);
      const ordinal = promptOrdinal(db, roundId, a.prompt.id);
      const same = stmt(db, 'SELECT id FROM candidates WHERE round_id = ? AND prompt_id = ? AND text = ? LIMIT 1').get(roundId, a.prompt.id, a.text) as
        | { id: string }
        | undefined;
      if (same) {
        reopenAnswer(db, roundId, same.id);
        out.push({ candidateId: same.id, promptId: a.prompt.id, ordinal, fresh: false });
        continue;
      }
      const index = (stmt(db, 'SELECT COALESCE(MAX(sample_index) + 1, 0) AS n FROM candidates WHERE round_id = ? AND prompt_id = ?').get(roundId, a.prompt.id) as { n: number }).n;
      const id = candidateId(a.prompt.id, index);
      stmt(
        db,
        `INSERT INTO candidates (id, round_id, prompt_id, sample_index, seed, model_id, decoding_json, text, finish_reason,
           prompt_tokens, completion_tokens, words, created_at)
         VALUES (?, ?, ?, ?, 0, ?, '{}', ?, 'stop', NULL, NULL, ?, ?) ON CONFLICT (id) DO NOTHING`,
      ).run(id, roundId, a.prompt.id, index, a.model, a.text, a.words, now());
      out.push({ candidateId: id, promptId: a.prompt.id, ordinal, fresh: true });
    }
    return out;
  }).immediate();
}

/** The prompt's ordinal in the round, adding it at the end when it is new. */
function promptOrdinal(db: Db, roundId: number, promptId: string): number {
  const have = stmt(db, 'SELECT ordinal FROM round_prompts WHERE round_id = ? AND prompt_id = ?').get(roundId, promptId) as { ordinal: number } | undefined;
  if (have) return have.ordinal;
  const next = (stmt(db, 'SELECT COALESCE(MAX(ordinal) + 1, 0) AS n FROM round_prompts WHERE round_id = ?').get(roundId) as { n: number }).n;
  stmt(db, 'INSERT INTO round_prompts (round_id, prompt_id, ordinal) VALUES (?, ?, ?)').run(roundId, promptId, next);
  return next;
}

/** Reopens a stored answer's open divide failure and its questions' open label failures; drops its score when any was open. */
function reopenAnswer(db: Db, roundId: number, candidateId: string): void {
  const t = now();
  const a = stmt(db, "UPDATE failures SET retried_at = ? WHERE round_id = ? AND stage = 'divide' AND item = ? AND retried_at IS NULL").run(t, roundId, candidateId).changes;
  const b = stmt(
    db,
    `UPDATE failures SET retried_at = ? WHERE round_id = ? AND stage = 'label' AND retried_at IS NULL
       AND item IN (SELECT question_id FROM claims WHERE candidate_id = ?)`,
  ).run(t, roundId, candidateId).changes;
  if (a + b > 0) stmt(db, 'DELETE FROM scores WHERE candidate_id = ?').run(candidateId);
}

/** One claim of a stored answer with its question and this labeler's label (null when there is none). */
export interface ClaimEvidence {
  idx: number;
  sentence: string;
  claim: string;
  question_id: string;
  question: string;
  p_yes: number | null;
  p_no: number | null;
  labeled: boolean;
  /** The open label failure's reason, when the labeler failed on this question. */
  label_error: string | null;
  /** [span_start, span_end) of the claim's source text in the answer, as the divider gave it; null when it gave none. */
  span_start: number | null;
  span_end: number | null;
}

/** What the server answers from: a stored answer's division (or divide failure) and claims. */
export interface AnswerEvidence {
  candidateId: string;
  divided: boolean;
  divideError: string | null;
  claims: ClaimEvidence[];
}

/** The evidence of stored answers, in the order asked, read with this labeler's labels. */
export function answerEvidence(db: Db, roundId: number, candidateIds: readonly string[], labeler: string): AnswerEvidence[] {
  const div = stmt(db, 'SELECT 1 AS ok FROM divisions WHERE candidate_id = ?');
  const fail = stmt(db, "SELECT reason FROM failures WHERE round_id = ? AND stage = 'divide' AND item = ? AND retried_at IS NULL");
  const claims = stmt(
    db,
    `SELECT cl.idx, cl.sentence, cl.claim, cl.question_id, q.text AS question, l.p_yes, l.p_no, cl.span_start, cl.span_end,
       (l.question_id IS NOT NULL) AS labeled, f.reason AS label_error
     FROM claims cl JOIN questions q ON q.id = cl.question_id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     LEFT JOIN failures f ON f.round_id = ? AND f.stage = 'label' AND f.item = cl.question_id AND f.retried_at IS NULL
     WHERE cl.candidate_id = ? ORDER BY cl.idx`,
  );
  return candidateIds.map((id) => {
    const rows = claims.all(labeler, roundId, id) as (Omit<ClaimEvidence, 'labeled'> & { labeled: number })[];
    return {
      candidateId: id,
      divided: div.get(id) !== undefined,
      divideError: (fail.get(roundId, id) as { reason: string } | undefined)?.reason ?? null,
      claims: rows.map((r) => ({ ...r, labeled: r.labeled === 1 })),
    };
  });
}

/** How many answers the online round holds (for /v1/info and the tests' exactly-once check). */
export function onlineAnswerCount(db: Db, roundId: number): number {
  return (stmt(db, 'SELECT COUNT(*) AS n FROM candidates WHERE round_id = ?').get(roundId) as { n: number }).n;
}

/** Whether a round is a reward server's online round (its prompts come from requests, never from a prompts file). */
export function isOnlineRound(db: Db, roundId: number): boolean {
  return stmt(db, 'SELECT 1 FROM online_rounds WHERE round_id = ?').get(roundId) !== undefined;
}
