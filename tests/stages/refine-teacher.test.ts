// The `refine` editor with a served teacher (pair.refine.teacher: FIRE's A15 prompt) on a real round: prompts whose
// meta holds a reference answer get the teacher's comment over a real HTTP server (the test server's stand-in made of
// the rules divider and the real tiny labeler), the others the labeler's verdicts; a teacher that never gives a score
// costs only its dialogue, recorded as a failure with the raw reply.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDemoRound } from '../helpers/round.js';
import { tempDir, ROOT } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the round and the server here (tests/helpers/file-pool.ts).
const pool = filePool();
import { DEFAULT_MODELS, TEACHER, TestServer } from '../../scripts/mimic/openai-server.js';
import { configSchema, TEACHER_PROMPT } from '../../src/config/schema.js';
import { parseTeacherReply, Teacher } from '../../src/methods/teacher.js';
import { checkTeacher } from '../../src/doctor/endpoints.js';
import type { Db, RoundRow } from '../../src/store/index.js';

const LIMIT = 24;
let server: TestServer;
let run: { db: Db; round: RoundRow };
let prompts: string;
let withReference: Set<string>;

/** A true description of an image from its truth: one sentence per object. */
const describe_ = (objs: { shape: string; color: string; size: string; position: string }[]) =>
  objs.map((o) => `There is a ${o.size} ${o.color} ${o.shape} in the ${o.position}.`).join(' ');

beforeAll(async () => {
  server = await TestServer.start({ mimic: 'vllm', pool: pool(), models: { ...DEFAULT_MODELS, ...TEACHER } });
  // The first LIMIT dev prompts; every other one holds a reference answer in meta.reference.
  const dir = tempDir();
  prompts = path.join(dir, 'prompts.jsonl');
  withReference = new Set();
  const lines = readFileSync(path.join(ROOT, 'data/shapes/dev/prompts.jsonl'), 'utf8').trim().split('\n').slice(0, LIMIT).map((l, i) => {
    const p = JSON.parse(l);
    p.image = path.join(ROOT, 'data/shapes/dev', p.image);
    if (i % 2 === 0) {
      p.meta.reference = describe_(p.meta.truth.objects);
      withReference.add(p.id);
    }
    return JSON.stringify(p);
  });
  writeFileSync(prompts, lines.join('\n') + '\n');
  run = await runDemoRound({
    limit: LIMIT,
    pool: pool(),
    edit: (c) => {
      c.prompts = prompts;
      c.pair.corrections = ['refine'];
      c.pair.refine.teacher = configSchema.parse({ pair: { corrections: ['refine'], refine: { teacher: { backend: { type: 'openai', model: 'teacher', base_urls: [server.url] } } } } }).pair.refine.teacher;
    },
  });
});

afterAll(async () => {
  run?.db.close();
  await server?.close();
});

describe('a served FIRE teacher in the refine dialogues', () => {
  test('prompts with a reference answer get the served teacher\'s turns, the others the verdicts\'', () => {
    const rows = run.db
      .prepare('SELECT o.prompt_id, t.teacher, t.feedback, t.score FROM dialogue_turns t JOIN candidates o ON o.id = t.source_id')
      .all() as { prompt_id: string; teacher: string; feedback: string; score: number }[];
    const served = rows.filter((r) => withReference.has(r.prompt_id));
    const own = rows.filter((r) => !withReference.has(r.prompt_id));
    expect(served.length).toBeGreaterThan(5);
    expect(own.length).toBeGreaterThan(5);
    for (const r of served) {
      expect(r.teacher).toMatch(/^teacher\|fire-teacher:[0-9a-f]{12}$/);
      // The teacher's prose, in the student's layout: its score, then its feedback.
      expect(r.feedback).toMatch(/^Score: (10|[1-9])\nFeedback: \S/);
      expect(r.feedback).toBe(`Score: ${r.score}\nFeedback: ${parseTeacherReply(r.feedback)!.feedback}`);
    }
    for (const r of own) {
      expect(r.teacher).toBe('verdicts');
      expect(r.feedback).not.toMatch(/do not match the image/);
    }
    // The teacher saw FIRE's prompt: the server answered the teacher model once per served turn.
    expect(served.some((r) => /do not match the image|matches the image|does not describe/.test(r.feedback))).toBe(true);
  });

  test('the teacher prompt is FIRE\'s A15 with the question, the reference and the response filled in', () => {
    const t = new Teacher(configSchema.parse({ pair: { corrections: ['refine'], refine: { teacher: { backend: { type: 'openai', model: 'teacher', base_urls: [server.url] } } } } }).pair.refine.teacher!);
    const p = t.prompt('How many circles are there?', 'There are two circles.', 'There are three circles.');
    expect(p).toContain('Question: How many circles are there? Groundtruth: There are two circles.');
    expect(p).toContain('Here is the student response: There are three circles., now please provide the feedback:');
    expect(p).toContain('Do NOT directly tell the groundtruth answer.');
    expect(TEACHER_PROMPT.startsWith('You are a helpful language and vision assistant.')).toBe(true);
  });

  test('a reply without a score is asked again, then is a failure with the raw reply', async () => {
    // A teacher that refuses (the server's 'garbage' fault: "I am sorry, I cannot help with that.") twice.
    server.inject({ kind: 'garbage', times: 2, model: 'teacher' });
    const t = new Teacher(configSchema.parse({ pair: { corrections: ['refine'], refine: { teacher: { backend: { type: 'openai', model: 'teacher', base_urls: [server.url], max_retries: 0 } } } } }).pair.refine.teacher!);
    const img = path.join(ROOT, 'data/shapes/dev/images/dev-0000.png');
    const r = await t.comment(img, 'Where is the blue circle?', 'The blue circle is in the middle left.', 'The blue circle is in the top left.');
    expect(r).toEqual({ error: 'teacher: the reply holds no "Score: N" (1–10) after 2 attempts', raw: 'I am sorry, I cannot help with that.' });
    // The next request is answered: a wrong position is named without the groundtruth's.
    const ok = await t.comment(img, 'Where is the blue circle?', 'The blue circle is in the middle left.', 'The blue circle is in the top left.');
    expect(ok).toMatchObject({ score: expect.any(Number), turn: expect.stringMatching(/^Score: \d+\nFeedback: /) });
    expect('turn' in ok && ok.turn).not.toContain('middle left');
  });

  test('doctor probes the teacher: ok with its comment, fail naming pair.refine.teacher for a model that is not one', async () => {
    const cfg = (model: string) => configSchema.parse({ pair: { corrections: ['refine'], refine: { teacher: { backend: { type: 'openai', model, base_urls: [server.url], max_retries: 0 } } } } }).pair.refine.teacher!;
    const [good] = await checkTeacher(cfg('teacher'));
    expect(good).toMatchObject({ status: 'ok', check: 'teacher' });
    expect(good!.detail).toMatch(/^commented on a probe response: "Score: \d+ Feedback: /);
    const [bad] = await checkTeacher(cfg('rules-divider'));
    expect(bad).toMatchObject({ status: 'fail', check: 'teacher' });
    expect(bad!.fix).toMatch(/pair\.refine\.teacher/);
  });

  test('the reply parser takes the first score and the feedback text, and refuses replies without either', () => {
    expect(parseTeacherReply('Score: 6\nFeedback: The circle is not blue.')).toEqual({ score: 6, feedback: 'The circle is not blue.' });
    expect(parseTeacherReply('**Score:** 8/10\n\n**Feedback:** Good, but\nthe star is missing.')).toEqual({ score: 8, feedback: 'Good, but the star is missing.' });
    expect(parseTeacherReply('Score: 7. You should look at the left side.')).toEqual({ score: 7, feedback: '. You should look at the left side.' });
    expect(parseTeacherReply('Feedback: fine.')).toBeNull();
    expect(parseTeacherReply('Score: 11\nFeedback: x')).toBeNull();
    expect(parseTeacherReply('Score: 5\nFeedback:   ')).toBeNull();
  });
});
