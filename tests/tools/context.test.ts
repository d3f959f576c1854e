// Tool knowledge in a served judge's {context}: the text, and the gate's judge sending it to a real test server.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeText, KnowledgeContext } from '../../src/tools/context.js';
import { ShapesSegmenter } from '../../src/tools/index.js';
import { PairJudge } from '../../src/methods/pair-judge.js';
import { configSchema } from '../../src/config/schema.js';
import { DEFAULT_MODELS, RUBRIC_JUDGE, TestServer } from '../../scripts/mimic/openai-server.js';
import { DEV, serverBackend } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for both test servers here (tests/helpers/file-pool.ts).
const pool = filePool();

const first = JSON.parse(readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n')[0]!) as { image: string; question: string };
const image = path.join(DEV, first.image);

describe('tool knowledge as judge context', () => {
  it('says what each tool found, only the fields it knows', async () => {
    const seg = new ShapesSegmenter({ name: 'segmenter', shapeHeuristic: true });
    const masks = new ShapesSegmenter({ name: 'masks', shapeHeuristic: false });
    const text = await new KnowledgeContext([seg, masks]).of(image);
    // dev-0000: a small red circle top left, a large blue circle middle left, a large red circle in the center, a small red circle middle right.
    expect(text).toBe(
      'Tool knowledge about the image:\n' +
        '- segmenter: four objects: a small red circle in the top left, a large blue circle in the middle left, a large red circle in the center, a small red circle in the middle right.\n' +
        '- masks: four objects: a small red shape in the top left, a large blue shape in the middle left, a large red shape in the center, a small red shape in the middle right.',
    );
    expect(knowledgeText([])).toBe('');
    expect(knowledgeText([{ name: 't', knowledge: { objects: [] } }])).toBe('Tool knowledge about the image:\n- t: zero objects.');
  });

  describe("the gate's judge model", () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
    });
    afterAll(async () => srv?.close());

    const judge = (tools: ShapesSegmenter[]) =>
      new PairJudge(configSchema.parse({ feedback: { gate: { threshold: 0.5, judge: { backend: serverBackend(srv.url, 'rubric-judge') } } } }).feedback.gate.judge!, tools);
    const pair = { imagePath: image, question: first.question, history: [], positive: 'The blue circle is in the middle left.', negative: 'The blue circle is in the top right.' };

    it('sends the tools\' knowledge in {context}, and the tools are part of its id', async () => {
      // A fault that fires only on a request whose prompt carries the segmenter's findings: the pool retries it.
      srv.inject({ kind: '500', times: 1, match: 'Tool knowledge about the image:\\n- segmenter: four objects: a small red circle in the top left' });
      const withTools = judge([new ShapesSegmenter({ name: 'segmenter', shapeHeuristic: true })]);
      const v = await withTools.rate(pair);
      expect(v).toMatchObject({ score: expect.any(Number) });
      expect(srv.stats.injected['500']).toBe(1);
      const plain = judge([]);
      expect(plain.prompt(pair)).not.toContain('Tool knowledge');
      expect(plain.id).not.toBe(withTools.id);
      await withTools.pool.close();
      await plain.pool.close();
    });
  });
});

describe('a served holistic rubric', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...RUBRIC_JUDGE } });
  });
  afterAll(async () => srv?.close());

  it('fills {context} with the tools\' knowledge where its prompt asks for it (Table 13\'s own prompts do not)', async () => {
    const { RubricHolistic } = await import('../../src/methods/holistic.js');
    const { OpenAIJudge } = await import('../../src/backends/openai/judge.js');
    const { HOLISTIC_PROMPTS } = await import('../../src/config/schema.js');
    const tools = [new ShapesSegmenter({ name: 'segmenter', shapeHeuristic: true })];
    const cfg = (withContext: boolean) =>
      configSchema.parse({
        feedback: {
          method: 'holistic',
          holistic: { aspects: ['hallucination'], ...(withContext ? { prompts: { hallucination: `{context}\n\n${HOLISTIC_PROMPTS.hallucination}` } } : {}) },
        },
      }).feedback.holistic;
    const judge = new OpenAIJudge(serverBackend(srv.url, 'rubric-judge'), { temperature: 0, maxTokens: 64 });
    const prompt = { id: 'p', imagePath: image, question: first.question, history: [], meta: null };
    const answer = { id: 'a', text: 'The blue circle is in the middle left.', words: 8 };
    srv.inject({ kind: '500', times: 1, match: 'Tool knowledge about the image:\\n- segmenter: four objects' });
    const plain = new RubricHolistic(judge, cfg(false), tools);
    expect((await plain.score([{ prompt, answers: [answer] }]))[0]![0]).toMatchObject({ value: expect.any(Number) });
    expect(srv.stats.injected['500']).toBeUndefined();
    const asked = new RubricHolistic(judge, cfg(true), tools);
    expect((await asked.score([{ prompt, answers: [answer] }]))[0]![0]).toMatchObject({ value: expect.any(Number) });
    expect(srv.stats.injected['500']).toBe(1);
    expect(asked.scorer).toMatch(/\|tools:shapes-segmenter@1\+shape-heuristic$/);
    expect(plain.scorer).not.toMatch(/tools/);
    await judge.pool.close();
  });
});
