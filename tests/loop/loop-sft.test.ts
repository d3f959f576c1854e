// `rlaifv loop` with FIRE's student training (loop.sft_trainer) and the per-round correction rate (loop.eval_feedback),
// through the built CLI with the real shapes trainer: the round's refinement dialogues are exported, the SFT step
// trains on them, the DPO trainer starts from its checkpoint, the start and the checkpoint get their correction rate,
// and a rerun redoes nothing.
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runNode } from '../helpers/run-cli.js';
import { POLICY, ROOT, TEST, tempDir } from '../helpers/paths.js';
import { rows } from '../helpers/db-rows.js';

const SFT = 'python3 {root}/scripts/shapes/dpo.py --sft-only --dialogues {dialogues} --policy {policy} --out {out} --seed {round} --max-steps 3';
const TRAINER = 'python3 {root}/scripts/shapes/dpo.py --pairs {pairs} --policy {policy} --out {out} --seed {round} --max-steps 3';

describe('rlaifv loop with an SFT step on the refinement dialogues', () => {
  let dir: string;
  let db: string;
  let config: string;
  let report: any[];
  let code: number | null;
  let stderr: string;
  // 16 train prompts and 6 held-out ones (was 30 and 12): 27 pairs and 18 refinement dialogues, and the held-out
  // correction evaluation still finds the same 2 wrong answers to give feedback on (n_e 2, n_c 0 either way); 16.1 s of
  // CPU for the loop instead of 19.9 s.
  const args = () => ['loop', '--rounds', '1', '--limit', '16', '--eval-limit', '6', '--config', config, '--db', db, '--workers', '2', '--json'];

  beforeAll(async () => {
    dir = tempDir('rlaifv-loop-sft-');
    db = path.join(dir, 'loop.sqlite');
    config = path.join(dir, 'loop.json');
    writeFileSync(
      config,
      JSON.stringify({
        generate: { samples: 4, max_new_tokens: 64 },
        pair: { corrections: ['refine'], reference_logprobs: true },
        loop: {
          train_prompts: path.join(ROOT, 'data/shapes/dev/prompts.jsonl'),
          eval_prompts: path.join(TEST, 'prompts.jsonl'),
          trainer: TRAINER,
          sft_trainer: SFT,
          eval_feedback: 'detailed',
          eval_samples: 2,
        },
      }),
    );
    const out = await runNode(args());
    code = out.code;
    stderr = out.stderr;
    report = out.code === 0 ? JSON.parse(out.stdout).rounds : [];
  });

  test('the SFT step trains on the exported dialogues, and the DPO trainer starts from its checkpoint', () => {
    expect(code, stderr).toBe(0);
    const r = report[0];
    expect(r.sft.dialogues).toBeGreaterThan(0);
    const fire = JSON.parse(readFileSync(r.sft.dialogues_file, 'utf8')) as { conversations: unknown[] }[];
    expect(fire.length).toBe(r.sft.dialogues);
    const cmds = rows<{ step: string; command: string; exit_code: number }>(db, 'SELECT step, command, exit_code FROM loop_commands ORDER BY id');
    expect(cmds.map((c) => c.step)).toEqual(['sft', 'train']);
    expect(cmds.every((c) => c.exit_code === 0)).toBe(true);
    expect(cmds[0]!.command).toContain(r.sft.dialogues_file);
    const sftInfo = JSON.parse(readFileSync(path.join(r.sft.checkpoint, 'train.json'), 'utf8'));
    expect(sftInfo.parent.path).toBe(POLICY);
    expect(sftInfo.hyperparameters.mode).toBe('sft');
    const dpoInfo = JSON.parse(readFileSync(path.join(r.checkpoint, 'train.json'), 'utf8'));
    expect(dpoInfo.parent.path).toBe(r.sft.checkpoint);
    // The round's stored log-probs are the start policy's, not the SFT checkpoint's: the pull leaves them out and
    // the trainer computes its own reference.
    const pairs = readFileSync(r.pairs_file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(pairs[0]).not.toHaveProperty('ref_chosen_logps');
  });

  test('the start and the checkpoint get their correction rate after detailed labeler feedback', () => {
    const f = report[0].eval.feedback;
    expect(f).toMatchObject({ level: 'detailed', provider: 'labeler', max_turns: 3 });
    expect(f.n_e).toBeGreaterThan(0); // wrong answers were found and given feedback, so the rates below are not empty
    expect(f.n_e).toBeGreaterThanOrEqual(f.n_c);
    expect(f.correct_after_turn.length).toBe(3);
    const stored = rows<{ feedback_json: string }>(db, 'SELECT feedback_json FROM loop_rounds')[0]!;
    expect(JSON.parse(stored.feedback_json).n_e).toBe(f.n_e);
  });

  test('a rerun finds every step done and runs no command again', async () => {
    const again = await runNode(args());
    expect(again.code, again.stderr).toBe(0);
    expect(rows(db, 'SELECT step FROM loop_commands').length).toBe(2);
    expect(JSON.parse(again.stdout).rounds[0].sft).toEqual(report[0].sft);
  });

  test('an SFT step without the refine editor is refused, naming the keys', async () => {
    const bad = path.join(dir, 'bad.json');
    const c = JSON.parse(readFileSync(config, 'utf8'));
    c.pair.corrections = [];
    writeFileSync(bad, JSON.stringify(c));
    const r = await runNode(['loop', '--rounds', '1', '--limit', '5', '--config', bad, '--db', path.join(dir, 'bad.sqlite')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/loop\.sft_trainer: .*pair\.corrections/);
  });
});
