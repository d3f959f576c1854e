// `rlaifv eval` on real rounds: the tiny models, a real SQLite file, the built CLI code in a child process.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { ingestPrompts, selectRound } from '../../src/pipeline/round.js';
import { openDb, roundStats, type Db, type RoundRow } from '../../src/store/index.js';
import { checkStatement, parseTruth } from '../../src/shapes/index.js';
import { EvalRefusal, evaluateRound, loadEvalRound, resolveEvalRound, type EvalReport } from '../../src/eval/index.js';
import { runDemoRound } from '../helpers/round.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';

// The built command (it loads only the eval command's module).
const rlaifv = (...args: string[]) => runCliSync(args);

describe('rlaifv eval on a real round', () => {
  let db: Db;
  let file: string;
  let round: RoundRow;
  let rejpRound: RoundRow;
  let e: EvalReport;
  beforeAll(async () => {
    ({ db, round, file } = await runDemoRound({ limit: 8, seed: 3 }));
    // A second round in the same file ranked by REJ-P (diff 0.25 so that it has pairs), with every pair kept.
    const second = await runDemoRound({
      limit: 6,
      seed: 4,
      dbFile: file,
      edit: (c) => {
        c.score.method = 'rejp';
        c.pair.diff = 0.25;
        c.pair.max_pairs = 'all';
      },
    });
    rejpRound = second.round;
    second.db.close();
    e = evaluateRound(loadEvalRound(db, round.id));
  });
  afterAll(() => db.close());

  test('the recomputed REJ-C pairs and scores are the stored ones; counts match stats', () => {
    const s = roundStats(db, round.id);
    expect(s.pairs).toBeGreaterThan(0);
    expect(e.check).toEqual({ method: 'rejc', stored_pairs: s.pairs, computed_pairs: s.pairs, pairs_match: true, score_mismatches: 0 });
    expect(e.pairs_rejc).toBe(s.pairs);
    expect(e.pairs_after_balance_rejc).toBe(s.pairs_after_balance);
    expect(e.prompts).toBe(8);
    const kinds = new Set(loadEvalRound(db, round.id).prompts.map((p) => p.kind));
    for (const k of kinds) expect(['detailed', 'listing', 'attribute', 'position', 'counting']).toContain(k);
    expect(e.prompts_paired).toBe(8);
    expect(e.divide.answers).toBe(s.candidates);
    expect(e.divide.claims).toBe(s.claims);
    expect(e.label.claims).toBe(s.claims);
  });

  test('counts add up and shares are shares', () => {
    const l = e.label;
    expect(l.tp + l.fp + l.fn + l.tn).toBe(l.n);
    expect(l.n + l.unlabeled + l.unknown_truth).toBe(l.claims);
    expect(e.divide.claims_false + e.divide.claims_true + e.divide.claims_unknown).toBe(e.divide.claims);
    for (const x of [e.labeler_accuracy, e.labeler_precision, e.labeler_recall, e.pair_accuracy_rejc, e.inverted_rejc, e.divide.judgeable_sentence_share]) {
      expect(x).not.toBeNull();
      expect(x!).toBeGreaterThanOrEqual(0);
      expect(x!).toBeLessThanOrEqual(1);
    }
    expect(e.pairs.map((r) => r.name)).toEqual(['labeler REJ-C', 'labeler REJ-P', 'oracle REJ-C', 'oracle REJ-P']);
    for (const r of e.pairs) {
      for (const q of [r.before, r.after!]) expect(q.accurate + q.inverted + q.equal).toBe(q.pairs);
      expect(r.after!.pairs).toBeLessThanOrEqual(r.before.pairs);
      expect(r.before.pairs + Object.values(r.dropped).reduce((a, b) => a + b, 0)).toBe(r.considered);
    }
    const x = e.errors.rejc;
    expect(x.label + x.divide + x.rule).toBe(x.not_accurate);
    expect(x.not_accurate).toBe(e.pairs_after_balance_rejc - e.pairs[0]!.after!.accurate);
  });

  test('the oracle never inverts a REJ-C pair: the rules divider keeps every claim\'s truth in its question', () => {
    expect(e.divide.question_truth_mismatch).toBe(0);
    expect(e.oracle_inverted_rejc).toBe(0);
    expect(e.pairs[2]!.before.pairs).toBeGreaterThan(0);
  });

  test('pair accuracy and labeler accuracy equal a direct count over the store with the truth checker', () => {
    const truthOf = new Map<string, ReturnType<typeof parseTruth>>();
    for (const p of db.prepare('SELECT id, meta_json FROM prompts').all() as { id: string; meta_json: string }[]) {
      truthOf.set(p.id, parseTruth(JSON.parse(p.meta_json).truth));
    }
    const claimsOf = db.prepare('SELECT claim FROM claims WHERE candidate_id = ?');
    const falseIn = (prompt: string, cand: string) =>
      (claimsOf.all(cand) as { claim: string }[]).filter((c) => checkStatement(truthOf.get(prompt)!, c.claim) === 'false').length;
    const kept = db
      .prepare('SELECT prompt_id, chosen_id, rejected_id FROM pairs WHERE round_id = ? AND method = ? AND balance_kept = 1')
      .all(round.id, 'rejc') as { prompt_id: string; chosen_id: string; rejected_id: string }[];
    let accurate = 0;
    let inverted = 0;
    for (const p of kept) {
      const c = falseIn(p.prompt_id, p.chosen_id);
      const r = falseIn(p.prompt_id, p.rejected_id);
      if (c < r) accurate++;
      if (c > r) inverted++;
    }
    expect(e.pair_accuracy_rejc).toBe(accurate / kept.length);
    expect(e.inverted_rejc).toBe(inverted / kept.length);

    const labeled = db
      .prepare(
        `SELECT ca.prompt_id, cl.claim, l.p_yes, l.p_no FROM claims cl JOIN candidates ca ON ca.id = cl.candidate_id
         JOIN labels l ON l.question_id = cl.question_id AND l.labeler = ? WHERE ca.round_id = ? AND l.p_yes IS NOT NULL`,
      )
      .all(round.labeler_model, round.id) as { prompt_id: string; claim: string; p_yes: number; p_no: number }[];
    let right = 0;
    let known = 0;
    for (const c of labeled) {
      const v = checkStatement(truthOf.get(c.prompt_id)!, c.claim);
      if (v === 'unknown') continue;
      known++;
      if (!(c.p_yes > c.p_no) === (v === 'false')) right++;
    }
    expect(e.label.n).toBe(known);
    expect(e.labeler_accuracy).toBe(right / known);
  });

  test('a REJ-P round: the recomputed REJ-P pairs are the stored ones', () => {
    const r = evaluateRound(loadEvalRound(db, rejpRound.id));
    const s = roundStats(db, rejpRound.id);
    expect(r.score_method).toBe('rejp');
    expect(r.pair_settings).toEqual({ strategy: 'rlaifv', diff: 0.25, max_pairs: 'all', length_balance: true });
    expect(s.pairs).toBeGreaterThan(0);
    expect(r.check).toMatchObject({ method: 'rejp', stored_pairs: s.pairs, pairs_match: true, score_mismatches: 0 });
    expect(r.pairs_rejp).toBe(s.pairs);
    expect(r.pairs_after_balance_rejp).toBe(s.pairs_after_balance);
  });

  test('the CLI: --json is the report, the table names the rows, --round picks a round', () => {
    const json = rlaifv('eval', '--db', file, '--round', String(round.id), '--json');
    expect(json.status, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    for (const k of ['labeler_accuracy', 'pair_accuracy_rejc', 'pair_accuracy_rejp', 'inverted_rejc', 'inverted_rejp', 'pairs_rejc', 'pairs_rejp']) {
      expect(out).toHaveProperty(k);
    }
    const { policy, ...report } = out;
    expect(report).toEqual(JSON.parse(JSON.stringify(e)));
    // No held-out evaluation of this policy is stored: its figures are the round's own answers'.
    expect(policy).toMatchObject({ held_out: false, sampled_round: round.id, greedy: null, answers: expect.any(Number) });
    expect(policy.false_claim_rate).toBeGreaterThan(0);
    const latest = rlaifv('eval', '--db', file, '--json');
    expect(JSON.parse(latest.stdout).round).toBe(rejpRound.id);
    const text = rlaifv('eval', '--db', file, '--round', String(round.id));
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^round ${round.id} \\(done\\): 8 prompts`));
    for (const row of ['labeler REJ-C, all', 'labeler REJ-C, balanced', 'labeler REJ-P, all', 'oracle REJ-C, all', 'oracle REJ-P, balanced']) {
      expect(text.stdout).toContain(row);
    }
  });

  test('no such round: a clear message and exit code 2', () => {
    expect(() => resolveEvalRound(db, 99, 'x.sqlite')).toThrow(EvalRefusal);
    const r = rlaifv('eval', '--db', file, '--round', '99');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`rlaifv: No round 99 in ${file}.\n`);
    const none = rlaifv('eval', '--db', path.join(tempDir(), 'none.sqlite'));
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/does not exist/);
    const next = rlaifv('eval', '--db', file, '--round', 'next');
    expect(next.status).not.toBe(0);
    expect(next.stderr).toMatch(/--round must be a round number or "latest"/);
  });
});

describe('rlaifv eval refuses a round without truth', () => {
  test('prompts without meta.truth: EvalRefusal naming a prompt, and exit code 2', async () => {
    const dir = tempDir();
    copyFileSync(path.join(DEV, 'images', 'dev-0000.png'), path.join(dir, 'a.png'));
    writeFileSync(
      path.join(dir, 'prompts.jsonl'),
      [
        JSON.stringify({ id: 'own-1', image: 'a.png', question: 'Describe the image.' }),
        JSON.stringify({ id: 'own-2', image: 'a.png', question: 'What shapes are in the image?', meta: { kind: 'listing' } }),
      ].join('\n') + '\n',
    );
    const file = path.join(dir, 'own.sqlite');
    const { config } = loadConfig(undefined, { db: file, prompts: path.join(dir, 'prompts.jsonl') });
    const db = openDb(file);
    const round = selectRound(db, config, 'next', { policy: 'p', labeler: 'l', divider: 'd' });
    expect((await ingestPrompts(db, round, config)).prompts).toBe(2);
    expect(() => loadEvalRound(db, round.id)).toThrow(EvalRefusal);
    expect(() => loadEvalRound(db, round.id)).toThrow(
      /^Round 1: 2 of 2 prompts have no truth \(meta\.truth\), e\.g\. own-1 \(.*prompts\.jsonl:1\); rlaifv eval .* only evaluates shapes-world rounds\.$/,
    );
    db.close();
    const r = rlaifv('eval', '--db', file);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^rlaifv: Round 1: 2 of 2 prompts have no truth/);
  });
});
