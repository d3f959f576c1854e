// The reward server's scoring: answers from concurrent requests are gathered for a short window, stored as candidates
// of the online round, and taken through the same divide, label and score stages a round runs (so the label cache,
// question dedup and per-image labeler batches work as offline), one batch at a time; then each answer's evidence is
// read back and turned into its reward. With a served labeler, a batch is divided while the one before it is labeled.
import type { Config } from '../config/schema.js';
import { stageConcurrency, type Backends } from '../pipeline/round.js';
import { isRemote } from '../backends/openai/index.js';
import { type StageContext } from '../stages/context.js';
import { silentProgress } from '../progress.js';
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

/** A divided batch waiting for the label lane. */
interface Divided {
  ctx: StageContext;
  candidateIds: string[];
}

interface Waiting {
  item: ScoreItem;
  resolve: (s: Scored) => void;
}

/**
 * With a served labeler: batches labeled at once, and answers per batch in the fleet's slots (a batch of 4 answers a
 * slot keeps every slot busy for about four requests). One large batch left the bench's fleet (2 endpoints x 8 slots)
 * idle while it was divided and while its last images were labeled: 65-70% of its capacity used. Small batches, several
 * labeled at once, start the fleet on a burst's first answers while the rest still arrive.
 */
const LABEL_LANES = 4;
const ANSWERS_PER_SLOT = 4;

/** Counters for /v1/info and the bench. */
export interface ScorerStats {
  batches: number;
  answers: number;
}

/** Gathers answers into batches and scores each batch through the round's stages. */
export class BatchScorer {
  private queue: Waiting[] = [];
  private running = false;
  /** Whether a batch is divided while the one before it is labeled (a served labeler only). */
  private readonly overlap: boolean;
  /** Answers per batch: serve.max_batch_items, and fewer with a served labeler (see ANSWERS_PER_SLOT). */
  private readonly batchItems: number;
  private timer: NodeJS.Timeout | null = null;
  /** Wakes a drain that waits for its label lanes when answers arrive. */
  private wake: (() => void) | null = null;
  /** When the oldest answer not yet in a batch arrived (null: none waits). */
  private firstWaiting: number | null = null;
  readonly stats: ScorerStats = { batches: 0, answers: 0 };

  constructor(
    private readonly db: Db,
    private readonly round: RoundRow,
    private readonly config: Config,
    private readonly backends: Backends,
  ) {
    this.overlap = isRemote(backends.labeler);
    const l = backends.labeler;
    this.batchItems = isRemote(l) ? Math.min(config.serve.max_batch_items, ANSWERS_PER_SLOT * l.pool.capacity) : config.serve.max_batch_items;
  }

  /** Scores answers (they join the next batch); resolves in the items' order. */
  score(items: readonly ScoreItem[]): Promise<Scored[]> {
    const all = items.map((item) => new Promise<Scored>((resolve) => this.queue.push({ item, resolve })));
    this.wake?.();
    this.kick();
    return Promise.all(all);
  }

  /**
   * Starts a batch once no answer has arrived for serve.window_ms, or serve.max_wait_ms after the first one waited,
   * unless a batch is running (it takes the queue when done). A burst of requests (OpenRLHF's samples, a step's
   * group) so becomes one batch instead of a trickle of small ones, each of which would read its images again.
   */
  private kick(): void {
    if (this.running || this.queue.length === 0) return;
    const now = performance.now();
    this.firstWaiting ??= now;
    if (this.timer) clearTimeout(this.timer);
    const { window_ms: window, max_wait_ms: maxWait } = this.config.serve;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.firstWaiting = null;
      void this.drain();
    }, Math.max(0, Math.min(window, this.firstWaiting + maxWait - now)));
  }

  /**
   * Scores the queue batch by batch. With a local labeler, one batch at a time: the divider and labeler share the
   * worker pool, so overlapping gains nothing and only makes the next batch smaller. With a served labeler, a batch is
   * stored and divided while the ones before it are labeled, and up to LABEL_LANES batches are labeled at once, so the
   * fleet's slots freed by one batch's last questions take the next batch's first ones instead of idling. No two
   * batches hold the same answer; a question two batches share may be asked twice (the second label is dropped).
   */
  private async drain(): Promise<void> {
    this.running = true;
    const lanes = this.overlap ? LABEL_LANES : 1;
    const labeling = new Set<Promise<void>>();
    try {
      for (;;) {
        while (this.queue.length) {
          const batch = this.queue.splice(0, this.batchItems);
          const fail = (e: Error) => batch.forEach((w) => w.resolve({ error: e.message }));
          let divided: Divided;
          try {
            divided = await this.divideBatch(batch.map((w) => w.item));
          } catch (e) {
            fail(e as Error);
            continue;
          }
          while (labeling.size >= lanes) await Promise.race(labeling);
          const lane: Promise<void> = this.labelBatch(divided)
            .then((out) => batch.forEach((w, i) => w.resolve(out[i]!)), fail)
            .finally(() => labeling.delete(lane));
          labeling.add(lane);
          // A local labeler: the next batch waits for this one (see above).
          if (!this.overlap) await lane;
        }
        if (!labeling.size) break;
        // Batches are being labeled: the next one starts when answers arrive while a lane is free, or when the queue
        // has filled by the time a lane frees (waiting for all lanes left the fleet idle for seconds in the bench).
        const arrived = new Promise<void>((resolve) => (this.wake = resolve));
        await Promise.race(labeling.size < lanes ? [...labeling, arrived] : labeling);
        this.wake = null;
      }
    } finally {
      this.running = false;
    }
  }

  /** Stores a batch's answers and runs the divide stage over their prompts. */
  private async divideBatch(items: ScoreItem[]): Promise<Divided> {
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
    await runDivide(ctx, stageConcurrency(this.backends, this.backends.divider));
    return { ctx, candidateIds: stored.map((s) => s.candidateId) };
  }

  /** Labels and scores a divided batch, then reads each answer's evidence. */
  private async labelBatch({ ctx, candidateIds }: Divided): Promise<Scored[]> {
    const b = this.backends;
    await runLabel(ctx, stageConcurrency(b, b.labeler));
    await runScore(ctx, b.labeler.id);
    this.stats.batches++;
    this.stats.answers += candidateIds.length;
    const ev = answerEvidence(this.db, this.round.id, candidateIds, b.labeler.id);
    return candidateIds.map((id, i) => ({ candidateId: id, evidence: ev[i]! }));
  }

  /** Waits for the running batch and refuses nothing: the server stops taking requests before calling this. */
  async idle(): Promise<void> {
    while (this.running || this.timer || this.queue.length) await new Promise((r) => setTimeout(r, 5));
  }
}
