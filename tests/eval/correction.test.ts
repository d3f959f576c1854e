// `rlaifv eval --policy P --feedback …` end to end with the real tiny policy and labeler in a real store: the JSON's
// shape, and its figures against an independent recount from the stored answers, claims and labels; a rerun generates
// nothing; bad flags exit 2 naming the flag.
import { describe, expect, test } from 'vitest';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import { checkStatement } from '../../src/shapes/index.js';
import { parseTruth } from '../../src/shapes/truth.js';
import { POLICY, tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';

/** The built command's stdout; it must succeed (the built one: through tsx every call paid for compiling src/ again). */
const cli = (args: string[]) => {
  const r = runCliSync(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};
const norm = (t: string) => t.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');

interface Answer {
  prompt: string;
  text: string;
  finish: string;
  divided: boolean;
  kind: string;
  truth: ReturnType<typeof parseTruth>;
  question: string;
  history: { role: string; content: string }[];
  claims: { claim: string; pYes: number | null; pNo: number | null }[];
}

/** Every answer of a round with its claims and the round labeler's p(yes), p(no), straight from the store. */
function answers(dbFile: string, round: number): Map<string, Answer> {
  const db = openDb(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT c.prompt_id AS prompt, c.text, c.finish_reason AS finish, d.candidate_id IS NOT NULL AS divided, p.meta_json AS meta, p.question, p.history_json AS history,
           cl.claim, l.p_yes AS pYes, l.p_no AS pNo
         FROM candidates c JOIN prompts p ON p.id = c.prompt_id JOIN rounds r ON r.id = c.round_id
         LEFT JOIN divisions d ON d.candidate_id = c.id LEFT JOIN claims cl ON cl.candidate_id = c.id
         LEFT JOIN labels l ON l.question_id = cl.question_id AND l.labeler = r.labeler_model
         WHERE c.round_id = ? ORDER BY c.prompt_id, cl.idx`,
      )
      .all(round) as { prompt: string; text: string; finish: string; divided: number; meta: string; question: string; history: string | null; claim: string | null; pYes: number | null; pNo: number | null }[];
    const out = new Map<string, Answer>();
    for (const r of rows) {
      let a = out.get(r.prompt);
      if (!a) {
        const meta = JSON.parse(r.meta);
        a = { prompt: r.prompt, text: r.text, finish: r.finish, divided: !!r.divided, kind: meta.kind, truth: parseTruth(meta.truth), question: r.question, history: JSON.parse(r.history ?? '[]'), claims: [] };
        out.set(r.prompt, a);
      }
      if (r.claim !== null) a.claims.push({ claim: r.claim, pYes: r.pYes, pNo: r.pNo });
    }
    return out;
  } finally {
    db.close();
  }
}

const verdicts = (a: Answer) => a.claims.map((c) => checkStatement(a.truth, c.claim));
const base = (id: string) => id.slice(0, id.lastIndexOf('~fb'));

/** N_c and the harm rate recounted from the first answers and the turn-1 revisions (the truth provider's N_e: all). */
function recountTurn1(db: string, f: { first_round: number; turn_rounds: number[] }): { nc: number; harmRate: number | null } {
  const first = answers(db, f.first_round);
  let nc = 0;
  let harmed = 0;
  let revised = 0;
  for (const t of answers(db, f.turn_rounds[0]!).values()) {
    if (!t.divided) continue;
    const a = first.get(base(t.prompt))!;
    const v = verdicts(a);
    revised++;
    const tv = verdicts(t);
    if (tv.length > 0 && tv.every((x) => x === 'true')) nc++;
    const firstFalse = new Set(a.claims.filter((_, i) => v[i] === 'false').map((c) => norm(c.claim)));
    if (t.claims.some((c, i) => tv[i] === 'false' && !firstFalse.has(norm(c.claim)))) harmed++;
  }
  return { nc, harmRate: revised ? harmed / revised : null };
}

describe('rlaifv eval --policy --feedback', () => {
  test('detailed feedback from the truth: JSON shape, figures equal a recount from the store, a rerun generates nothing', () => {
    const db = path.join(tempDir('rlaifv-feedback-'), 'f.sqlite');
    const args = ['eval', '--policy', POLICY, '--feedback', 'detailed', '--limit', '20', '--db', db, '--json', '--quiet'];
    const r = JSON.parse(cli(args));
    const f = r.feedback;
    for (const k of ['level', 'provider', 'n_e', 'n_c', 'correction_rate', 'harm_rate', 'correct_after_turn', 'at', 'adr', 'atr', 'rr', 'by_kind']) expect(f).toHaveProperty(k);
    expect([f.level, f.provider, f.noise, f.max_turns, f.prompts]).toEqual(['detailed', 'truth', 0, 3, 20]);
    expect(f.correct_after_turn).toHaveLength(3);

    // The first answers: greedy, one per prompt; wrong = a claim the checker judges false. The truth's N_e is all of them.
    const first = answers(db, f.first_round);
    expect(first.size).toBe(20);
    const wrong = [...first.values()].filter((a) => a.divided && verdicts(a).includes('false'));
    expect(f.n_wrong).toBe(wrong.length);
    expect(f.n_e).toBe(wrong.length);
    expect(f.n_wrong).toBeGreaterThan(0);

    // Turn 1: each wrong answer's conversation in FIRE's layout, its teacher turn correcting each claim not true.
    const turn1 = answers(db, f.turn_rounds[0]);
    expect(turn1.size).toBe(wrong.length);
    for (const t of turn1.values()) {
      const a = first.get(base(t.prompt))!;
      expect(t.history).toEqual([{ role: 'user', content: a.question }, { role: 'assistant', content: a.text }]);
      const [score, feedback, ask] = t.question.split('\n');
      const v = verdicts(a);
      const notTrue = new Set(a.claims.filter((_, i) => v[i] !== 'true').map((c) => norm(c.claim)));
      expect(score).toBe(`Score: ${Math.round((10 * v.filter((x) => x === 'true').length) / v.length)}`);
      expect(feedback!.startsWith('Feedback: ')).toBe(true);
      expect(feedback!.slice('Feedback: '.length).split(/(?<=\.) /)).toHaveLength(notTrue.size);
      for (const c of a.claims.filter((_, i) => v[i] === 'true')) expect(feedback).not.toContain(c.claim.replace(/\.$/, ''));
      expect(ask).toBe('Based on the feedback, answer the question again:');
    }
    const re = recountTurn1(db, f);
    expect(f.n_c).toBe(re.nc);
    expect(f.correction_rate).toBe(re.nc / f.n_e);
    expect(f.harm_rate).toBe(re.harmRate);
    expect(f.correct_after_turn[0]).toBe(f.correction_rate);
    for (let k = 1; k < 3; k++) expect(f.correct_after_turn[k]).toBeGreaterThanOrEqual(f.correct_after_turn[k - 1]);
    expect(f.rr).toBe(f.correct_after_turn[2]);
    expect(f.at).toBeGreaterThanOrEqual(1);
    expect(f.at).toBeLessThanOrEqual(4);
    expect(Object.values(f.by_kind as Record<string, { n_e: number }>).reduce((s, k) => s + k.n_e, 0)).toBe(f.n_e);

    // Cut: a turn's prompt the policy could not answer (no candidate); answers stopped by length are judged as they are.
    {
      const d = openDb(db, { readonly: true });
      try {
        const n = (sql: string) => f.turn_rounds.reduce((s: number, r: number) => s + (d.prepare(sql).get(r) as { n: number }).n, 0);
        expect(f.cut).toBe(n('SELECT count(*) AS n FROM round_prompts rp WHERE rp.round_id = ? AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.round_id = rp.round_id AND c.prompt_id = rp.prompt_id)'));
        expect(f.stopped_by_length).toBe(n("SELECT count(*) AS n FROM candidates WHERE round_id = ? AND finish_reason = 'length'"));
      } finally {
        d.close();
      }
    }

    // A rerun finds every round stored.
    const count = () => {
      const d = openDb(db, { readonly: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM candidates').get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    const before = count();
    expect(JSON.parse(cli(args))).toEqual(r);
    expect(count()).toBe(before);
  });

  test('simple feedback from the truth on 40 prompts: some answers corrected, some harmed, as recounted', () => {
    const db = path.join(tempDir('rlaifv-feedback-'), 's.sqlite');
    const f = JSON.parse(cli(['eval', '--policy', POLICY, '--feedback', 'simple', '--max-turns', '1', '--limit', '40', '--db', db, '--json', '--quiet'])).feedback;
    const re = recountTurn1(db, f);
    expect(re.nc).toBeGreaterThan(0);
    expect(re.harmRate).toBeGreaterThan(0);
    expect([f.n_c, f.harm_rate, f.correct_after_turn[0], f.rr]).toEqual([re.nc, re.harmRate, re.nc / f.n_e, re.nc / f.n_e]);
    expect(f.at).toBeCloseTo((re.nc * 1 + (f.n_e - re.nc) * 2) / f.n_e, 12);
    // Without --json: the same figures as a table, one row for all and one per kind.
    const text = cli(['eval', '--policy', POLICY, '--feedback', 'simple', '--max-turns', '1', '--limit', '40', '--db', db, '--quiet']);
    const all = text.split('\n').find((l) => l.trim().startsWith('all '))!.trim().split(/\s+/);
    expect(all.slice(1, 6)).toEqual([String(f.n_wrong), String(f.n_e), String(f.n_c), `${(100 * f.correction_rate).toFixed(1)}%`, `${(100 * f.harm_rate).toFixed(1)}%`]);
    for (const k of Object.keys(f.by_kind)) expect(text).toMatch(new RegExp(`^  ${k} `, 'm'));
  });

  test("simple feedback from the labeler with noise: N_e by the labeler's rule, one bit said", () => {
    const db = path.join(tempDir('rlaifv-feedback-'), 'l.sqlite');
    const f = JSON.parse(cli(['eval', '--policy', POLICY, '--feedback', 'simple', '--provider', 'labeler', '--feedback-noise', '0.2', '--max-turns', '1', '--limit', '20', '--db', db, '--json', '--quiet'])).feedback;
    expect([f.level, f.provider, f.noise, f.max_turns]).toEqual(['simple', 'labeler', 0.2, 1]);
    expect(f.correct_after_turn).toHaveLength(1);
    const first = answers(db, f.first_round);
    let ne = 0;
    let wrong = 0;
    for (const a of first.values()) {
      const v = verdicts(a);
      if (!a.divided || !v.includes('false')) continue;
      wrong++;
      // Rejected under the scripts' accept rule: p(yes) not above p(no).
      const rejected = a.claims.flatMap((c, i) => (c.pYes !== null && c.pNo !== null && !(c.pYes > c.pNo) ? [i] : []));
      if (rejected.length > 0 && rejected.every((i) => v[i] === 'false')) ne++;
    }
    expect(f.n_wrong).toBe(wrong);
    expect(f.n_e).toBe(ne);
    for (const t of answers(db, f.turn_rounds[0]).values()) expect(t.question).toMatch(/^Feedback: Your answer (has errors|is correct)\.\nBased on the feedback, answer the question again:$/);
  });

  test.each([
    [['--feedback', 'bogus'], /--feedback/],
    [['--feedback', 'simple', '--feedback-noise', '2'], /--feedback-noise must be a probability from 0 to 1/],
    [['--feedback', 'simple', '--provider', 'oracle'], /--provider/],
    [['--feedback', 'simple', '--max-turns', '0'], /--max-turns must be a whole number/],
    [['--provider', 'truth'], /--provider needs --feedback/],
    [['--feedback-noise', '0.1'], /--feedback-noise needs --feedback/],
    [['--feedback', 'simple', '--samples', '3'], /--samples does not go with --feedback/],
  ])('bad flags %j: exit 2 naming the flag', (flags, message) => {
    const r = runCliSync(['eval', '--policy', POLICY, ...flags, '--db', path.join(tempDir(), 'x.sqlite')]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  test('--feedback without --policy: exit 2', () => {
    const r = runCliSync(['eval', '--feedback', 'simple', '--db', path.join(tempDir(), 'x.sqlite')]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--feedback needs --policy/);
  });
});
