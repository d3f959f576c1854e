// Refinement dialogues (db/014): the turns of the `refine` editor's student/teacher conversations and how each ended.
import type { Db } from './open.js';
import { stmt } from './statements.js';
import { HELD_OUT_IMAGES } from './deliveries.js';

/** One answer of a dialogue (the sampled answer it starts from, or a revision) with its claims' labels. */
export interface DialogueAnswer {
  id: string;
  prompt_id: string;
  sample_index: number;
  seed: number;
  text: string;
  finish_reason: string;
  /** Whether divide stored a division for it (false: not divided yet, or its division failed). */
  divided: boolean;
  claims: { id: string; sentence: string; claim: string; p_yes: number | null; p_no: number | null }[];
}

/** A revision with the teacher's turn that asked for it. */
export interface DialogueTurn extends DialogueAnswer {
  turn: number;
  score: number | null;
  feedback: string;
}

/** A sampled answer with the dialogue started from it so far. */
export interface DialogueState {
  source: DialogueAnswer;
  turns: DialogueTurn[];
  /** Set when the dialogue has ended. */
  ended: { end_reason: DialogueEnd; chosen_id: string | null } | null;
}

/** Why a dialogue ended. */
export type DialogueEnd = 'clean' | 'max_turns' | 'context' | 'unjudged' | 'failed';

/**
 * The sampled answers of the given prompts of a round with their dialogues so far (revisions in turn order), each
 * answer with its claims and `labeler`'s labels. Sampled answers without a dialogue come with `turns` empty.
 */
export function dialogueStates(db: Db, roundId: number, labeler: string, promptIds: readonly string[]): Map<string, DialogueState[]> {
  const rows = stmt(
    db,
    `SELECT c.id, c.prompt_id, c.sample_index, c.seed, c.text, c.finish_reason, c.corrects_id,
       d.candidate_id IS NOT NULL AS divided, t.turn, t.score, t.feedback, e.end_reason, e.chosen_id,
       cl.id AS claim_id, cl.sentence, cl.claim, l.p_yes, l.p_no
     FROM candidates c
     LEFT JOIN dialogue_turns t ON t.revision_id = c.id
     LEFT JOIN dialogues e ON e.source_id = c.id
     LEFT JOIN divisions d ON d.candidate_id = c.id
     LEFT JOIN claims cl ON cl.candidate_id = c.id
     LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ?
     WHERE c.round_id = ? AND c.prompt_id IN (SELECT value FROM json_each(?))
       AND (c.corrects_id IS NULL OR t.revision_id IS NOT NULL)
     ORDER BY c.prompt_id, c.corrects_id IS NOT NULL, t.turn, c.sample_index, c.id, cl.idx`,
  ).all(labeler, roundId, JSON.stringify(promptIds)) as {
    id: string;
    prompt_id: string;
    sample_index: number;
    seed: number;
    text: string;
    finish_reason: string;
    corrects_id: string | null;
    divided: number;
    turn: number | null;
    score: number | null;
    feedback: string | null;
    end_reason: DialogueEnd | null;
    chosen_id: string | null;
    claim_id: string | null;
    sentence: string | null;
    claim: string | null;
    p_yes: number | null;
    p_no: number | null;
  }[];
  const out = new Map<string, DialogueState[]>();
  const byId = new Map<string, DialogueAnswer>();
  const states = new Map<string, DialogueState>();
  for (const r of rows) {
    let a = byId.get(r.id);
    if (!a) {
      const base: DialogueAnswer = {
        id: r.id,
        prompt_id: r.prompt_id,
        sample_index: r.sample_index,
        seed: r.seed,
        text: r.text,
        finish_reason: r.finish_reason,
        divided: r.divided === 1,
        claims: [],
      };
      byId.set(r.id, base);
      a = base;
      if (r.corrects_id === null) {
        const s: DialogueState = { source: base, turns: [], ended: r.end_reason ? { end_reason: r.end_reason, chosen_id: r.chosen_id } : null };
        states.set(r.id, s);
        let l = out.get(r.prompt_id);
        if (!l) out.set(r.prompt_id, (l = []));
        l.push(s);
      } else {
        const turn: DialogueTurn = { ...base, turn: r.turn!, score: r.score, feedback: r.feedback! };
        byId.set(r.id, turn);
        a = turn;
        // Revisions sort after the prompt's sampled answers, so their dialogue is known.
        states.get(r.corrects_id)?.turns.push(turn);
      }
    }
    if (r.claim_id !== null) a.claims.push({ id: r.claim_id, sentence: r.sentence!, claim: r.claim!, p_yes: r.p_yes, p_no: r.p_no });
  }
  return out;
}

/** A revision's turn row. */
export interface DialogueTurnRow {
  revision_id: string;
  source_id: string;
  round_id: number;
  turn: number;
  level: 'simple' | 'detailed';
  score: number | null;
  feedback: string;
  /** Who spoke the turn: 'verdicts' (the labeler's verdicts) or the served teacher's id. */
  teacher: string;
}

/** Stores revisions' turn rows (idempotent by revision id). */
export function putDialogueTurns(db: Db, rows: readonly DialogueTurnRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO dialogue_turns (revision_id, source_id, round_id, turn, level, score, feedback, teacher, created_at)
     VALUES (@revision_id, @source_id, @round_id, @turn, @level, @score, @feedback, @teacher, @created_at)
     ON CONFLICT (revision_id) DO NOTHING`,
  );
  const t = new Date().toISOString();
  db.transaction(() => {
    for (const r of rows) ins.run({ ...r, created_at: t });
  }).immediate();
}

/** A finished dialogue's row. */
export interface DialogueRow {
  source_id: string;
  round_id: number;
  level: 'simple' | 'detailed';
  turns: number;
  end_reason: DialogueEnd;
  chosen_id: string | null;
}

/** Stores finished dialogues (a dialogue ends once: later writes of it are ignored). */
export function putDialogues(db: Db, rows: readonly DialogueRow[]): void {
  const ins = stmt(
    db,
    `INSERT INTO dialogues (source_id, round_id, level, turns, end_reason, chosen_id, created_at)
     VALUES (@source_id, @round_id, @level, @turns, @end_reason, @chosen_id, @created_at)
     ON CONFLICT (source_id) DO NOTHING`,
  );
  const t = new Date().toISOString();
  db.transaction(() => {
    for (const r of rows) ins.run({ ...r, created_at: t });
  }).immediate();
}

/** A round's finished dialogues with their turns, as the FIRE export and the figures read them. */
export interface StoredDialogue {
  source_id: string;
  prompt_id: string;
  instruction: string;
  history_json: string | null;
  image_path: string;
  level: 'simple' | 'detailed';
  end_reason: DialogueEnd;
  chosen_id: string | null;
  /** The sampled answer, then each revision; `score`/`feedback` of an entry are the teacher's turn on it (null: none). */
  answers: { id: string; text: string; n_claims: number | null; n_rejected: number | null; score: number | null; feedback: string | null }[];
}

/**
 * A round's finished dialogues (that have at least one revision), in prompt order then by the source's sample index;
 * `trainable`: without those whose image an evaluation round holds out (as exports leave them out).
 */
export function roundDialogues(db: Db, roundId: number, opts: { trainable?: boolean } = {}): StoredDialogue[] {
  const rows = stmt(
    db,
    `SELECT e.source_id, o.prompt_id, p.question AS instruction, p.history_json, i.path AS image_path, e.level, e.end_reason, e.chosen_id, o.text AS source_text,
       so.n_claims AS source_n_claims, so.n_rejected AS source_n_rejected,
       t.turn, t.score, t.feedback, t.revision_id, c.text, s.n_claims, s.n_rejected
     FROM dialogues e
     JOIN candidates o ON o.id = e.source_id
     JOIN round_prompts rp ON rp.round_id = e.round_id AND rp.prompt_id = o.prompt_id
     JOIN prompts p ON p.id = o.prompt_id JOIN images i ON i.id = p.image_id
     LEFT JOIN scores so ON so.candidate_id = o.id
     JOIN dialogue_turns t ON t.source_id = e.source_id
     JOIN candidates c ON c.id = t.revision_id
     LEFT JOIN scores s ON s.candidate_id = c.id
     WHERE e.round_id = ? AND (? = 0 OR p.image_id NOT IN (${HELD_OUT_IMAGES}))
     ORDER BY rp.ordinal, o.sample_index, t.turn`,
  ).all(roundId, opts.trainable ? 1 : 0) as {
    source_id: string;
    prompt_id: string;
    instruction: string;
    history_json: string | null;
    image_path: string;
    level: 'simple' | 'detailed';
    end_reason: DialogueEnd;
    chosen_id: string | null;
    source_text: string;
    source_n_claims: number | null;
    source_n_rejected: number | null;
    turn: number;
    score: number | null;
    feedback: string;
    revision_id: string;
    text: string;
    n_claims: number | null;
    n_rejected: number | null;
  }[];
  const out: StoredDialogue[] = [];
  for (const r of rows) {
    let d = out.at(-1);
    if (!d || d.source_id !== r.source_id) {
      d = {
        source_id: r.source_id,
        prompt_id: r.prompt_id,
        instruction: r.instruction,
        history_json: r.history_json,
        image_path: r.image_path,
        level: r.level,
        end_reason: r.end_reason,
        chosen_id: r.chosen_id,
        answers: [{ id: r.source_id, text: r.source_text, n_claims: r.source_n_claims, n_rejected: r.source_n_rejected, score: null, feedback: null }],
      };
      out.push(d);
    }
    // The teacher's turn that asked for this revision is its comment on the answer before it.
    const prev = d.answers.at(-1)!;
    prev.score = r.score;
    prev.feedback = r.feedback;
    d.answers.push({ id: r.revision_id, text: r.text, n_claims: r.n_claims, n_rejected: r.n_rejected, score: null, feedback: null });
  }
  return out;
}

/** How a round's dialogues ended, and how many revisions they made. */
export function dialogueCounts(db: Db, roundId: number): { dialogues: number; revisions: number; by_end: Record<string, number> } {
  const ends = stmt(db, 'SELECT end_reason, COUNT(*) AS n, SUM(turns) AS t FROM dialogues WHERE round_id = ? GROUP BY end_reason').all(roundId) as {
    end_reason: string;
    n: number;
    t: number;
  }[];
  return {
    dialogues: ends.reduce((a, e) => a + e.n, 0),
    revisions: ends.reduce((a, e) => a + e.t, 0),
    by_end: Object.fromEntries(ends.map((e) => [e.end_reason, e.n])),
  };
}
