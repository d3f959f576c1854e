// feedback.method "dpo-reward" on a real round: a checkpoint the real shapes trainer made scores the answers against
// its reference, each answer's reward stored with both log-probs, and the round's pairs ranked by it.
import { beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { ConfigError } from '../../src/config/load.js';
import { pull } from '../../src/export/pull.js';
import { LocalSequenceScorer } from '../../src/backends/local/index.js';
import { runDemoRound } from '../helpers/round.js';
import { POLICY, tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';
import { DPO, pythonSync } from '../helpers/python.js';

// One worker pool for both rounds and the scorers here (tests/helpers/file-pool.ts).
const pool = filePool();

let checkpoint: string;

beforeAll(async () => {
  // A few DPO steps on a small round's pairs: a checkpoint that differs from its reference. The 8-prompt round (was
  // 12) is the one export/cli, export/pull and report/report make, so a whole run copies it from the round cache; its
  // checkpoint still gives all 80 answers a non-zero reward (largest 1.23, 1.22 with 12), and 0 steps give none.
  const { db, file } = await runDemoRound({ limit: 8, pool: pool() });
  const pairs = path.join(tempDir(), 'pairs.jsonl');
  await pull(db, { consumer: 't', rounds: 'all', format: 'trl', out: pairs }, file);
  db.close();
  checkpoint = path.join(tempDir(), 'ckpt');
  pythonSync([DPO, '--pairs', pairs, '--policy', POLICY, '--out', checkpoint, '--max-steps', '4', '--lr', '1e-3']);
});

describe('dpo-reward rounds', () => {
  test('every answer gets β(log π − log π_ref) with both log-probs as evidence; pairs follow the reward', async () => {
    const { db, round } = await runDemoRound({
      limit: 8,
      pool: pool(),
      edit: (c) => {
        c.generate.backend = { type: 'local', model: checkpoint };
        c.feedback.method = 'dpo-reward';
      },
    });
    try {
      const rows = db
        .prepare('SELECT a.candidate_id, a.value, a.evidence_json, a.scorer, c.text, c.prompt_id FROM answer_scores a JOIN candidates c ON c.id = a.candidate_id WHERE a.round_id = ?')
        .all(round.id) as { candidate_id: string; value: number; evidence_json: string; scorer: string; text: string; prompt_id: string }[];
      expect(rows).toHaveLength(80);
      for (const r of rows) {
        const ev = JSON.parse(r.evidence_json);
        expect(r.value).toBeCloseTo(0.1 * (ev.policy.sum - ev.reference.sum), 9);
        expect(ev.policy.tokens).toBe(ev.reference.tokens);
        expect(r.scorer).toContain('|beta:0.1|sum');
      }
      expect(rows.some((r) => Math.abs(r.value) > 1e-4)).toBe(true);
      // The stored log-probs are the models' own: the scorer on the checkpoint and on the reference gives them again.
      const sample = rows.slice(0, 3);
      const img = db.prepare('SELECT i.path FROM prompts p JOIN images i ON i.id = p.image_id WHERE p.id = ?');
      const q = db.prepare('SELECT question FROM prompts WHERE id = ?');
      for (const [dir, key] of [[checkpoint, 'policy'], [POLICY, 'reference']] as const) {
        const s = new LocalSequenceScorer(pool(), dir);
        const got = await s.logprobs(sample.map((r) => ({ imagePath: (img.get(r.prompt_id) as { path: string }).path, question: (q.get(r.prompt_id) as { question: string }).question, answers: [r.text] })));
        sample.forEach((r, i) => expect((got[i]![0] as { sum: number }).sum).toBeCloseTo(JSON.parse(r.evidence_json)[key].sum, 4));
      }
      const pairs = db.prepare('SELECT chosen_id, rejected_id, chosen_score, rejected_score, method FROM pairs WHERE round_id = ?').all(round.id) as Record<string, any>[];
      expect(pairs.length).toBeGreaterThan(0);
      const value = new Map(rows.map((r) => [r.candidate_id, r.value]));
      for (const p of pairs) {
        expect(p.method).toBe('dpo-reward');
        expect(value.get(p.chosen_id)!).toBeGreaterThan(value.get(p.rejected_id)!);
        expect(p.chosen_score).toBe(value.get(p.chosen_id));
      }
    } finally {
      db.close();
    }
  });

  test('the policy as its own reference is refused: every reward would be 0', async () => {
    await expect(runDemoRound({ limit: 2, edit: (c) => (c.feedback.method = 'dpo-reward') })).rejects.toThrow(ConfigError);
    await expect(runDemoRound({ limit: 2, edit: (c) => (c.feedback.method = 'dpo-reward') })).rejects.toThrow(/same model.*every reward would be 0/);
  });
});
