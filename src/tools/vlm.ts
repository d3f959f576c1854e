// The served VLM tool: a model on an OpenAI-compatible server asked one fixed question about the image ("List every
// object with its colour and position."), its reply read into a knowledge record (tools/listing.ts).
import { createHash } from 'node:crypto';
import type { OpenAIBackend } from '../config/schema.js';
import { OpenAIJudge } from '../backends/openai/judge.js';
import type { Knowledge } from '../shapes/knowledge.js';
import { knowledgeFromText } from './listing.js';
import type { Tool } from './types.js';

/**
 * A served VLM as a knowledge tool: greedy (temperature 0), one request per image, the reply parsed with the shapes
 * parser. A reply with no readable sentence is an error naming the reply (a per-item failure of its questions).
 */
export class VlmTool implements Tool {
  readonly name: string;
  readonly id: string;
  private readonly judge: OpenAIJudge;

  constructor(private readonly opts: { name: string; backend: OpenAIBackend; prompt: string; maxTokens: number }) {
    this.name = opts.name;
    this.judge = new OpenAIJudge(opts.backend, { temperature: 0, maxTokens: opts.maxTokens }, 'label');
    const settings = createHash('sha256').update(JSON.stringify([opts.prompt, opts.maxTokens])).digest('hex').slice(0, 12);
    this.id = `vlm:${opts.backend.model}@${settings}`;
  }

  /** The endpoint pool (usage accounting and preflight, as for any served backend). */
  get pool() {
    return this.judge.pool;
  }

  async close(): Promise<void> {
    await this.judge.pool.close();
  }

  async know(imagePath: string): Promise<Knowledge> {
    const reply = await this.judge.complete(imagePath, this.opts.prompt, 0);
    const k = knowledgeFromText(reply);
    if (k === null) throw new Error(`${this.opts.backend.model} replied with no object the shapes parser can read: ${JSON.stringify(reply.slice(0, 200))}`);
    return k;
  }
}
