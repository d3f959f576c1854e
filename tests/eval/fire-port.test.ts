// build.py's Python port of the teacher (scripts/shapes/fire.py) against the TypeScript it trains the fire policy to
// answer: on the committed cases (tests/fixtures/fire-teacher-turns.jsonl, written by `build.py --only fire`), the
// rules divider's claims, the truth provider's verdicts, both levels' teacher turns, the student's prompt as the fire
// policy's chat template renders it, and its token ids as the fire policy's tokenizer makes them.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { divideRules } from '../../src/divide/rules.js';
import { checkStatement, parseTruth } from '../../src/shapes/index.js';
import { studentPrompt, teacherTurn } from '../../src/feedback/teacher.js';
import { ROOT } from '../helpers/paths.js';

const FIRE = path.join(ROOT, 'models', 'shapes-policy-fire');

interface Case {
  question: string;
  answer: string;
  truth: unknown;
  claims: string[];
  verdicts: ('true' | 'false')[];
  detailed: string;
  simple: string;
  prompt: string;
  ids: number[];
}

const cases = readFileSync(path.join(ROOT, 'tests', 'fixtures', 'fire-teacher-turns.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Case);

describe('the fire policy\'s training dialogues are the eval\'s', () => {
  test('claims, truth verdicts and teacher turns equal the TypeScript\'s on every case', () => {
    expect(cases.length).toBeGreaterThan(300);
    for (const c of cases) {
      const truth = parseTruth(c.truth);
      const claims = divideRules(c.answer, { question: c.question }).claims.map((x) => x.claim);
      expect(claims).toEqual(c.claims);
      const verdicts = claims.map((x) => (checkStatement(truth, x) === 'true' ? 'true' : 'false'));
      expect(verdicts).toEqual(c.verdicts);
      expect(teacherTurn('detailed', claims, verdicts)).toBe(c.detailed);
      expect(teacherTurn('simple', claims, verdicts)).toBe(c.simple);
    }
  });

  test('the student prompt and its token ids are the fire policy\'s chat template and tokenizer', async () => {
    const tok = await AutoTokenizer.from_pretrained(FIRE, { local_files_only: true });
    for (const c of cases.slice(0, 60)) {
      const { history, question } = studentPrompt(c.question, [c.answer], [c.detailed]);
      const messages = [
        { role: 'user', content: [{ type: 'image' }, { type: 'text', text: history[0]!.content }] },
        ...history.slice(1),
        { role: 'user', content: question },
      ];
      const text = tok.apply_chat_template(messages, { add_generation_prompt: true, tokenize: false }) as string;
      expect(text).toBe(c.prompt);
      expect(tok.encode(text.replace('<image>', '<image>'.repeat(9)))).toEqual(c.ids);
    }
  });
});
