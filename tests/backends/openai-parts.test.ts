// The pure parts of the remote path: bullet parsing, top-K reading, Retry-After, error classes, secrets, templates.
import { describe, expect, test } from 'vitest';
import OpenAI from 'openai';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBullets } from '../../src/backends/openai/bullets.js';
import { displayUrl, redact, resolveApiKey } from '../../src/backends/openai/endpoints.js';
import { classifyError, retryAfterMs } from '../../src/backends/openai/error-action.js';
import { fillTemplate } from '../../src/backends/openai/index.js';
import { yesNoFromTopLogprobs } from '../../src/feedback/yes-no.js';
import { configHash, loadConfig } from '../../src/config/load.js';
import { CONVERT_PROMPT, SPLIT_PROMPT } from '../../src/config/schema.js';
import { tempDir } from '../helpers/paths.js';

describe('parseBullets', () => {
  test('reads the section under its header and ignores the rest', () => {
    const text = 'Sure! Here are the facts.\n### Facts:\n- There is a red circle.\n- The circle is small.\n\n### Notes:\n- not a fact';
    expect(parseBullets(text, /facts/i)).toEqual({ items: ['There is a red circle.', 'The circle is small.'], header: true });
  });
  test('accepts *, •, numbered items, bold headers and code fences', () => {
    const text = '```\n**Modified sentences:**\n1. Is there a star?\n2) Is the star not blue?\n* Are there two squares?\n• Is it large?\n```';
    expect(parseBullets(text, /modified/i).items).toEqual(['Is there a star?', 'Is the star not blue?', 'Are there two squares?', 'Is it large?']);
  });
  test('drops the format\'s own placeholders and quotes', () => {
    expect(parseBullets('### Facts:\n- {Extracted fact 1}\n- ...\n- "A square is green."', /facts/i).items).toEqual(['A square is green.']);
  });
  test('without the header, every bullet counts; a header with no bullets is an empty list, not a parse failure', () => {
    expect(parseBullets('- a\n- b', /facts/i)).toEqual({ items: ['a', 'b'], header: false });
    expect(parseBullets('### Facts:\n(none)', /facts/i)).toEqual({ items: [], header: true });
    expect(parseBullets('I cannot help with that.', /facts/i)).toEqual({ items: [], header: false });
  });
  test('"Facts:" without a markdown mark is a header too', () => {
    expect(parseBullets('Facts:\n- x is y', /facts/i)).toEqual({ items: ['x is y'], header: true });
  });
});

describe('yesNoFromTopLogprobs', () => {
  const lp = (p: number) => Math.log(p);
  test('sums every variant of yes and of no', () => {
    const r = yesNoFromTopLogprobs([
      { token: 'Yes', logprob: lp(0.5) },
      { token: ' yes', logprob: lp(0.2) },
      { token: '▁No', logprob: lp(0.1) },
      { token: 'no', logprob: lp(0.05) },
      { token: 'maybe', logprob: lp(0.01) },
    ]);
    expect(r.pYes).toBeCloseTo(0.7, 12);
    expect(r.pNo).toBeCloseTo(0.15, 12);
    expect(r.boundUsed).toBe(false);
    expect(r.top.map((t) => t.token)).toEqual(['Yes', ' yes', '▁No', 'no', 'maybe']);
  });
  test('a side missing from the top K is bounded by the smallest listed probability and flagged', () => {
    const r = yesNoFromTopLogprobs([{ token: 'No', logprob: lp(0.9) }, { token: 'The', logprob: lp(0.04) }]);
    expect(r.pNo).toBeCloseTo(0.9, 12);
    expect(r.pYes).toBeCloseTo(0.04, 12);
    expect(r.boundUsed).toBe(true);
  });
  test('neither listed: unscored (null), top tokens kept', () => {
    const r = yesNoFromTopLogprobs([{ token: 'There', logprob: lp(0.6) }]);
    expect([r.pYes, r.pNo, r.boundUsed, r.top.length]).toEqual([null, null, false, 1]);
  });
});

describe('retries and errors', () => {
  test('Retry-After in seconds, as a date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({}), now)).toBeNull();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
  });
  const ctx = { role: 'label', endpoint: 'http://gpu1:8000/v1', model: 'llava' };
  const apiError = (status: number, message: string) => OpenAI.APIError.generate(status, { message }, message, new Headers({ 'retry-after': '2' }));
  test('429, 5xx, timeouts, dropped connections and bad responses are retried', () => {
    expect(classifyError(apiError(429, 'slow down'), ctx)).toMatchObject({ kind: 'retry', waitMs: 2000 });
    expect(classifyError(apiError(503, 'busy'), ctx)).toMatchObject({ kind: 'retry' });
    expect(classifyError(new OpenAI.APIConnectionTimeoutError(), ctx)).toMatchObject({ kind: 'retry', reason: 'timeout' });
    expect(classifyError(new OpenAI.APIConnectionError({ message: 'socket hang up' }), ctx)).toMatchObject({ kind: 'retry' });
    expect(classifyError(new SyntaxError('Unexpected end of JSON input'), ctx)).toMatchObject({ kind: 'retry' });
  });
  test('mistakes are not retried and say which setting to change', () => {
    const m = (e: unknown) => {
      const c = classifyError(e, ctx);
      return c.kind === 'fatal' ? c.message : '';
    };
    expect(m(apiError(401, 'bad key'))).toMatch(/label endpoint http:\/\/gpu1:8000\/v1 refused the API key.*label\.backend\.api_key_env/);
    expect(m(apiError(404, 'The model `llava` does not exist.'))).toMatch(/does not serve model "llava".*label\.backend\.model/);
    expect(m(apiError(400, 'Requested sample logprobs of 30, which is greater than max allowed: 20'))).toMatch(/label\.top_logprobs.*--max-logprobs/);
    expect(m(apiError(400, 'logprobs are not supported'))).toMatch(/refused the logprobs request/);
    expect(m(apiError(400, 'Unrecognized request argument supplied: top_k'))).toMatch(/label\.backend\.server to "openai"/);
    // FastAPI's own 404 (no such route): the base URL lacks /v1, not the model.
    const noRoute = OpenAI.APIError.generate(404, { error: { message: 'Not Found', envelope: 'fastapi' } }, 'Not Found', new Headers());
    expect(m(noRoute)).toMatch(/has no chat completions route.*ending in \/v1/);
  });
  test("what one item holds (its length, its image, its template) refuses that item only, with the server's text", () => {
    for (const text of [
      "This model's maximum context length is 4096 tokens. However, you requested 4600 tokens (4088 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
      'The decoder prompt (length 8825) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens.',
      "The input (5000 tokens) is longer than the model's context length (4096 tokens).",
      'cannot identify image file <_io.BytesIO object at 0x7f3a2c1b5f80>',
      'Conversation roles must alternate user/assistant/user/assistant/...',
    ]) {
      const c = classifyError(apiError(400, text), ctx);
      expect(c).toEqual({ kind: 'item', message: `label endpoint http://gpu1:8000/v1 refused this item (HTTP 400): ${text}` });
    }
  });
  test('a server that wants max_completion_tokens is told so by its refusal', () => {
    const e = apiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
    expect(classifyError(e, ctx)).toEqual({ kind: 'max-completion-tokens' });
  });
  test('endpoints are shown without credentials; keys are redacted from any text', () => {
    expect(displayUrl('https://user:pw@api.example.com/v1?key=abc#x')).toBe('https://api.example.com/v1');
    expect(redact('Incorrect API key provided: sk-123456789', ['sk-123456789'])).toBe('Incorrect API key provided: ***');
  });
  test('keys come from the environment or the first line of a file, with clear errors', () => {
    const f = path.join(tempDir(), 'key');
    writeFileSync(f, ' sk-file \nsecond line\n');
    expect(resolveApiKey({ api_key_file: f }, 'label')).toBe('sk-file');
    expect(resolveApiKey({}, 'label')).toBeNull();
    expect(() => resolveApiKey({ api_key_env: 'RLAIFV_NOPE_UNSET' }, 'label')).toThrow(/label\.backend\.api_key_env: the environment variable RLAIFV_NOPE_UNSET is not set/);
    expect(() => resolveApiKey({ api_key_file: f + '.missing' }, 'divide')).toThrow(/divide\.backend\.api_key_file: cannot read .*ENOENT/);
  });
});

describe('divider templates and config', () => {
  test('templates are filled in one pass: an answer containing {question} is left alone', () => {
    expect(fillTemplate('Q: {question}\nA: {answer}', { question: 'What?', answer: 'It says {question}.' })).toBe('Q: What?\nA: It says {question}.');
    expect(fillTemplate(SPLIT_PROMPT, { question: 'q', answer: 'a' })).toContain('- {Extracted fact 1}');
  });
  test('the LLM divider defaults to the paper\'s prompts; where servers run and how hard they are pushed is not in the config hash', () => {
    const dir = tempDir();
    const write = (o: object) => {
      const f = path.join(dir, `${Math.random()}.json`);
      writeFileSync(f, JSON.stringify(o));
      return loadConfig(f).config;
    };
    const base = { type: 'llm', model: 'llama', base_urls: ['http://a:8000/v1'] };
    const a = write({ divide: { backend: base } });
    const b = write({ divide: { backend: { ...base, base_urls: ['http://a:8000/v1', 'http://b:8000/v1'], max_in_flight: 64, api_key_env: 'K' } } });
    const c = write({ divide: { backend: { ...base, model: 'qwen' } } });
    expect(a.divide.backend).toMatchObject({ split_prompt: SPLIT_PROMPT, convert_prompt: CONVERT_PROMPT, temperature: 0, content_retries: 2 });
    expect(configHash(a)).toBe(configHash(b));
    expect(configHash(a)).not.toBe(configHash(c));
  });
});
