// `rlaifv claims` end to end with the built CLI: real JSONL files in a temp folder, the rules divider in the worker
// pool and the LLM divider served by the test server over HTTP. One output line per input line, in order; a bad line
// is an error line (and a line on stderr naming it), never the end of the others; usage mistakes exit 2.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runNode } from '../helpers/run-cli.js';
import { ROOT, serverBackend, tempDir } from '../helpers/paths.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { sharedPool } from '../helpers/file-pool.js';
import { expectSpanInSentence } from '../helpers/spans.js';
import type { ClaimsLine } from '../../src/pipeline/claims-preview.js';

type Ok = Extract<ClaimsLine, { claims: unknown }>;

const GOOD = 'There is a red circle in the top left.  A blue square sits\nbeside it. Two dogs and a cat.';
const LINES = [
  JSON.stringify({ id: 'a', question: 'What is in the image?', answer: GOOD }),
  '{"answer": "A green triangle.", oops}',
  JSON.stringify({ id: 'no-answer', question: 'What is there?' }),
  JSON.stringify({ answer: 42 }),
  JSON.stringify({ question: ['not', 'a', 'string'], answer: 'A red circle.' }),
  JSON.stringify({ answer: 'The circle is red. It might be a toy.' }),
  '   ',
];

const dir = tempDir();
const write = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};
const parse = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as ClaimsLine);
const claims = (...args: string[]) => runNode(['claims', ...args]);

/** Every claim's span in its answer: the text there is (part of) the claim's sentence. */
function expectSpans(answer: string, l: Ok): void {
  for (const c of l.claims) expectSpanInSentence(answer, c);
}

describe('rlaifv claims with the rules divider', () => {
  let r: Awaited<ReturnType<typeof claims>>;
  beforeAll(async () => {
    // A byte-order mark before the first line, as some editors write one.
    r = await claims('--in', write('mixed.jsonl', ['\uFEFF' + LINES[0], ...LINES.slice(1)]));
  });

  test('one line out per line in, in order, ids defaulting to the line number; exit 0 despite bad lines', () => {
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out.map((l) => l.id)).toEqual(['a', 2, 'no-answer', 4, 5, 6, 7]);
    expect(out.map((l) => ('error' in l ? 'error' : 'ok'))).toEqual(['ok', 'error', 'error', 'error', 'error', 'ok', 'error']);
    expect((out[1] as { error: string }).error).toMatch(/^line 2: not JSON/);
    expect((out[2] as { error: string }).error).toBe('line 3: "answer" is missing');
    expect((out[3] as { error: string }).error).toBe('line 4: "answer" must be a string, got number');
    expect((out[4] as { error: string }).error).toBe('line 5: "question" must be a string, got an array');
    expect((out[6] as { error: string }).error).toBe('line 7: empty line');
  });

  test('the claims carry their questions, sentences and spans into the answer; hedges are skipped with a reason', () => {
    const [a, , , , , f] = parse(r.stdout) as Ok[];
    expect(Object.keys(a!)).toEqual(['id', 'claims', 'skipped']);
    expect(a!.claims.length).toBeGreaterThanOrEqual(3);
    for (const c of a!.claims) {
      expect(Object.keys(c)).toEqual(['claim', 'question', 'sentence', 'start', 'end']);
      expect(c.question).toMatch(/\?$/);
    }
    expectSpans(GOOD, a!);
    expect(a!.claims.find((c) => /square/.test(c.claim))!.start).toBe(GOOD.indexOf('A blue square'));
    expect(f!.skipped).toEqual([{ sentence: 'It might be a toy.', reason: 'opinion or hedge' }]);
    expectSpans('The circle is red. It might be a toy.', f!);
  });

  test('stderr names each bad line of the file, then says how many failed', () => {
    const lines = r.stderr.trim().split('\n');
    for (const n of [2, 3, 4, 5, 7]) expect(lines.some((l) => l.includes('mixed.jsonl: line ' + n + ':'))).toBe(true);
    expect(lines.at(-1)).toBe('divided 2 of 7 lines with the rules divider; 5 failed');
  });

  test('--out writes the same lines to a file, nothing to stdout', async () => {
    const out = path.join(dir, 'out.jsonl');
    const o = await claims('--in', path.join(dir, 'mixed.jsonl'), '--out', out);
    expect(o.code).toBe(0);
    expect(o.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(r.stdout);
  });

  test('a file of many batches keeps its order, and its bad lines fail alone', async () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      i % 37 === 5 ? '{broken' : JSON.stringify({ id: `q${i}`, answer: `There are ${(i % 5) + 2} red circles. A blue square is on the left.` }),
    );
    const m = await claims('--in', write('many.jsonl', many));
    expect(m.code).toBe(0);
    const out = parse(m.stdout);
    expect(out.map((l) => l.id)).toEqual(many.map((l, i) => (l === '{broken' ? i + 1 : `q${i}`)));
    const bad = many.filter((l) => l === '{broken').length;
    expect(out.filter((l) => 'error' in l)).toHaveLength(bad);
    expect((out[0] as Ok).claims[0]!.claim).toBe('There are 2 red circles.');
    expect((out[299] as Ok).claims[0]!.claim).toBe(`There are ${(299 % 5) + 2} red circles.`);
    expect(m.stderr.trim().split('\n').at(-1)).toBe(`divided ${300 - bad} of 300 lines with the rules divider; ${bad} failed`);
  });

  test("divide.max_words cuts the answer and says so; the spans still index the original text", async () => {
    const cfg = path.join(dir, 'max-words.json');
    writeFileSync(cfg, JSON.stringify({ divide: { max_words: 12 } }));
    const m = await claims('--in', path.join(dir, 'mixed.jsonl'), '--config', cfg);
    expect(m.code).toBe(0);
    const a = parse(m.stdout)[0] as Ok;
    expect(a.truncated).toBe(true);
    expect(a.claims.some((c) => /dog|cat/.test(c.claim))).toBe(false);
    expect(a.claims.find((c) => /square/.test(c.claim))!.start).toBe(GOOD.indexOf('A blue square'));
    expectSpans(GOOD, a);
  });
});

describe('rlaifv claims: usage mistakes exit 2 and name the file', () => {
  test.each([
    ['a missing --in file', ['--in', path.join(dir, 'nope.jsonl')], /--in .*nope\.jsonl: cannot read it/],
    ['a folder as --in', ['--in', dir], /--in .*: cannot read it \(it is a folder\)/],
    ['no --in', [], /--in <file> is required/],
    ['an --out that cannot be written', ['--in', '@MIXED', '--out', path.join(dir, 'no', 'such', 'out.jsonl')], /--out .*out\.jsonl: cannot write it/],
  ])('%s', async (_what, args, message) => {
    write('mixed.jsonl', LINES);
    const r = await claims(...args.map((a) => (a === '@MIXED' ? path.join(dir, 'mixed.jsonl') : a)));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  test('a bad config', async () => {
    const cfg = path.join(dir, 'bad-config.json');
    writeFileSync(cfg, JSON.stringify({ divide: { backend: { type: 'rules', colour: 'red' } } }));
    const r = await claims('--in', write('mixed.jsonl', LINES), '--config', cfg);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-config\.json.*colour/s);
    expect(r.stdout).toBe('');
  });
});

describe('rlaifv claims with the LLM divider over HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => {
    // The test process's shared pool of one worker (tests/helpers/file-pool.ts), not a pool of the server's own.
    srv = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('facts copied from the answer have spans, rewritten ones null; a failing item is its own error line', async () => {
    const cfg = path.join(dir, 'llm.json');
    writeFileSync(cfg, JSON.stringify({ divide: { backend: { ...serverBackend(srv.url, 'rules-divider'), type: 'llm', content_retries: 1 } } }));
    // The served "LLM" answers every split request about this answer with prose, so it has no facts to give.
    srv.inject({ kind: 'garbage', times: 2, model: 'rules-divider', match: 'Zebracorn' });
    const lines = [
      JSON.stringify({ id: 'ok', question: 'What is in the image?', answer: GOOD }),
      JSON.stringify({ id: 'fails', answer: 'A Zebracorn stands on a green triangle.' }),
      '[1, 2]',
      JSON.stringify({ id: 'ok2', answer: 'A red circle is above a blue square.' }),
    ];
    const r = await claims('--in', write('llm.jsonl', lines), '--config', cfg);
    expect(r.code).toBe(0);
    const out = parse(r.stdout);
    expect(out.map((l) => l.id)).toEqual(['ok', 'fails', 3, 'ok2']);
    expect((out[1] as { error: string }).error).toMatch(/^line 2: split: no "- fact" bullets in the output after 2 attempts/);
    expect((out[2] as { error: string }).error).toBe('line 3: not a JSON object');
    const ok = out[0] as Ok;
    const copied = ok.claims.find((c) => c.claim === 'There is a red circle in the top left.')!;
    expect([copied.start, copied.end]).toEqual([0, 38]);
    const rewritten = ok.claims.filter((c) => /^There (is|are) (two dogs|a cat)/.test(c.claim));
    expect(rewritten.length).toBe(2);
    for (const c of rewritten) expect([c.start, c.end]).toEqual([null, null]);
    expect((out[3] as Ok).claims.length).toBeGreaterThan(0);
    expect(r.stderr).toContain('llm.jsonl: line 2: split:');
    expect(r.stderr.trim().split('\n').at(-1)).toBe('divided 2 of 4 lines with the llm divider; 2 failed');
  });
});

describe('docs/claims.md', () => {
  test('its example runs as documented: the same ids, fields, skipped hedges, error line and stderr', async () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'claims.md'), 'utf8');
    const block = /\$ cat answers\.jsonl\n([\s\S]*?)\$ rlaifv claims --in answers\.jsonl\n([\s\S]*?)```\nand on stderr:\n```\n([\s\S]*?)```/.exec(doc);
    if (!block) throw new Error('docs/claims.md: the example is not where this test looks for it');
    const [, input, output, stderr] = block as unknown as [string, string, string, string];
    const file = path.join(dir, 'answers.jsonl');
    writeFileSync(file, input);
    const r = await runNode(['claims', '--in', 'answers.jsonl'], { cwd: dir });
    expect(r.code).toBe(0);
    const got = parse(r.stdout);
    const want = parse(output);
    expect(got.map((l) => [l.id, Object.keys(l)])).toEqual(want.map((l) => [l.id, Object.keys(l)]));
    // The claims themselves are the divider's, which issue 29 rewrites (the page says so); what it skipped is the same.
    expect(got.map((l) => ('skipped' in l ? l.skipped : l.error))).toEqual(want.map((l) => ('skipped' in l ? l.skipped : l.error)));
    expect(r.stderr).toBe(stderr);
  });
});
