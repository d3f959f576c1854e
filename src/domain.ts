// Domain types and names shared by every layer (input, store, backends, feedback, stages, report). A leaf: it
// imports nothing from src/.

/** One earlier turn of a conversation (text only; the image belongs to the first user turn). */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** The stages in order. */
export const STAGES = ['generate', 'divide', 'label', 'score', 'pair'] as const;
/** A stage name. */
export type StageName = (typeof STAGES)[number];
