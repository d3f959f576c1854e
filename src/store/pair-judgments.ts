// The quality gate's judge-model verdicts on candidate pairs (Anyprefer's reward-model prompt): one row per judged pair.
import type { Db } from './open.js';
import { now, stmt } from './statements.js';

/** A judge's verdict on one candidate pair: score 1–10 and its whole reply. */
export interface PairJudgmentRow {
  round_id: number;
  chosen_id: string;
  rejected_id: string;
  /** The judge model and prompt (PairJudge.id). */
  judge: string;
  score: number;
  reply: string;
  attempts: number;
}

/** Stores one verdict (a verdict asked again replaces the old one). */
export function putPairJudgment(db: Db, row: PairJudgmentRow): void {
  stmt(
    db,
    `INSERT INTO pair_judgments (round_id, chosen_id, rejected_id, judge, score, reply, attempts, created_at)
     VALUES (@round_id, @chosen_id, @rejected_id, @judge, @score, @reply, @attempts, @created_at)
     ON CONFLICT (round_id, chosen_id, rejected_id, judge) DO UPDATE SET score = excluded.score, reply = excluded.reply,
       attempts = excluded.attempts, created_at = excluded.created_at`,
  ).run({ ...row, created_at: now() });
}

/** A stored verdict on chosen → rejected by `judge`; undefined when that pair was never judged. */
export function getPairJudgment(db: Db, roundId: number, chosenId: string, rejectedId: string, judge: string): PairJudgmentRow | undefined {
  return stmt(db, 'SELECT * FROM pair_judgments WHERE round_id = ? AND chosen_id = ? AND rejected_id = ? AND judge = ?').get(
    roundId,
    chosenId,
    rejectedId,
    judge,
  ) as PairJudgmentRow | undefined;
}

/** The gate's judge-model verdict on a pair (the latest, if it was judged by more than one judge), or undefined. */
export function pairVerdict(db: Db, roundId: number, chosenId: string, rejectedId: string): { judge: string; score: number; reply: string } | undefined {
  return stmt(
    db,
    'SELECT judge, score, reply FROM pair_judgments WHERE round_id = ? AND chosen_id = ? AND rejected_id = ? ORDER BY created_at DESC LIMIT 1',
  ).get(roundId, chosenId, rejectedId) as { judge: string; score: number; reply: string } | undefined;
}

/** A prompt as the judge sees it: its image file, question and earlier turns. */
export interface JudgePrompt {
  id: string;
  image_path: string;
  question: string;
  history_json: string | null;
}

/** The prompts of `ids` with their image paths. */
export function judgePrompts(db: Db, ids: readonly string[]): Map<string, JudgePrompt> {
  const rows = stmt(
    db,
    `SELECT p.id, i.path AS image_path, p.question, p.history_json FROM prompts p JOIN images i ON i.id = p.image_id
     WHERE p.id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as JudgePrompt[];
  return new Map(rows.map((r) => [r.id, r]));
}
