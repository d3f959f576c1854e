// ConvBench's multi-turn ablation with the real tiny policy on the multi-turn split, in a real store: the final turn
// asked with no history, with the true earlier turns, and with the policy's own earlier answers (chains it answered
// turn by turn); the carried errors recounted from the store; a rerun generates nothing; the CLI's JSON.
import { describe, expect, test } from 'vitest';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { multiturnAblation } from '../../src/eval/runs/ablation.js';
import { openDb } from '../../src/store/index.js';
import { checkStatement } from '../../src/shapes/index.js';
import { parseTruth } from '../../src/shapes/truth.js';
import { POLICY, ROOT, tempDir } from '../helpers/paths.js';
import { runCliSync } from '../helpers/run-cli.js';
import { filePool } from '../helpers/file-pool.js';

const MULTITURN = path.join(ROOT, 'data', 'shapes', 'multiturn', 'prompts.jsonl');
// One worker pool for the file's four in-process ablations (each made its own, its workers loading the models again).
const pool = filePool();

describe('the multi-turn ablation', () => {
  test('three conditions; own-history chains are the policy\'s own answers; carried errors recounted; a rerun generates nothing', async () => {
    const dir = tempDir('rlaifv-ablation-');
    const { config } = loadConfig(undefined, { db: path.join(dir, 'a.sqlite'), workers: 2 });
    const o = { policy: { type: 'local' as const, model: POLICY }, prompts: MULTITURN, limit: 12, samples: 2, temperature: 0.7, pool: pool() };
    const a = await multiturnAblation(config, o);
    expect(a.conversations).toBe(12);
    for (const c of ['no_history', 'true_history', 'own_history'] as const) {
      expect(a[c].answers).toBe(24);
      expect(a[c].false_claim_rate).toBeTypeOf('number');
    }
    expect(new Set([a.no_history.round, a.true_history.round, a.own_history.round]).size).toBe(3);

    const db = openDb(config.db, { readonly: true });
    try {
      const prompts = (round: number) =>
        db.prepare('SELECT p.id, p.question, p.history_json, p.meta_json FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id WHERE rp.round_id = ?').all(round) as {
          id: string; question: string; history_json: string | null; meta_json: string;
        }[];
      const answer = (promptId: string) => (db.prepare('SELECT text FROM candidates WHERE prompt_id = ? AND sample_index = 0').get(promptId) as { text: string }).text;
      const claims = (promptId: string) =>
        (db.prepare('SELECT cl.claim FROM claims cl JOIN candidates c ON c.id = cl.candidate_id WHERE c.prompt_id = ? ORDER BY cl.idx').all(promptId) as { claim: string }[]).map((r) => r.claim);
      const truthOf = new Map(prompts(a.true_history.round).map((p) => [p.id, p]));
      // No history: the same final questions, alone.
      for (const p of prompts(a.no_history.round)) {
        expect(p.history_json ?? '[]').toBe('[]');
        expect(p.question).toBe(truthOf.get(p.id.replace(/~none$/, ''))!.question);
      }
      // Own history: the true conversation's questions with the policy's own answers, each stored as an answer of the
      // chain's earlier turn.
      let repeated = 0;
      let finalFalse = 0;
      for (const p of prompts(a.own_history.round)) {
        const [base, chain] = p.id.split('~') as [string, string];
        const orig = truthOf.get(base)!;
        const trueTurns = JSON.parse(orig.history_json!) as { role: string; content: string }[];
        const own = JSON.parse(p.history_json!) as { role: string; content: string }[];
        expect(own.map((t) => t.role)).toEqual(trueTurns.map((t) => t.role));
        expect(own.filter((t) => t.role === 'user')).toEqual(trueTurns.filter((t) => t.role === 'user'));
        const earlierIds = own.filter((t) => t.role === 'user').map((_, j) => `${base}~${chain}~t${j + 1}`);
        expect(own.filter((t) => t.role === 'assistant').map((t) => t.content)).toEqual(earlierIds.map(answer));
        const truth = parseTruth(JSON.parse(orig.meta_json).truth);
        const earlierFalse = new Set(earlierIds.flatMap(claims).filter((c) => checkStatement(truth, c) === 'false').map((c) => c.trim().toLowerCase().replace(/\.$/, '')));
        for (const c of claims(p.id)) {
          if (checkStatement(truth, c) !== 'false') continue;
          finalFalse++;
          if (earlierFalse.has(c.trim().toLowerCase().replace(/\.$/, ''))) repeated++;
        }
      }
      expect(a.final_false_claims).toBe(finalFalse);
      expect(a.repeated_false_claims).toBe(repeated);
      expect(a.corrected_false_claims).toBeLessThanOrEqual(a.revisited_false_claims);
      expect(a.revisited_false_claims).toBeLessThanOrEqual(a.earlier_false_claims);
    } finally {
      db.close();
    }

    const count = () => {
      const d = openDb(config.db, { readonly: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM candidates').get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    const before = count();
    expect(await multiturnAblation(config, o)).toEqual(a);
    expect(count()).toBe(before);
  });

  test('a second policy in the same store (a loop\'s next checkpoint) gets its own chains, none refused', async () => {
    // Own-history prompts carry the policy's own answers, so another policy's chain prompts have other content: they
    // need their own ids, or the store refuses them as a reused id and the chains lose their turns.
    const dir = tempDir('rlaifv-ablation-two-');
    const { config } = loadConfig(undefined, { db: path.join(dir, 'a.sqlite'), workers: 2 });
    const o = { prompts: MULTITURN, limit: 6, samples: 1, temperature: 0.7, pool: pool() };
    const first = await multiturnAblation(config, { ...o, policy: { type: 'local' as const, model: POLICY } });
    const second = await multiturnAblation(config, { ...o, policy: { type: 'local' as const, model: path.join(ROOT, 'models', 'shapes-policy-fire') } });
    for (const a of [first, second]) {
      for (const c of ['no_history', 'true_history', 'own_history'] as const) expect(a[c].answers).toBe(6);
      expect(a.incomplete_chains).toBe(0);
    }
    const db = openDb(config.db, { readonly: true });
    try {
      expect(db.prepare('SELECT stage, item, reason FROM failures').all()).toEqual([]);
      // Every own-history prompt of the second policy holds that policy's own answers, none empty.
      const own = db.prepare('SELECT p.history_json FROM round_prompts rp JOIN prompts p ON p.id = rp.prompt_id WHERE rp.round_id = ?').all(second.own_history.round) as { history_json: string }[];
      expect(own).toHaveLength(6);
      for (const p of own) for (const t of JSON.parse(p.history_json) as { content: string }[]) expect(t.content).not.toBe('');
    } finally {
      db.close();
    }
  });

  test('rlaifv eval --policy on multi-turn prompts: multiturn_ablation in the JSON', () => {
    const dir = tempDir('rlaifv-ablation-cli-');
    const cli = runCliSync(['eval', '--policy', POLICY, '--prompts', MULTITURN, '--limit', '6', '--samples', '2', '--no-greedy', '--db', path.join(dir, 'c.sqlite'), '--json']);
    expect(cli.status, cli.stderr).toBe(0);
    const r = JSON.parse(cli.stdout);
    for (const k of ['no_history', 'true_history', 'own_history']) expect(r.multiturn_ablation[k].answers).toBe(12);
    for (const k of ['repeated_error_share', 'corrected_share', 'conversations', 'samples']) expect(r.multiturn_ablation).toHaveProperty(k);
    expect(r.truth_free.answers).toBe(12);
  });
});
