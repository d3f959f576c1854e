// The teacher's feedback levels and providers, apart from the teacher (which needs the shapes world), so the CLI's
// flags can offer them as choices cheaply.

/** How much the teacher says: every claim it judges false, as its correction, or only that the answer has errors. */
export const FEEDBACK_LEVELS = ['simple', 'detailed'] as const;
export type FeedbackLevel = (typeof FEEDBACK_LEVELS)[number];

/** Whose verdicts the teacher speaks from: the truth checker's, or the tiny labeler's on the divided claims. */
export const FEEDBACK_PROVIDERS = ['truth', 'labeler'] as const;
export type FeedbackProvider = (typeof FEEDBACK_PROVIDERS)[number];
