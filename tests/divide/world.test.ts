import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimToQuestion, divideRules } from '../../src/divide/rules.js';

// Generated once by fixtures/make-world-answers.py from scripts/shapes/world.py (numpy default_rng(7)).
interface WorldItem {
  kind: string;
  source: 'truth' | 'perceived';
  instruction: string;
  answer: string;
  claims: string[];
  questions: string[];
}
interface WorldQuestion {
  form: string;
  question: string;
  statement: string;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/world-answers.json', import.meta.url), 'utf8')) as {
  items: WorldItem[];
  questions: WorldQuestion[];
};

describe('shapes world language (property over generated answers)', () => {
  it('has a fixture covering every kind, truthful and perceived', () => {
    expect(fixture.items.length).toBeGreaterThanOrEqual(300);
    const kinds = new Set(fixture.items.map((i) => `${i.kind}/${i.source}`));
    for (const kind of ['detailed', 'listing', 'attribute', 'position', 'counting']) {
      expect(kinds).toContain(`${kind}/truth`);
      expect(kinds).toContain(`${kind}/perceived`);
    }
  });

  it('divides every answer with nothing skipped, into well-formed questions', () => {
    for (const item of fixture.items) {
      for (const opts of [undefined, { question: item.instruction }]) {
        const r = divideRules(item.answer, opts);
        expect(r.skipped, item.answer).toEqual([]);
        expect(r.claims.length, item.answer).toBeGreaterThan(0);
        for (const c of r.claims) {
          expect(c.question, c.claim).toMatch(/^(?:Is|Are|Does|Do) .+\?$/);
          expect(item.answer).toContain(c.sentence);
        }
      }
    }
  });

  it('yields exactly the claims and questions the generator implies', () => {
    for (const item of fixture.items) {
      const r = divideRules(item.answer, { question: item.instruction });
      expect(r.claims.map((c) => c.claim), item.answer).toEqual(item.claims);
      expect(r.claims.map((c) => c.question), item.answer).toEqual(item.questions);
    }
  });

  it('turns every world statement back into the question world.py asked, negations included', () => {
    expect(new Set(fixture.questions.map((q) => q.form))).toEqual(
      new Set(['exists', 'not_exists', 'count', 'attribute', 'attribute_not', 'position', 'position_not']),
    );
    for (const q of fixture.questions) {
      expect(claimToQuestion(q.statement), q.statement).toBe(q.question);
      const r = divideRules(q.statement);
      expect(r.skipped, q.statement).toEqual([]);
      expect(r.claims.map((c) => c.question), q.statement).toEqual([q.question]);
    }
  });
});
