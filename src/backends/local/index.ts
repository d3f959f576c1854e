// Local backends: the policy, labeler and rules divider run in worker threads of one pool.
import { inspectLlavaFolder } from './model-folder.js';
import type { LogprobResult } from './local.worker.js';
import type { WorkerPool } from './pool.js';
import type {
  Divider,
  DivideOutput,
  GenerateRequest,
  GenerateResult,
  Generator,
  LabelResult,
  Labeler,
  SequenceLogprob,
  SequenceScoreItem,
  SequenceScorer,
} from '../types.js';

/** The policy model run in-process: all samples of a prompt in one batch on one run of the prompt (worker 'generate'). */
export class LocalGenerator implements Generator {
  readonly id: string;
  constructor(
    private readonly pool: WorkerPool,
    private readonly dir: string,
  ) {
    this.id = inspectLlavaFolder(dir).modelId;
    this.release = pool.retain(dir);
  }
  private readonly release: () => void;
  generate(req: GenerateRequest): Promise<GenerateResult[]> {
    return this.pool.run({ kind: 'generate', model: this.dir, threads: this.pool.size.threadsPerWorker, ...req });
  }
  /** Ends the lease on the model folder: a shared pool's workers may drop the model. */
  async close(): Promise<void> {
    this.release();
  }
}

/**
 * The labeler model run in-process: per call (one image, its questions) the image is encoded once, the prompt prefix
 * it shares with them is run once, and the questions continue from its cache in batches (worker 'label'); per call of
 * several images, the same batched across the images (worker 'labelImages': one image-encoder run, one prefix run,
 * continuations of all their questions side by side).
 */
export class LocalLabeler implements Labeler {
  readonly id: string;
  constructor(
    private readonly pool: WorkerPool,
    private readonly dir: string,
    private readonly suffix: string,
  ) {
    this.id = `${inspectLlavaFolder(dir).modelId}|${JSON.stringify(suffix)}`;
    this.release = pool.retain(dir);
  }
  private readonly release: () => void;
  label(imagePath: string, questions: string[]): Promise<LabelResult[]> {
    return this.pool.run({
      kind: 'label',
      model: this.dir,
      threads: this.pool.size.threadsPerWorker,
      imagePath,
      questions,
      suffix: this.suffix,
    });
  }
  labelImages(items: { imagePath: string; questions: string[] }[]): Promise<LabelResult[][]> {
    return this.pool.run({ kind: 'labelImages', model: this.dir, threads: this.pool.size.threadsPerWorker, items, suffix: this.suffix });
  }
  async close(): Promise<void> {
    this.release();
  }
}

/**
 * A model folder as a scorer of whole answers (worker 'answerLogprobs'): a call's prompts are shared out among the
 * workers in consecutive parts; in each, the images are encoded together, each prompt is run once, and its answers
 * continue from the prompt's cache in batches. Each answer's log-probability counts its tokens and the end-of-sequence
 * token, as scripts/shapes/dpo.py trains them.
 * @example const [[a]] = await new LocalSequenceScorer(pool, 'models/shapes-policy').logprobs([{ imagePath, question, answers: ['There is a red circle.'] }])
 */
export class LocalSequenceScorer implements SequenceScorer {
  readonly id: string;
  constructor(
    private readonly pool: WorkerPool,
    private readonly dir: string,
  ) {
    this.id = inspectLlavaFolder(dir).modelId;
    this.release = pool.retain(dir);
  }
  private readonly release: () => void;
  async logprobs(items: SequenceScoreItem[]): Promise<(SequenceLogprob | Error)[][]> {
    // Many prompts are cut into one consecutive part per worker: each part is batched within its worker.
    const per = Math.ceil(items.length / Math.max(1, this.pool.size.workers));
    const parts: SequenceScoreItem[][] = [];
    for (let at = 0; at < items.length; at += per) parts.push(items.slice(at, at + per));
    const rows = await Promise.all(
      parts.map((part) => this.pool.run<LogprobResult[][]>({ kind: 'answerLogprobs', model: this.dir, threads: this.pool.size.threadsPerWorker, items: part })),
    );
    return rows.flat().map((row) => row.map((r) => ('error' in r ? new Error(r.error) : r)));
  }
  async close(): Promise<void> {
    this.release();
  }
}

/** The built-in English rules divider, run in the pool so dividing never blocks the main thread. */
export class RulesDivider implements Divider {
  readonly id = 'rules';
  constructor(
    private readonly pool: WorkerPool,
    private readonly maxWords: number | null,
  ) {}
  divide(items: { question: string; answer: string }[]): Promise<DivideOutput[]> {
    return this.pool.run({ kind: 'divide', items, maxWords: this.maxWords });
  }
  async close(): Promise<void> {}
}
