// Reference log-probs in the trainer formats (export/pull --reference-logprobs) on real rounds: TRL, OpenRLHF and
// LLaMA-Factory rows carry each side's sum as ref_chosen_logps / ref_rejected_logps, RLAIF-V rows RLAIF-V's six
// names; Parquet and a round made without them refuse with a message that says what to do.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerLogprobs, type Db, type RoundRow } from '../../src/store/index.js';
import { exportPairs } from '../../src/export/export.js';
import { pull } from '../../src/export/pull.js';
import { runDemoRound } from '../helpers/round.js';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';

// One worker pool for the file's two rounds (a pool each before: about 1.3 s of CPU a pool, docs/testing.md).
const pool = filePool();

let db: Db;
let file: string;
let round: RoundRow;
let plain: { db: Db; round: RoundRow };
beforeAll(async () => {
  ({ db, round, file } = await runDemoRound({ limit: 8, edit: (c) => (c.pair.reference_logprobs = true), pool: pool() }));
  const p = await runDemoRound({ limit: 4, pool: pool() });
  plain = { db: p.db, round: p.round };
});
afterAll(() => {
  db?.close();
  plain?.db.close();
});

const rows = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const pairSides = (id: string) => db.prepare('SELECT chosen_id, rejected_id FROM pairs WHERE id = ?').get(id) as { chosen_id: string; rejected_id: string };

describe('export --reference-logprobs', () => {
  test('rlaifv rows carry RLAIF-V\'s names: sum, mean and per-token of win (chosen) and rej (rejected)', async () => {
    const out = path.join(tempDir(), 'r.jsonl');
    await exportPairs(db, { round: round.id, format: 'rlaifv', out, referenceLogprobs: true });
    const got = rows(out);
    expect(got.length).toBeGreaterThan(3);
    for (const r of got) {
      const sides = pairSides(r.idx as string);
      const lp = answerLogprobs(db, round.policy_model, [sides.chosen_id, sides.rejected_id]);
      for (const [name, id] of [['win', sides.chosen_id], ['rej', sides.rejected_id]] as const) {
        const s = lp.get(id)!;
        expect(r[`ref_${name}_logp`]).toBe(s.sum);
        expect(r[`ref_${name}_avg_logp`]).toBeCloseTo(s.sum / s.tokens, 12);
        expect(r[`ref_${name}_per_token_logp`]).toEqual(s.per_token);
      }
    }
  });

  test('trl, openrlhf and llamafactory rows carry ref_chosen_logps / ref_rejected_logps; a pull delivers them', async () => {
    const dir = tempDir();
    const trl = path.join(dir, 't.jsonl');
    await exportPairs(db, { round: round.id, format: 'trl', out: trl, referenceLogprobs: true });
    const plainRows = path.join(dir, 'plain.jsonl');
    await exportPairs(db, { round: round.id, format: 'trl', out: plainRows });
    const withRef = rows(trl);
    const without = rows(plainRows);
    // The same rows and order; only the two columns are added.
    expect(withRef.map(({ ref_chosen_logps: _c, ref_rejected_logps: _r, ...rest }) => rest)).toEqual(without);
    await exportPairs(db, { round: round.id, format: 'rlaifv', out: path.join(dir, 'r.jsonl'), referenceLogprobs: true });
    const rl = rows(path.join(dir, 'r.jsonl'));
    withRef.forEach((r, i) => {
      expect(r.ref_chosen_logps).toBe(rl[i]!.ref_win_logp);
      expect(r.ref_rejected_logps).toBe(rl[i]!.ref_rej_logp);
      expect(r.ref_chosen_logps as number).toBeLessThan(0);
    });
    for (const format of ['openrlhf', 'llamafactory'] as const) {
      const out = path.join(dir, `${format}.json${format === 'openrlhf' ? 'l' : ''}`);
      await exportPairs(db, { round: round.id, format, out, referenceLogprobs: true });
      const got = format === 'openrlhf' ? rows(out) : (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[]);
      expect(got.map((r) => [r.ref_chosen_logps, r.ref_rejected_logps])).toEqual(withRef.map((r) => [r.ref_chosen_logps, r.ref_rejected_logps]));
    }
    const pulled = path.join(dir, 'pulled.jsonl');
    await pull(db, { consumer: 'ref', rounds: 'all', format: 'trl', out: pulled, referenceLogprobs: true }, file);
    expect(rows(pulled)).toEqual(withRef);
  });

  test('Parquet refuses; a round made without pair.reference_logprobs names the setting', async () => {
    await expect(exportPairs(db, { round: round.id, format: 'trl', out: path.join(tempDir(), 'x.parquet'), referenceLogprobs: true })).rejects.toThrow(
      /--reference-logprobs: reference log-probs are written to JSON Lines and JSON files only/,
    );
    const out = path.join(tempDir(), 'p.jsonl');
    await expect(exportPairs(plain.db, { round: plain.round.id, format: 'trl', out, referenceLogprobs: true })).rejects.toThrow(
      /has no reference log-probs for its chosen answer; run the round with pair.reference_logprobs: true/,
    );
  });
});
