// The policy's hallucination figures on hand-built answers, every figure worked out by hand; then on a real stored
// evaluation, recounted independently with the checker's own split of the raw answer texts.
import { describe, expect, test } from 'vitest';
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { answerCoverage, mentionedObjects, policyFigures, type EvalPrompt } from '../../src/eval/index.js';
import { parseStatement, checkAnswer } from '../../src/shapes/index.js';
import { loadConfig } from '../../src/config/load.js';
import { evaluatePolicy } from '../../src/eval/runs/policy-eval.js';
import { loadEvalRound } from '../../src/eval/load.js';
import { openDb } from '../../src/store/index.js';
import { answer, BS, GT, HAPPY, RC, RC_POS, TRUTH, TWO, YS } from './fixture.js';
import { POLICY, TEST, tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the file's in-process evaluations (each made its own, its workers loading the models again).
const pool = filePool();

const prompt = (id: string, kind: string | null, answers: EvalPrompt['answers']): EvalPrompt => ({ id, question: 'Q', kind, truth: TRUTH, paired: false, answers });

describe('policyFigures', () => {
  // p1 (detailed): a1 [RC, BS] 2 true; a2 [RC, GT] 1 true 1 false; a3 = a1's text again (a repeated sample).
  // p2 (counting): b1 [TWO] 1 true; b2 [YS, HAPPY] 1 false, 1 unknown (its sentence "The circle is happy." unjudgeable);
  //   b3 never divided.
  const p1 = prompt('p1', 'detailed', [
    answer('a1', [RC, BS], { words: 8 }),
    answer('a2', [RC, GT], { words: 9 }),
    answer('a3', [RC, BS], { words: 8 }),
  ]);
  const p2 = prompt('p2', 'counting', [answer('b1', [TWO], { words: 4 }), answer('b2', [YS, HAPPY], { words: 9 }), answer('b3', [], { divided: false })]);
  const f = policyFigures([p1, p2]);

  test('claims: false ÷ judged, answers with a false claim ÷ answers, true claims per answer', () => {
    // judged: a1 2 + a2 2 + a3 2 + b1 1 + b2 1 (YS; HAPPY unknown) = 8; false: GT, YS = 2.
    expect(f).toMatchObject({ answers: 5, undivided: 1, claims: 9, judged_claims: 8, false_claims: 2, true_claims: 6, unknown_claims: 1 });
    expect(f.false_claim_rate).toBeCloseTo(2 / 8, 12);
    expect(f.response_hallucination_rate).toBeCloseTo(2 / 5, 12);
    expect(f.true_claims_per_answer).toBeCloseTo(6 / 5, 12);
  });

  test('sentences the checker can judge, distinct answers per prompt, words', () => {
    // Sentences: a1 2, a2 2, a3 2, b1 1, b2 2 = 9; b2's "The circle is happy." is the one the checker cannot judge.
    expect(f.judgeable_share).toBeCloseTo(8 / 9, 12);
    // p1: a1 and a3 say the same (2 distinct of 3); p2: b1, b2 (the undivided b3 left out).
    expect(f.distinct_answers_per_prompt).toBeCloseTo((2 + 2) / 2, 12);
    expect(f.mean_words).toBeCloseTo((8 + 9 + 8 + 4 + 9) / 5, 12);
  });

  test('object coverage: detailed descriptions only, objects a true claim singles out', () => {
    // a1, a3: the red circle and the blue square (2 of 2); a2: the red circle only (the green triangle is false).
    expect(f.detailed_answers).toBe(3);
    expect(f.object_coverage).toBeCloseTo((1 + 0.5 + 1) / 3, 12);
    expect(policyFigures([p2]).object_coverage).toBeNull();
  });

  test('what a claim singles out', () => {
    const m = (s: string) => mentionedObjects(TRUTH, parseStatement(s)!).map((o) => `${o.color} ${o.shape}`);
    expect(m('There is a red circle.')).toEqual(['red circle']);
    expect(m('There are two shapes.')).toEqual([]); // true, but it describes no object
    expect(m('There is a shape.')).toEqual([]);
    expect(m('There is one circle.')).toEqual(['red circle']);
    expect(m('The red circle is in the top left.')).toEqual(['red circle']);
    expect(m('The red circle is in the center.')).toEqual([]); // false
    expect(m('The red circle is not in the center.')).toEqual([]); // true, but negated: it places the circle nowhere
    expect(m('There is no green triangle.')).toEqual([]);
    expect(m('There is a red circle and a blue square.')).toEqual(['red circle', 'blue square']);
    expect(answerCoverage(TRUTH, answer('x', [RC_POS]))).toBe(0);
    expect(answerCoverage({ objects: [] }, answer('x', [RC]))).toBeNull();
  });

  test('a collapsed policy: every sample the same answer gives one distinct answer per prompt', () => {
    const same = prompt('p', 'detailed', [0, 1, 2, 3].map((i) => answer(`a${i}`, [RC, BS], { text: 'There is a red circle. There is a blue square.' })));
    expect(policyFigures([same]).distinct_answers_per_prompt).toBe(1);
  });
});

describe('a stored evaluation of the shipped policy on held-out prompts', () => {
  test('figures match an independent recount of the raw answers by the checker', async () => {
    const dir = tempDir('rlaifv-policy-eval-');
    const { config } = loadConfig(undefined, { db: path.join(dir, 'e.sqlite'), workers: 2 });
    const ev = await evaluatePolicy(config, {
      policy: { type: 'local', model: POLICY },
      prompts: path.join(TEST, 'prompts.jsonl'),
      limit: 30,
      samples: 4,
      temperature: 0.7,
      greedy: true,
      pool: pool(),
    });
    // Asked again, the stored evaluation is returned: nothing is generated twice.
    const again = await evaluatePolicy(config, { policy: { type: 'local', model: POLICY }, prompts: path.join(TEST, 'prompts.jsonl'), limit: 30, samples: 4, temperature: 0.7, greedy: true, pool: pool() });
    expect(again).toEqual(ev);
    const db = openDb(config.db, { readonly: true });
    try {
      for (const [roundId, figures, n] of [[ev.sampled_round, ev.sampled, 4], [ev.greedy_round!, ev.greedy!, 1]] as const) {
        const round = loadEvalRound(db, roundId);
        expect(figures.answers).toBe(30 * n);
        // The checker's own sentence split of each raw answer (independent of the divider): same false and true counts.
        let falses = 0;
        let trues = 0;
        for (const p of round.prompts) {
          for (const a of p.answers) {
            for (const s of checkAnswer(p.truth, a.text)) {
              if (s.verdict === 'false') falses++;
              if (s.verdict === 'true') trues++;
            }
          }
        }
        expect(figures.false_claims).toBe(falses);
        expect(figures.true_claims).toBe(trues);
        const rows = db.prepare('SELECT purpose FROM rounds WHERE id = ?').get(roundId) as { purpose: string };
        expect(rows.purpose).toBe('eval');
      }
      expect(ev.greedy!.distinct_answers_per_prompt).toBe(1);
      // Evaluation rounds never pair; they label and score, for the truth-free figures.
      expect(db.prepare('SELECT COUNT(*) AS n FROM pairs').get()).toEqual({ n: 0 });
      expect(ev.has_truth).toBe(true);
      for (const [roundId, free, truth] of [[ev.sampled_round, ev.truth_free, ev.sampled], [ev.greedy_round!, ev.greedy_truth_free!, ev.greedy!]] as const) {
        // Recounted from the labels themselves: a claim is rejected when its label's p(no) exceeds p(yes) (accept rule scripts).
        const r = db.prepare(
          `SELECT count(*) AS claims, sum(l.p_no > l.p_yes) AS rejected, count(DISTINCT c.candidate_id) AS answers
           FROM claims c JOIN candidates k ON k.id = c.candidate_id JOIN labels l ON l.question_id = c.question_id
           WHERE k.round_id = ?`,
        ).get(roundId) as { claims: number; rejected: number; answers: number };
        expect(free.judged_claims).toBe(r.claims);
        expect(free.rejected_claims).toBe(r.rejected);
        expect(free.rejected_claim_rate).toBeCloseTo(r.rejected / r.claims, 12);
        expect(free.answers).toBe(truth.answers);
        expect(free.distinct_answers_per_prompt).toBe(truth.distinct_answers_per_prompt);
        expect(free.mean_words).toBe(truth.mean_words);
        // The labeler is a good teacher here: its estimate is within 3 points of the truth's on these 30 prompts.
        expect(Math.abs(free.rejected_claim_rate! - truth.false_claim_rate!)).toBeLessThan(0.03);
      }
    } finally {
      db.close();
    }
  });

  test('prompts without truth: the truth-free figures, the truth\'s null; an evaluation stored before the truth-free figures is finished by labeling', async () => {
    const dir = tempDir('rlaifv-policy-eval-');
    // The held-out prompts stripped of meta.truth, as a user's own data is.
    const stripped = path.join(dir, 'no-truth.jsonl');
    const lines = readFileSync(path.join(TEST, 'prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 20);
    writeFileSync(
      stripped,
      lines.map((l) => {
        const p = JSON.parse(l);
        return JSON.stringify({ ...p, image: path.join(TEST, p.image), meta: { kind: p.meta.kind } });
      }).join('\n') + '\n',
    );
    const { config } = loadConfig(undefined, { db: path.join(dir, 'e.sqlite'), workers: 2 });
    const o = { policy: { type: 'local' as const, model: POLICY }, prompts: stripped, limit: null, samples: 3, temperature: 0.7, greedy: false, pool: pool() };
    const ev = await evaluatePolicy(config, o);
    expect(ev.has_truth).toBe(false);
    expect(ev.sampled.false_claim_rate).toBeNull();
    expect(ev.sampled.true_claims_per_answer).toBeNull();
    expect(ev.truth_free.answers).toBe(60);
    expect(ev.truth_free.rejected_claim_rate).toBeGreaterThan(0);
    expect(ev.truth_free.accepted_claims_per_answer).toBeGreaterThan(0);

    // An evaluation as stored before (figures without truth_free, its round never labeled): asked again, it is
    // finished by labeling and scoring the stored round, not generated again.
    const db = openDb(config.db);
    const before = (db.prepare('SELECT count(*) AS n FROM candidates').get() as { n: number }).n;
    db.prepare('DELETE FROM scores').run();
    db.prepare('UPDATE policy_evals SET figures_json = ? WHERE id = ?').run(JSON.stringify({ sampled: ev.sampled, greedy: null }), ev.id);
    db.close();
    const again = await evaluatePolicy(config, o);
    expect(again.truth_free).toEqual(ev.truth_free);
    // rlaifv eval --round on that evaluation round gives its truth-free figures rather than refusing it.
    const cli = runCliSync(['eval', '--round', String(ev.sampled_round), '--db', config.db, '--json']);
    expect(cli.status, cli.stderr).toBe(0);
    const out = JSON.parse(cli.stdout);
    expect(out).toEqual({ round: ev.sampled_round, purpose: 'eval', truth_free: ev.truth_free });
    expect(again.sampled_round).toBe(ev.sampled_round);
    const db2 = openDb(config.db, { readonly: true });
    expect((db2.prepare('SELECT count(*) AS n FROM candidates').get() as { n: number }).n).toBe(before);
    db2.close();
  });
});
