// `rlaifv export --format fire`: a round's refinement dialogues (pair.corrections "refine") as LLaVA conversations in
// FIRE's student layout (its Fig. A14): the instruction with the image, the policy's answer, then per turn the
// teacher's comment ending "Based on the feedback, answer the question again:" and the policy's revision. FIRE's
// released json files hold "the path of an image and the feedback-reflecting dialogues"; the conversation list is
// LLaVA's ({from: human|gpt, value}, `<image>` in the first human turn), which FIRE-LLaVA trained on. The teacher's
// scores, the verdict counts and how the dialogue ended are rlaifv's own fields beside it.
import { createHash } from 'node:crypto';
import type { Db } from '../store/open.js';
import { roundDialogues, type StoredDialogue } from '../store/dialogues.js';
import type { Turn } from '../domain.js';
import { studentPrompt } from '../feedback/teacher.js';
import { writeFileAtomic } from '../util/fs.js';
import { ExportInputError } from './errors.js';

/** One dialogue as the FIRE export writes it. */
export interface FireRecord {
  id: string;
  round: number;
  prompt_id: string;
  image: string;
  conversations: { from: 'human' | 'gpt'; value: string }[];
  /** The teacher's score of each answer it commented on (the sampled answer, then each revision but the last). */
  scores: (number | null)[];
  /** Rejected claims of each answer (the sampled answer, then each revision; null: not scored). */
  n_rejected: (number | null)[];
  level: 'simple' | 'detailed';
  turns: number;
  /** Why the dialogue ended: clean, max_turns, context, unjudged, failed. */
  end: string;
  /** Whether the last revision has claims and none rejected: the dialogues the SFT mode learns from. */
  final_clean: boolean;
  /** Which revision (1-based turn) the `refine` editor chose as a pair's chosen side; null: none. */
  chosen_turn: number | null;
}

/** The FIRE record of a stored dialogue: the conversation exactly as the policy was given it, then its last revision. */
export function fireRecord(round: number, d: StoredDialogue): FireRecord {
  const answers = d.answers.map((a) => a.text);
  const teacher = d.answers.slice(0, -1).map((a) => a.feedback ?? '');
  const history: Turn[] = d.history_json ? (JSON.parse(d.history_json) as Turn[]) : [];
  const student = studentPrompt(d.instruction, answers.slice(0, -1), teacher);
  const turns: Turn[] = [...history, ...student.history, { role: 'user', content: student.question }, { role: 'assistant', content: answers.at(-1)! }];
  const last = d.answers.at(-1)!;
  const chosen = d.answers.findIndex((a) => a.id === d.chosen_id);
  return {
    id: d.source_id,
    round,
    prompt_id: d.prompt_id,
    image: d.image_path,
    conversations: turns.map((t, i) => ({ from: t.role === 'user' ? 'human' : 'gpt', value: i === 0 ? `<image>\n${t.content}` : t.content })),
    scores: d.answers.slice(0, -1).map((a) => a.score),
    n_rejected: d.answers.map((a) => a.n_rejected),
    level: d.level,
    turns: d.answers.length - 1,
    end: d.end_reason,
    final_clean: last.n_claims !== null && last.n_claims > 0 && last.n_rejected === 0,
    chosen_turn: chosen > 0 ? chosen : null,
  };
}

/** What `exportDialogues` wrote. */
export interface WrittenDialogues {
  target: string;
  dialogues: number;
  bytes: number;
  sha256: string;
}

/**
 * Writes a round's finished dialogues (images held out for evaluation left out, as pair exports do): a `.json` file as
 * one array (LLaVA's training file), `.jsonl` or '-' (stdout) one record per line. The file appears whole or not at all.
 */
export function exportDialogues(db: Db, o: { round: number; out: string; stdout?: NodeJS.WritableStream }): WrittenDialogues {
  if (o.out !== '-' && !/\.jsonl?$/i.test(o.out)) {
    throw new ExportInputError(`--format fire writes JSON: --out must end in .json (one array, LLaVA's layout) or .jsonl, or be - for stdout; got ${o.out}.`);
  }
  const records = roundDialogues(db, o.round, { trainable: true }).map((d) => fireRecord(o.round, d));
  const text = o.out.toLowerCase().endsWith('.json') ? `${JSON.stringify(records, null, 1)}\n` : records.map((r) => `${JSON.stringify(r)}\n`).join('');
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (o.out === '-') (o.stdout ?? process.stdout).write(text);
  else writeFileAtomic(o.out, text);
  return { target: o.out, dialogues: records.length, bytes: Buffer.byteLength(text), sha256 };
}
