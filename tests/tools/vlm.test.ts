// The served VLM tool: its reply read into knowledge (pure), and the tool against the test server's stand-in (the
// real tiny policy describing the image, answered through the server's vLLM-shaped chat path).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeFromText, VlmTool } from '../../src/tools/index.js';
import { OpenAIJudge } from '../../src/backends/openai/judge.js';
import { VLM_TOOL_PROMPT } from '../../src/config/schema.js';
import { parseTruth } from '../../src/shapes/index.js';
import { DEFAULT_MODELS, LISTER, TestServer } from '../../scripts/mimic/openai-server.js';
import { DEV, serverBackend } from '../helpers/paths.js';
import { sharedPool } from '../helpers/file-pool.js';

describe('knowledgeFromText', () => {
  it('reads a detailed description: one object per sentence, the whole-image count agreeing', () => {
    expect(knowledgeFromText('There are two shapes in the image. There is a large red circle in the top left. There is a small blue star in the center.')).toEqual({
      objects: [
        { shape: 'circle', color: 'red', size: 'large', position: 'top left' },
        { shape: 'star', color: 'blue', size: 'small', position: 'center' },
      ],
    });
  });

  it('reads lists, counts of a kind, and "The X is Y" as a detail of the object it refers to', () => {
    expect(knowledgeFromText('There is a red circle, a blue star and a green square.')!.objects).toEqual([
      { shape: 'circle', color: 'red', size: null, position: null },
      { shape: 'star', color: 'blue', size: null, position: null },
      { shape: 'square', color: 'green', size: null, position: null },
    ]);
    expect(knowledgeFromText('There are two red circles. The star is in the center.')!.objects).toEqual([
      { shape: 'circle', color: 'red', size: null, position: null },
      { shape: 'circle', color: 'red', size: null, position: null },
      { shape: 'star', color: null, size: null, position: 'center' },
    ]);
    expect(knowledgeFromText('There is a star. The star is blue.')!.objects).toEqual([{ shape: 'star', color: 'blue', size: null, position: null }]);
  });

  it('adds unknown objects for a count nothing described, and reads nothing from prose outside the language', () => {
    expect(knowledgeFromText('There are three shapes in the image. There is a red circle.')!.objects).toHaveLength(3);
    expect(knowledgeFromText('I see some colourful shapes on a grey background!')).toBeNull();
  });
});

describe('the vlm tool on a served model (test server stand-in)', () => {
  let srv: TestServer;
  const rows = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 12).map((l) => JSON.parse(l) as { image: string; meta: { truth: unknown } });
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: sharedPool(2), models: { ...DEFAULT_MODELS, ...LISTER } });
  });
  afterAll(async () => srv?.close());

  it('asks the fixed prompt once per image and keeps what the model said, whatever the truth', async () => {
    const tool = new VlmTool({ name: 'vlm', backend: serverBackend(srv.url, 'lister'), prompt: VLM_TOOL_PROMPT, maxTokens: 256 });
    // What the same model says when asked directly, greedy: the tool must report exactly that.
    const policy = new OpenAIJudge(serverBackend(srv.url, 'shapes-policy'), { temperature: 0, maxTokens: 256 });
    let countRight = 0;
    try {
      for (const r of rows) {
        const image = path.join(DEV, r.image);
        const k = await tool.know(image);
        expect(k).toEqual(knowledgeFromText(await policy.complete(image, 'Describe the image in detail.', 0)));
        if (k.objects.length === parseTruth(r.meta.truth).objects.length) countRight++;
      }
    } finally {
      await tool.close();
      await policy.pool.close();
    }
    expect(srv.stats.byModel.lister).toBe(rows.length);
    // The tiny policy is a weak describer (12% false claims greedy): a tool, not an oracle; calibration decides.
    expect(countRight).toBeGreaterThan(rows.length / 2);
    expect(tool.id).toMatch(/^vlm:lister@[0-9a-f]{12}$/);
  });

  it('names the model and its reply when the reply holds no object', async () => {
    const tool = new VlmTool({ name: 'vlm', backend: serverBackend(srv.url, 'shapes-labeler'), prompt: 'Is there a circle? Please answer yes or no.', maxTokens: 1 });
    try {
      await expect(tool.know(path.join(DEV, rows[0]!.image))).rejects.toThrow(/shapes-labeler replied with no object the shapes parser can read: "/);
    } finally {
      await tool.close();
    }
  });
});
