// Answer log-probs from a server (vLLM's prompt_logprobs) against a real HTTP server on 127.0.0.1 backed by the real
// tiny policy: the same numbers as in-process, and a clear stop naming the endpoint and the setting when a server
// gives none (drops the field, or refuses it as OpenAI does); doctor's check says the same.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { sharedPool } from '../helpers/file-pool.js';
import { POLICY, ROOT, TEST, serverBackend } from '../helpers/paths.js';
import { LocalSequenceScorer } from '../../src/backends/local/index.js';
import { OpenAISequenceScorer, answerSlice, readPromptLogprobs } from '../../src/backends/openai/sequence-scorer.js';
import { FatalBackendError } from '../../src/backends/errors.js';
import { checkPromptLogprobs } from '../../src/doctor/endpoints.js';
import type { SequenceLogprob, SequenceScoreItem } from '../../src/backends/types.js';
import type { Turn } from '../../src/domain.js';
import { conversation } from '../../src/backends/openai/messages.js';
import { imageUrl } from '../../src/backends/openai/images.js';
import type { TemplateName } from '../../scripts/mimic/mimic.js';

const server = (url: string, extra: Record<string, unknown> = {}) => serverBackend(url, 'shapes-policy', extra);

const rows = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { image: string; question: string; history?: Turn[] })
    .map((r) => ({ imagePath: path.join(path.dirname(file), r.image), question: r.question, history: r.history }));

const items: SequenceScoreItem[] = [
  ...rows(path.join(TEST, 'prompts.jsonl')).slice(0, 3),
  ...rows(path.join(ROOT, 'data', 'shapes', 'multiturn', 'prompts.jsonl')).slice(0, 1),
].map((p) => ({ ...p, answers: ['There is a red circle in the center.', 'There are two shapes.', '', 'There are two shapes.'] }));

let srv: TestServer;
let ignoring: TestServer;
let refusing: TestServer;
beforeAll(async () => {
  // The test process's shared pool of one worker (tests/helpers/file-pool.ts), not a pool of the server's own.
  srv = await TestServer.start({ pool: sharedPool(1) });
  ignoring = await TestServer.start({ pool: srv.pool, promptLogprobs: 'ignore' });
  refusing = await TestServer.start({ pool: srv.pool, promptLogprobs: 'refuse' });
});
afterAll(async () => {
  await ignoring?.close();
  await refusing?.close();
  await srv?.close();
});

describe('answer log-probs from a server', () => {
  test('equal to the in-process scorer, single- and multi-turn, the empty answer its end token alone', async () => {
    const remote = await new OpenAISequenceScorer(server(srv.url), 'policy').logprobs(items);
    const local = await new LocalSequenceScorer(srv.pool, POLICY).logprobs(items);
    remote.forEach((row, i) =>
      row.forEach((r, j) => {
        const l = local[i]![j] as SequenceLogprob;
        expect(r).not.toBeInstanceOf(Error);
        expect((r as SequenceLogprob).tokens).toBe(l.tokens);
        expect(Math.abs((r as SequenceLogprob).sum - l.sum)).toBeLessThan(1e-3 * Math.max(1, Math.abs(l.sum)));
        // Each token's value too (the reference log-probs store them): the server's own prompt log-probs.
        const pt = (r as SequenceLogprob).perToken!;
        expect(pt).toHaveLength(l.tokens);
        pt.forEach((v, k) => expect(Math.abs(v - l.perToken![k]!)).toBeLessThan(1e-3));
      }),
    );
    expect((remote[0]![2] as SequenceLogprob).tokens).toBe(1);
    // A repeated answer is asked once: per prompt, the two boundary requests and one per distinct answer.
    expect(srv.stats.byModel['shapes-policy']).toBe(items.length * (2 + 3));
  });

  test('a server that drops prompt_logprobs stops the run at once, naming the endpoint and the setting', async () => {
    const before = ignoring.stats.requests;
    const err = await new OpenAISequenceScorer(server(ignoring.url), 'policy').logprobs(items.slice(0, 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalBackendError);
    expect((err as Error).message).toContain(`policy endpoint ${ignoring.url} returned no prompt_logprobs for model "shapes-policy"`);
    expect((err as Error).message).toMatch(/vLLM does, with prompt_logprobs; OpenAI's API does not/);
    expect(ignoring.stats.requests - before).toBeLessThanOrEqual(2); // never retried
  });

  test('a server that refuses prompt_logprobs (as OpenAI does) stops the run with the same advice', async () => {
    const err = await new OpenAISequenceScorer(server(refusing.url), 'reference').logprobs(items.slice(0, 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalBackendError);
    expect((err as Error).message).toMatch(new RegExp(`reference endpoint ${refusing.url.replace(/[./]/g, '\\$&')} refused prompt_logprobs \\(HTTP 400\\)`));
    expect((err as Error).message).toMatch(/Unrecognized request argument supplied: prompt_logprobs/);
  });

  test('doctor: checkPromptLogprobs is ok where the server gives them, a failure with the reason where not', async () => {
    const [good] = await checkPromptLogprobs(server(srv.url));
    expect(good).toMatchObject({ status: 'ok', target: srv.url, check: 'generate prompt logprobs' });
    expect(good!.detail).toMatch(/answer log-probs work: ".*" is \d+ tokens, log-prob -\d/);
    const [dropped] = await checkPromptLogprobs(server(ignoring.url));
    expect(dropped).toMatchObject({ status: 'fail', target: ignoring.url });
    expect(dropped!.detail).toMatch(/returned no prompt_logprobs/);
    expect(dropped!.fix).toMatch(/vLLM/);
    const [refused] = await checkPromptLogprobs(server(refusing.url), 'score');
    expect(refused).toMatchObject({ status: 'fail', check: 'score prompt logprobs' });
    expect(refused!.detail).toMatch(/refused prompt_logprobs \(HTTP 400\)/);
  });
});

describe("a vLLM server's chat templates: the scorer finds every answer's own tokens (POST /tokenize)", () => {
  /** What the template renders right after an answer that is the end of its turn: ChatML <|im_end|>, vicuna </s>; llava-hf none. */
  const END: Record<TemplateName, boolean> = { default: true, chatml: true, vicuna: true, 'llava-hf': false };

  test.each(['default', 'chatml', 'llava-hf', 'vicuna'] as const)('%s: the span is the server\'s tokenization of the answer (+ end token), its sum the server\'s log-probs', async (template) => {
    const v = await TestServer.start({ pool: srv.pool, mimic: 'vllm', chatTemplate: template });
    try {
      const got = await new OpenAISequenceScorer(server(v.url), 'policy').logprobs(items);
      const post = async (route: string, body: unknown) => {
        const r = await fetch(`${route.startsWith('/v1') ? v.root : v.root}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(r.status, await r.clone().text()).toBe(200);
        return r.json() as Promise<any>;
      };
      for (const [i, it] of items.entries()) {
        const msgs = conversation(await imageUrl(it.imagePath), it.question, it.history);
        // The server's own renderings, asked directly: the prompt with the generation prompt, and with each answer.
        const g = await post('/v1/chat/completions', { model: 'shapes-policy', messages: msgs, max_tokens: 1, prompt_logprobs: 0, add_generation_prompt: true });
        const p = g.prompt_logprobs.length;
        for (const [j, answer] of it.answers.entries()) {
          const r = got[i]![j]!;
          expect(r, `${template}: ${JSON.stringify(answer)}`).not.toBeInstanceOf(Error);
          const ids: number[] = (await post('/tokenize', { model: 'shapes-policy', prompt: answer, add_special_tokens: false })).tokens;
          const a = await post('/v1/chat/completions', { model: 'shapes-policy', messages: [...msgs, { role: 'assistant', content: answer }], max_tokens: 1, prompt_logprobs: 0, add_generation_prompt: false });
          const entries: Record<string, { logprob: number }>[] = a.prompt_logprobs;
          const span = entries.slice(p, p + ids.length + (END[template] ? 1 : 0));
          expect(span.slice(0, ids.length).map((e) => Number(Object.keys(e)[0]))).toEqual(ids);
          const sum = span.reduce((acc, e) => acc + Object.values(e)[0]!.logprob, 0);
          expect((r as SequenceLogprob).tokens).toBe(span.length);
          expect((r as SequenceLogprob).sum).toBeCloseTo(sum, 9);
        }
      }
      if (template === 'default') {
        // rlaifv's own template: the same numbers as the in-process scorer.
        const local = await new LocalSequenceScorer(srv.pool, POLICY).logprobs(items);
        got.forEach((row, i) => row.forEach((r, j) => {
          const l = local[i]![j] as SequenceLogprob;
          expect((r as SequenceLogprob).tokens).toBe(l.tokens);
          expect(Math.abs((r as SequenceLogprob).sum - l.sum)).toBeLessThan(1e-3 * Math.max(1, Math.abs(l.sum)));
        }));
      }
    } finally {
      await v.close();
    }
  });

  test('llava-hf without /tokenize (the old rule): every answer fails, naming the template', async () => {
    const v = await TestServer.start({ pool: srv.pool, chatTemplate: 'llava-hf' });
    try {
      const got = await new OpenAISequenceScorer(server(v.url), 'policy').logprobs(items.slice(0, 1));
      for (const r of got[0]!) expect((r as Error).message).toMatch(/the server's chat template for shapes-policy does not render an assistant turn after the prompt/);
    } finally {
      await v.close();
    }
  });

  test('SGLang drops prompt_logprobs: the scorer stops at once, naming the endpoint', async () => {
    const v = await TestServer.start({ pool: srv.pool, mimic: 'sglang' });
    try {
      await expect(new OpenAISequenceScorer(server(v.url), 'policy').logprobs(items.slice(0, 1))).rejects.toThrow(/returned no prompt_logprobs for model "shapes-policy"/);
    } finally {
      await v.close();
    }
  });
});

describe('reading prompt log-probs (any chat template)', () => {
  const toks = (ids: number[], lps: number[] = ids.map(() => -1)) => ({ ids: [null, ...ids.slice(1)], logprobs: [null, ...lps.slice(1)] });

  test('vLLM shape: null first, then {token id: {logprob}}; anything else is a bad response', () => {
    expect(readPromptLogprobs({ prompt_logprobs: [null, { '7': { logprob: -0.5, rank: 1, decoded_token: 'x' } }] })).toEqual({ ids: [null, 7], logprobs: [null, -0.5], texts: [null, 'x'] });
    expect(readPromptLogprobs({ choices: [] })).toBeNull();
    expect(() => readPromptLogprobs({ prompt_logprobs: [null, { '7': { logprob: -1 }, '8': { logprob: -2 } }] })).toThrow(/lists 2 tokens/);
    expect(() => readPromptLogprobs({ prompt_logprobs: [null, null] })).toThrow(/only the first prompt token/);
  });

  test('a template that adds two tokens after an answer (ChatML: <|im_end|> and a newline) counts the first', () => {
    // prompt 1 2 3, answer 10 11, then 90 (end of turn) and 91 (newline)
    const g = toks([1, 2, 3]);
    const e = toks([1, 2, 3, 90, 91]);
    const a = toks([1, 2, 3, 10, 11, 90, 91], [0, -1, -1, -1, -0.25, -0.5, -2]);
    expect(answerSlice(g, e, a)).toEqual({ sum: -1.75, tokens: 3, perToken: [-1, -0.25, -0.5] });
    expect(answerSlice(g, e, e)).toMatchObject({ sum: -1, tokens: 1 });
    expect(() => answerSlice(g, e, toks([1, 2, 4, 10, 90, 91]))).toThrow(/renders the prompt differently/);
    expect(() => answerSlice(g, e, toks([1, 2, 3, 10, 90, 92]))).toThrow(/ends this answer differently/);
    expect(() => answerSlice(g, g, a)).toThrow(/does not render an assistant turn/);
  });

  test("with the server's tokenization of the answer, any template: its tokens after the prompt, then the end of the turn if there is one", () => {
    const withTexts = (ids: number[], texts: string[], lps: number[] = ids.map(() => -1)) => ({ ...toks(ids, lps), texts: [null, ...texts.slice(1)] });
    const g = toks([1, 2, 3]);
    // ChatML: <|im_end|> then a newline after every answer (an empty one too): the first is counted.
    const chatml = { e: withTexts([1, 2, 3, 90, 91], ['', 'a', 'b', '<|im_end|>', '\n']), a: withTexts([1, 2, 3, 10, 11, 90, 91], ['', 'a', 'b', 'x', 'y', '<|im_end|>', '\n'], [0, -1, -1, -1, -0.25, -0.5, -2]) };
    expect(answerSlice(g, chatml.e, chatml.a, [10, 11])).toMatchObject({ sum: -1.75, tokens: 3 });
    // llava-hf: "ASSISTANT: {answer} " — no end token, only a space, which is not counted.
    const llava = { e: withTexts([1, 2, 3, 80], ['', 'a', 'b', ' ']), a: withTexts([1, 2, 3, 10, 11, 80], ['', 'a', 'b', 'x', 'y', ' '], [0, -1, -1, -1, -0.25, -3]) };
    expect(answerSlice(g, llava.e, llava.a, [10, 11])).toMatchObject({ sum: -1.25, tokens: 2 });
    // Without the answer's ids, the old rule: the empty answer's tail must end every answer (it does not here).
    expect(() => answerSlice(g, llava.e, withTexts([1, 2, 3, 10, 81], ['', 'a', 'b', 'x', '  ']), null, 'llava-1.5')).toThrow(
      /the server's chat template for llava-1\.5 ends this answer differently from an empty one/,
    );
    // A template that changes the answer's tokens (merges its first word with what precedes it) is named.
    expect(() => answerSlice(g, chatml.e, withTexts([1, 2, 3, 12, 11, 90, 91], ['', 'a', 'b', 'xx', 'y', '<|im_end|>', '\n']), [10, 11], 'qwen')).toThrow(
      /the server's chat template for qwen does not put the answer's own 2 tokens right after the prompt \(expected \[10, 11\], found \[12, 11, 90, 91\]\)/,
    );
  });
});
