// Multi-turn prompts through both policies: the local generator's prompt is the chat template's rendering of every
// turn, and the remote generator sends every turn (the test server answers from the same local model).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { POLICY, ROOT } from '../helpers/paths.js';
import { LlavaModel, readImage } from '../../src/backends/local/llava.js';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalGenerator } from '../../src/backends/local/index.js';
import { OpenAIGenerator } from '../../src/backends/openai/index.js';
import type { GenerateRequest } from '../../src/backends/types.js';
import type { Turn } from '../../src/domain.js';
import type { OpenAIBackend } from '../../src/config/schema.js';
import { sharedPool } from '../helpers/file-pool.js';

const MULTITURN = path.join(ROOT, 'data', 'shapes', 'multiturn');
const first = JSON.parse(readFileSync(path.join(MULTITURN, 'prompts.jsonl'), 'utf8').split('\n')[1]!) as {
  image: string;
  question: string;
  history: Turn[];
};

describe('the local policy renders every turn with the chat template', () => {
  let m: LlavaModel;
  beforeAll(async () => {
    m = await LlavaModel.load(POLICY, { threads: 1 });
  });
  afterAll(() => m.dispose());

  test('a 2-turn conversation: the prompt ids are the tokenizer\'s own apply_chat_template rendering', async () => {
    expect(first.history).toHaveLength(2);
    // The independent reference: transformers.js's tokenizer on the model folder, the image in the first user turn.
    const tok = await AutoTokenizer.from_pretrained(POLICY, { local_files_only: true });
    const messages = [
      { role: 'user', content: [{ type: 'image' }, { type: 'text', text: first.history[0]!.content }] },
      { role: 'assistant', content: first.history[1]!.content },
      { role: 'user', content: first.question },
    ];
    const text = tok.apply_chat_template(messages, { add_generation_prompt: true, tokenize: false }) as string;
    expect(text).toBe(`USER: <image>\n${first.history[0]!.content} ASSISTANT: ${first.history[1]!.content}</s> USER: ${first.question} ASSISTANT:`);
    expect([...m.promptIds(first.question, 1, first.history)]).toEqual(tok.encode(text));
    // Single-turn prompts keep today's ids (the fast concatenation path).
    const single = tok.apply_chat_template([messages[0]!], { add_generation_prompt: true, tokenize: false }) as string;
    expect([...m.promptIds(first.history[0]!.content, 1)]).toEqual(tok.encode(single));
  });

  test('the batched path (one run of the conversation, all seeds on its cache) gives the plain path\'s answer per seed', async () => {
    const image = await readImage(path.join(MULTITURN, first.image));
    const s = { temperature: 1, topP: 1, maxNewTokens: 40 };
    const seeds = [11, 12, 13, 14];
    const many = await m.sampleMany(image, first.question, seeds, s, first.history);
    const plain = await Promise.all(seeds.map((seed) => m.sample(image, first.question, { ...s, seed }, first.history)));
    expect(many.map((x) => x.tokenIds)).toEqual(plain.map((x) => x.tokenIds));
    expect(many[0]!.promptTokens).toBe(plain[0]!.promptTokens);
  });

  test('every conversation of the multiturn split fits the policy\'s context with room for an answer', async () => {
    const rows = readFileSync(path.join(MULTITURN, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    let longest = 0;
    for (const r of rows) {
      const feeds = await m.inputs(await readImage(path.join(MULTITURN, r.image)), r.question, r.history);
      longest = Math.max(longest, feeds.input_ids!.dims[1]!);
    }
    expect(m.info.maxPositions - longest).toBeGreaterThanOrEqual(32); // 72 of 160 tokens when written
  });
});

describe('the remote policy sends every turn', () => {
  let srv: TestServer;
  let pool: WorkerPool;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
    pool = sharedPool(1);
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('a multi-turn sample over HTTP is the in-process sample of the same seed and turns', async () => {
    const backend = {
      type: 'openai', model: 'shapes-policy', base_urls: [srv.url], max_in_flight: 4, timeout_ms: 20_000, max_retries: 2,
      min_backoff_ms: 20, max_backoff_ms: 200, rest_after_failures: 3, rest_ms: 300,
    } as OpenAIBackend;
    const local = new LocalGenerator(pool, POLICY);
    const remote = new OpenAIGenerator(backend);
    const req: GenerateRequest = {
      imagePath: path.join(MULTITURN, first.image),
      question: first.question,
      history: first.history,
      samples: [0, 1, 2].map((index) => ({ index, seed: 1000 + index })),
      decoding: { temperature: 1, top_p: 1, max_new_tokens: 48 },
    };
    const text = (rs: Awaited<ReturnType<LocalGenerator['generate']>>) => rs.map((r) => ('text' in r ? r.text : r.error));
    const [a, b, single] = await Promise.all([local.generate(req), remote.generate(req), local.generate({ ...req, history: [] })]);
    expect(text(b)).toEqual(text(a));
    for (const r of a) expect('text' in r && r.promptTokens).toBeGreaterThan(('text' in single[0]! && single[0].promptTokens) || Infinity);
  });
});
