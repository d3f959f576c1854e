// Images and prompts: the round's input, stored once and shared by every round that uses it.
import type { Db } from './open.js';
import type { Turn } from '../domain.js';
import { stmt } from './statements.js';
import { ALL_PROMPTS, type OrdinalRange } from './work.js';

/** A stored image. */
export interface ImageRow {
  id: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
}

/** A stored prompt. */
export interface PromptRow {
  id: string;
  image_id: string;
  question: string;
  meta_json: string | null;
  /** The earlier turns as JSON ([{role, content}]); null for a single-turn prompt. */
  history_json?: string | null;
  content_hash: string;
  source: string;
}

/** A prompt of a round together with its image path. */
export interface RoundPrompt extends PromptRow {
  image_path: string;
  ordinal: number;
  /** Samples added by the quality gate's top-up (feedback.gate.top_up), beyond generate.samples. */
  extra_samples: number;
}

/** A stored prompt's earlier turns (empty for a single-turn prompt). */
export function promptHistory(p: Pick<PromptRow, 'history_json'>): Turn[] {
  return p.history_json ? (JSON.parse(p.history_json) as Turn[]) : [];
}

/** Stores an image once (by content hash). */
export function putImage(db: Db, img: ImageRow): void {
  stmt(
    db,
    `INSERT INTO images (id, path, width, height, bytes) VALUES (@id, @path, @width, @height, @bytes)
     ON CONFLICT (id) DO NOTHING`,
  ).run(img);
}

/** Where a prompt id was first read when it is stored with other content than `contentHash`; null otherwise. */
export function promptSource(db: Db, id: string, contentHash: string): string | null {
  const prev = stmt(db, 'SELECT content_hash, source FROM prompts WHERE id = ?').get(id) as { content_hash: string; source: string } | undefined;
  return prev && prev.content_hash !== contentHash ? prev.source : null;
}

/** Stores a prompt (idempotent by id; a clash of content is for `promptSource` to find first). */
export function putPrompt(db: Db, p: PromptRow): void {
  stmt(
    db,
    `INSERT INTO prompts (id, image_id, question, meta_json, history_json, content_hash, source)
     VALUES (@id, @image_id, @question, @meta_json, @history_json, @content_hash, @source) ON CONFLICT (id) DO NOTHING`,
  ).run({ ...p, history_json: p.history_json ?? null });
}

/** Adds a prompt to a round (idempotent). */
export function addRoundPrompt(db: Db, roundId: number, promptId: string, ordinal: number): void {
  stmt(
    db,
    `INSERT INTO round_prompts (round_id, prompt_id, ordinal) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
  ).run(roundId, promptId, ordinal);
}

/** The round's prompts (those in `range`) in input order, with their image paths. */
export function roundPrompts(db: Db, roundId: number, range: OrdinalRange = ALL_PROMPTS): RoundPrompt[] {
  return stmt(
    db,
    `SELECT p.*, i.path AS image_path, rp.ordinal, rp.extra_samples FROM round_prompts rp
     JOIN prompts p ON p.id = rp.prompt_id JOIN images i ON i.id = p.image_id
     WHERE rp.round_id = ? AND rp.ordinal >= ? AND rp.ordinal < ? ORDER BY rp.ordinal`,
  ).all(roundId, range.from, range.to) as RoundPrompt[];
}

/** The ordinals of a round's prompts, in order (what streaming cuts into slices). */
export function roundOrdinals(db: Db, roundId: number): number[] {
  return (stmt(db, 'SELECT ordinal FROM round_prompts WHERE round_id = ? ORDER BY ordinal').pluck().all(roundId) as number[]);
}

/** One image row by id. */
export function getImage(db: Db, id: string): ImageRow | undefined {
  return stmt(db, 'SELECT * FROM images WHERE id = ?').get(id) as ImageRow | undefined;
}
