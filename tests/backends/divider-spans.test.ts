// Both dividers give each claim the character range of its source text in the answer as given: the rules divider in
// the worker pool (also when divide.max_words cuts the answer), the LLM divider over HTTP (null for a rewritten fact).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { sharedPool } from '../helpers/file-pool.js';
import { RulesDivider } from '../../src/backends/local/index.js';
import type { DivideOutput } from '../../src/backends/types.js';
import { loadConfig } from '../../src/config/load.js';
import { createDivider } from '../../src/pipeline/round.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { serverBackend, tempDir } from '../helpers/paths.js';
import { expectSpanInSentence } from '../helpers/spans.js';

// Spacing a divider must not normalise away: double spaces, a line break, leading blanks.
const ANSWER = '  A red circle is in the top left.  A blue square sits\nbeside it. Two dogs and a cat.';

/** Every claim that has a span (the LLM divider's rewritten facts have none) is placed in its sentence. */
function expectSpansIndex(answer: string, out: DivideOutput): void {
  if ('error' in out) throw new Error(out.error);
  for (const c of out.claims) if (c.start !== null) expectSpanInSentence(answer, c);
}

describe('the rules divider', () => {
  // The test process's shared pool of one worker (tests/helpers/file-pool.ts): what is tested is the divider, not its pool.
  let pool: WorkerPool;
  beforeAll(() => {
    pool = sharedPool(1);
  });

  test('every claim has a span into the answer, spacing kept', async () => {
    const [out] = await new RulesDivider(pool, null).divide([{ question: 'What is there?', answer: ANSWER }]);
    if (!out || 'error' in out) throw new Error('no division');
    expect(out.claims.length).toBeGreaterThanOrEqual(3);
    expect(out.claims.every((c) => c.start !== null && c.end !== null)).toBe(true);
    expectSpansIndex(ANSWER, out);
    // The second sentence starts after the first one's two spaces, in the original answer.
    const square = out.claims.find((c) => /square/.test(c.claim))!;
    expect(square.start).toBe(ANSWER.indexOf('A blue square'));
  });

  test('max_words cuts the original answer, so the spans still index it (not a re-spaced copy)', async () => {
    const [cut] = await new RulesDivider(pool, 12).divide([{ question: 'What is there?', answer: ANSWER }]);
    if (!cut || 'error' in cut) throw new Error('no division');
    expect(cut.truncated).toBe(true);
    expect(cut.claims.some((c) => /cat|dog/.test(c.claim))).toBe(false);
    const square = cut.claims.find((c) => /square/.test(c.claim))!;
    expect(square.start).toBe(ANSWER.indexOf('A blue square'));
    expectSpansIndex(ANSWER, cut);
  });
});

describe('the LLM divider over HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test("a fact copied from the answer has its place there; a rewritten fact's span is null", async () => {
    // Built from a config file as a round builds it.
    const file = path.join(tempDir(), 'llm.json');
    writeFileSync(file, JSON.stringify({ divide: { backend: { ...serverBackend(srv.url, 'rules-divider'), type: 'llm' } } }));
    const divider = createDivider(loadConfig(file).config, null);
    try {
      const [out] = await divider.divide([{ question: 'What is there?', answer: ANSWER }]);
      if (!out || 'error' in out) throw new Error('no division');
      const copied = out.claims.find((c) => c.claim === 'A red circle is in the top left.')!;
      expect([copied.start, copied.end]).toEqual([2, 34]);
      // The stand-in's rules divider rewrites "Two dogs and a cat." into existence facts, which are not in the answer.
      const rewritten = out.claims.filter((c) => /^There (is|are)/.test(c.claim));
      expect(rewritten.length).toBeGreaterThan(0);
      for (const c of rewritten) expect([c.start, c.end]).toEqual([null, null]);
      expectSpansIndex(ANSWER, out);
    } finally {
      await divider.close();
    }
  });
});
