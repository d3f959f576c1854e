// Multi-turn prompts: the JSONL `history` field and LLaVA-style conversations, each checked and named by file:line.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readPrompts } from '../../src/input/prompts.js';
import { readLlavaPrompts } from '../../src/input/llava.js';
import { DEV, ROOT, tempDir } from '../helpers/paths.js';

const MULTITURN = path.join(ROOT, 'data', 'shapes', 'multiturn');
const limits = { max_image_bytes: 1_000_000, max_image_pixels: 10_000, max_question_chars: 200, fetch_timeout_ms: 5000, fetch_retries: 0 };
const imgOpts = { imagesDir: path.join(tempDir(), 'images') };

async function collect(gen: AsyncGenerator<unknown>) {
  const out: any[] = [];
  for await (const r of gen) out.push(r);
  return out;
}
const reasons = (rows: any[]) => rows.flatMap((r) => ('problem' in r ? [`${path.basename(r.problem.source)} ${r.problem.reason}`] : []));

describe('JSONL history', () => {
  test('the multiturn split reads whole: 100 conversations of 1-2 earlier turns, the question last', async () => {
    const lines = readFileSync(path.join(MULTITURN, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const rows = await collect(readPrompts(path.join(MULTITURN, 'prompts.jsonl'), limits, imgOpts));
    expect(reasons(rows)).toEqual([]);
    expect(rows).toHaveLength(100);
    rows.forEach((r, i) => {
      expect(r.prompt.history).toEqual(lines[i].history);
      expect(r.prompt.question).toBe(lines[i].question);
      expect([2, 4]).toContain(r.prompt.history.length);
    });
    expect(new Set(rows.map((r) => r.prompt.history.length))).toEqual(new Set([2, 4]));
  });

  test('a single-turn prompt keeps its id and hash (history absent or empty); earlier turns change the hash', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'a.png'));
    const base = { image: 'a.png', question: 'Where is the circle?', meta: { kind: 'position' } };
    const history = [{ role: 'user', content: 'How many shapes are there?' }, { role: 'assistant', content: 'There are four shapes.' }];
    const file = path.join(dir, 'p.jsonl');
    writeFileSync(file, [base, { ...base, history: [] }, { ...base, history }].map((l) => JSON.stringify(l)).join('\n'));
    const [a, b, c] = (await collect(readPrompts(file, limits, imgOpts))).map((r) => r.prompt);
    const imageId = createHash('sha256').update(readFileSync(path.join(dir, 'a.png'))).digest('hex').slice(0, 32);
    // The hash every stored single-turn prompt already has: image id, question and meta, nothing else.
    const old = createHash('sha256').update(JSON.stringify([imageId, base.question, base.meta])).digest('hex').slice(0, 16);
    expect([a.contentHash, b.contentHash]).toEqual([old, old]);
    expect([a.id, b.id, a.history, b.history]).toEqual([`p-${old}`, `p-${old}`, [], []]);
    expect(c.contentHash).not.toBe(old);
    expect(c.history).toEqual(history);
  });

  test('bad turns are named by line and field', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'a.png'));
    const q = { image: 'a.png', question: 'And the star?' };
    const u = (content: string) => ({ role: 'user', content });
    const a = (content: string) => ({ role: 'assistant', content });
    const rows = [
      { ...q, history: [u('Where is it?'), a('Top left.'), { role: 'system', content: 'x' }, a('y')] },
      { ...q, history: [u('Where is it?'), a('  ')] },
      { ...q, history: [u('Where is it?')] },
      { ...q, history: [u('Where is it?'), u('Hello?')] },
      { ...q, history: [{ content: 'Where is it?' }, a('Top left.')] },
      { ...q, history: 'Where is it?' },
      { ...q, history: [u('x'.repeat(201)), a('ok')] },
      { ...q, history: [{ ...u('Where?'), image: 'b.png' }, a('ok')] },
    ];
    const file = path.join(dir, 'p.jsonl');
    writeFileSync(file, rows.map((l) => JSON.stringify(l)).join('\n'));
    expect(reasons(await collect(readPrompts(file, limits, imgOpts)))).toEqual([
      'p.jsonl:1 field history.2.role: must be user or assistant',
      'p.jsonl:2 field history.1.content: must not be empty',
      'p.jsonl:3 field history: must end with an assistant turn (the question is the next user turn)',
      'p.jsonl:4 field history.1.role: must be assistant (turns alternate user/assistant, starting with user)',
      'p.jsonl:5 field history.0.role: must be user or assistant',
      'p.jsonl:6 field history: must be an array, got a string',
      'p.jsonl:7 field history.0.content: 201 characters, over limits.max_question_chars (200)',
      'p.jsonl:8 field history.0: unknown field image (allowed: role, content)',
    ]);
  });
});

describe('LLaVA conversations', () => {
  test('a .json array: the last human turn is the question, earlier turns the history, a trailing gpt turn the reference', async () => {
    const file = path.join(MULTITURN, 'llava-sample.json');
    const rows = await collect(readPrompts(file, limits, imgOpts));
    expect(reasons(rows)).toEqual([]);
    const [a, b, c] = rows.map((r) => r.prompt);
    expect(a).toMatchObject({
      id: 'llava-0',
      question: 'Where is the triangle?',
      history: [{ role: 'user', content: 'How many triangles are there?' }, { role: 'assistant', content: 'There is one triangle.' }],
      source: `${file}:2`,
    });
    expect(a.meta).toBeUndefined();
    expect(b).toMatchObject({ id: 'llava-1', question: 'Describe the image.', history: [], source: `${file}:11` });
    expect(c.question).toBe('How many shapes are there?');
    expect(c.history.map((t: any) => t.content)).toEqual(['What shapes are in the image?', 'A shape.']);
    expect(c.meta).toEqual({ reference: 'There are three shapes.' });
    expect(c.source).toBe(`${file}:18`); // the line its object opens on
    // The same rows as JSONL, through readLlavaPrompts directly, give the same prompts (ids and hashes too).
    const jsonl = path.join(tempDir(), 'rows.jsonl');
    const arr = JSON.parse(readFileSync(file, 'utf8')).map((r: any) => ({ ...r, image: path.join(MULTITURN, r.image) }));
    writeFileSync(jsonl, arr.map((r: unknown) => JSON.stringify(r)).join('\n'));
    const again = (await collect(readLlavaPrompts(jsonl, limits, imgOpts))).map((r) => r.prompt);
    expect(again.map((p) => [p.id, p.contentHash, p.history, p.question])).toEqual([a, b, c].map((p) => [p.id, p.contentHash, p.history, p.question]));
  });

  test('dispatch: a .json file of JSONL lines stays JSONL; format llava reads LLaVA rows from any file', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'a.png'));
    const plain = path.join(dir, 'plain.json');
    writeFileSync(plain, JSON.stringify({ image: 'a.png', question: 'What is it?' }) + '\n');
    expect((await collect(readPrompts(plain, limits, imgOpts)))[0].prompt).toMatchObject({ question: 'What is it?', source: `${plain}:1` });
    const rows = path.join(dir, 'rows.jsonl');
    writeFileSync(rows, JSON.stringify({ image: 'a.png', question: 'What is it?' }) + '\n');
    const opts = { imagesDir: dir, format: 'llava' as const };
    expect(reasons(await collect(readPrompts(rows, limits, opts)))).toEqual(['rows.jsonl:1 field conversations: missing (required: an array of {from, value})']);
  });

  test('bad rows of a .json array are named by the line they start on and the field; good rows still come through', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'a.png'));
    const h = (value: string) => ({ from: 'human', value });
    const g = (value: string) => ({ from: 'gpt', value });
    const rows = [
      { image: 'a.png', conversations: [g('Hello.')] },
      { image: 'a.png', conversations: [h('<image>\nWhat?'), { from: 'robot', value: 'x' }] },
      { image: 'a.png', conversations: [h('<image>')] },
      { image: 'a.png', conversations: [h('<image>\nWhat?'), h('And?')] },
      { image: 'a.png', question: 'What?' },
      { image: 'a.png', conversations: [h('<image>\nWhat is it?')] },
    ];
    const file = path.join(dir, 'rows.json');
    writeFileSync(file, '[\n' + rows.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n');
    const out = await collect(readPrompts(file, limits, imgOpts));
    expect(reasons(out)).toEqual([
      'rows.json:2 field conversations: no human turn (the last human turn is the question the policy answers)',
      'rows.json:3 field conversations.1.from: must be human or gpt, got "robot"',
      'rows.json:4 field conversations.0.value: must be a non-empty string (besides <image>)',
      'rows.json:5 field conversations.1.from: must be gpt (turns alternate human/gpt, starting with human)',
      'rows.json:6 field conversations: missing (required: an array of {from, value})',
    ]);
    expect(out.at(-1).prompt).toMatchObject({ question: 'What is it?', history: [], source: `${file}:7` });
  });
});
