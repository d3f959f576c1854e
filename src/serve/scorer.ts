// The reward server's scoring: answers from concurrent requests are gathered for a short window, stored as candidates
// of the online round, and taken through the same divide, label and score stages a round runs (so the label cache,
// question dedup and per-image labeler batches work as offline), one batch at a time; then each answer's evidence is
// read back and turned into its reward.
import type { Config } from '../config/schema.js';
import { stageConcurrency, type Backends } from '../round.js';
import { silentProgress, type StageContext } from '../stages/context.js';
import { runDivide } from '../stages/divide.js';
import { runLabel } from '../stages/label.js';
import { runScore } from '../stages/score.js';
import { contentId } from '../stages/ids.js';
import { makePrompt } from '../input/prompts.js';
import { wordCount } from '../feedback/words.js';
import { answerEvidence, putOnlineAnswers, type AnswerEvidence, type Db, type ImageRow, type RoundRow } from '../store/index.js';

/** One answer to score: its image (stored), the question it answers and the completion. */
export interface ScoreItem {
  image: ImageRow;
  question: string;
  completion: string;
  model?: string;
}

/** What scoring gave an answer: its stored candidate and evidence, or the reason the batch it was in failed. */
export type Scored = { candidateId: string; evidence: AnswerEvidence } | { error: string };

interface Waiting {
  item: ScoreItem;
  resolve: (s: Scored) => void;
}

/** Counters for /v1/info and the bench. */
export interface ScorerStats {
  batches: number;
  answers: number;
}

/** Gathers answers into batches and scores each batch through the round's stages. */
export class BatchScorer {
  private queue: Waiting[] = [];
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  readonly stats: ScorerStats = { batches: 0, answers: 0 };

  constructor(
    private readonly db: Db,
    private readonly round: RoundRow,
    private readonly config: Config,
    private readonly backends: Backends,
  ) {}

  /** Scores answers (they join the next batch); resolves in the items' order. */
  score(items: readonly ScoreItem[]): Promise<Scored[]> {
    const all = items.map((item) => new Promise<Scored>((resolve) => this.queue.push({ item, resolve })));
    this.kick();
    return Promise.all(all);
  }

  /** Starts a batch after the gathering window, unless one is running (it takes the queue when done). */
  private kick(): void {
    if (this.running || this.timer || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, this.config.serve.window_ms);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.config.serve.max_batch_items);
        const out = await this.scoreBatch(batch.map((w) => w.item)).catch((e: Error) => batch.map((): Scored => ({ error: e.message })));
        batch.forEach((w, i) => w.resolve(out[i]!));
      }
    } finally {
      this.running = false;
    }
  }

  /** Stores a batch's answers, runs divide → label → score over their prompts, and reads their evidence. */
  private async scoreBatch(items: ScoreItem[]): Promise<Scored[]> {
    const stored = putOnlineAnswers(
      this.db,
      this.round.id,
      items.map((it) => {
        const p = makePrompt({ question: it.question }, it.image, 'serve');
        const prompt = { id: p.id, image_id: it.image.id, question: it.question, meta_json: null, content_hash: p.contentHash, source: 'serve' };
        return { image: it.image, prompt, text: it.completion, words: wordCount(it.completion), model: it.model ?? 'online' };
      }),
      (promptId, index) => contentId(this.round.id, promptId, index),
    );
    const ordinals = stored.map((s) => s.ordinal);
    const ctx: StageContext = {
      db: this.db,
      round: this.round,
      config: this.config,
      progress: silentProgress,
      backends: this.backends,
      scope: { from: Math.min(...ordinals), to: Math.max(...ordinals) + 1 },
    };
    const b = this.backends;
    await runDivide(ctx, stageConcurrency(b, b.divider));
    await runLabel(ctx, stageConcurrency(b, b.labeler));
    await runScore(ctx, b.labeler.id);
    this.stats.batches++;
    this.stats.answers += items.length;
    const ev = answerEvidence(this.db, this.round.id, stored.map((s) => s.candidateId), b.labeler.id);
    return stored.map((s, i) => ({ candidateId: s.candidateId, evidence: ev[i]! }));
  }

  /** Waits for the running batch and refuses nothing: the server stops taking requests before calling this. */
  async idle(): Promise<void> {
    while (this.running || this.timer || this.queue.length) await new Promise((r) => setTimeout(r, 5));
  }
}
