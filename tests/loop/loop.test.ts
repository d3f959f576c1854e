// `rlaifv loop` through the built CLI with the real shapes DPO trainer (Debian's python3-torch): two rounds on a few
// dev prompts, then what a training loop depends on — round 2 samples from round 1's checkpoint, the checkpoint's card
// names its parent and pairs, each pair is fed once, held-out images never reach a trainer, a failing trainer is
// recorded and retried, and a kill -9 during training resumes without retraining a finished step.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashCheckpoint } from '../../src/util/checkpoint.js';
import { CLI, runNode } from '../helpers/run-cli.js';
import { POLICY, ROOT, TEST, tempDir } from '../helpers/paths.js';
import { rows } from '../helpers/db-rows.js';
import { pythonForks } from '../helpers/python-forks.js';

const ARGS = '--pairs {pairs} --policy {policy} --out {out} --seed {round} --max-steps 6';
/** The trainer as a user's config names it: its own Python, which imports torch. */
const TRAINER = `python3 {root}/scripts/shapes/dpo.py ${ARGS}`;
// The same dpo.py with the same arguments, run by a command that forks it from one Python that imported torch once
// (tests/helpers/python-fork-client.py): the loop gets its output and exit code as from TRAINER, and the file's
// trainer runs skip the torch import, about half of such a short run's CPU. The kill -9 test kills its trainer with
// the loop, which a fork would outlive, so that trainer runs as TRAINER.
const forks = pythonForks();
let FORKED: string;
beforeAll(async () => {
  FORKED = `${await forks.command()} {root}/scripts/shapes/dpo.py ${ARGS}`;
});
afterAll(() => forks.close());

/** A config for a small, quick loop; `trainer` replaces the trainer command. */
function writeConfig(dir: string, trainer = FORKED): string {
  const file = path.join(dir, 'loop.json');
  writeFileSync(
    file,
    JSON.stringify({
      generate: { samples: 4, max_new_tokens: 64 },
      pair: { max_pairs: 'all' },
      loop: {
        train_prompts: path.join(ROOT, 'data/shapes/dev/prompts.jsonl'),
        eval_prompts: path.join(TEST, 'prompts.jsonl'),
        trainer,
        eval_samples: 4,
      },
    }),
  );
  return file;
}

// 16 training prompts make about 30 pairs a round (31 and 28; 40 made 75 and 63): enough for every assertion here,
// none of which counts pairs, for 0.73 of a 2-round loop's CPU time (docs/testing.md, "How long it takes").
// One worker (`--workers 1`): each worker imports transformers.js and onnxruntime and loads the models, and no test here
// is about the pool's size (13 s of the file's CPU with two, docs/testing.md).
const loopArgs = (config: string, db: string, rounds = 2, limit = 16, evalLimit = 10) =>
  ['loop', '--rounds', String(rounds), '--limit', String(limit), '--eval-limit', String(evalLimit), '--config', config, '--db', db, '--workers', '1'];
// The failing and killed steps need one round with pairs to train on and nothing of its size: 8 training prompts (25
// pairs) and 2 held-out ones.
const smallLoopArgs = (config: string, db: string) => loopArgs(config, db, 1, 8, 2);
// Checkpoint selection: 2 held-out prompts (it asserts on the validation split's evaluations). Its 16 training prompts
// stay: with 8, round 2's policy once made no pairs.
const selectLoopArgs = (config: string, db: string, rounds = 2) => loopArgs(config, db, rounds, 16, 2);
// Without truth: 4 held-out prompts (below).
const noTruthLoopArgs = (config: string, db: string) => loopArgs(config, db, 2, 16, 4);

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('rlaifv loop with the shapes DPO trainer', () => {
  let dir: string;
  let db: string;
  let out: { code: number | null; stdout: string; stderr: string };
  let report: any[];
  let start: any;

  beforeAll(async () => {
    dir = tempDir('rlaifv-loop-');
    db = path.join(dir, 'loop.sqlite');
    out = await runNode([...loopArgs(writeConfig(dir), db), '--json']);
    report = out.code === 0 ? JSON.parse(out.stdout).rounds : [];
    start = out.code === 0 ? JSON.parse(out.stdout).start : null;
  });

  test('--json holds the starting policy\'s row the table shows', () => {
    expect(out.code, out.stderr).toBe(0);
    expect(start.policy).toBe(POLICY);
    expect(start.eval.false_claim_rate).toBeTypeOf('number');
    expect(start.eval.truth_free.rejected_claim_rate).toBeTypeOf('number');
    expect(start.eval.truth_free.win_rate_vs_start).toBeNull();
    // Round 1's win rate against the start is against this evaluation.
    expect(report[0].eval.eval_id).not.toBe(start.eval.eval_id);
  });

  test('progress in a log starts afresh with each round: no stage ends with more prompts than its round has', () => {
    const done = out.stderr.split('\n').filter((l) => /^\[\w+\] done: \d+\/\d+ prompts/.test(l));
    expect(done.length, out.stderr).toBeGreaterThanOrEqual(10); // 5 stages × 2 rounds
    for (const l of done) {
      const [, a, b] = /done: (\d+)\/(\d+) prompts/.exec(l)!;
      expect(Number(a), l).toBe(Number(b));
    }
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) {
      expect(out.stderr.split('\n').filter((l) => l.startsWith(`[${stage}] start: `)).length, stage).toBeGreaterThanOrEqual(2);
    }
  });

  test('two rounds, each trained and evaluated; --json has the fields other tools read', () => {
    expect(out.code, out.stderr).toBe(0);
    expect(report).toHaveLength(2);
    for (const r of report) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['round', 'policy', 'checkpoint', 'pairs', 'trainer_exit', 'eval']));
      expect(r.trainer_exit).toBe(0);
      expect(r.pairs).toBeGreaterThan(0);
      expect(existsSync(path.join(r.checkpoint, 'onnx', 'decoder_model_merged.onnx'))).toBe(true);
      expect(r.checkpoint_sha256).toBe(hashCheckpoint(r.checkpoint));
      for (const k of ['false_claim_rate', 'response_hallucination_rate', 'true_claims_per_answer', 'object_coverage', 'judgeable_share', 'distinct_answers_per_prompt', 'mean_words']) {
        expect(r.eval).toHaveProperty(k);
      }
      expect(r.eval.greedy.false_claim_rate).toBeTypeOf('number');
      const tf = r.eval.truth_free;
      for (const k of ['rejected_claim_rate', 'answers_with_rejected_claim', 'accepted_claims_per_answer', 'distinct_answers_per_prompt', 'mean_words']) expect(tf[k]).toBeTypeOf('number');
      for (const k of ['win_rate_vs_previous', 'win_rate_vs_start']) {
        expect(tf[k].win_rate).toBeGreaterThanOrEqual(0);
        expect(tf[k].ci95[0]).toBeLessThanOrEqual(tf[k].win_rate);
        expect(tf[k].ci95[1]).toBeGreaterThanOrEqual(tf[k].win_rate);
      }
    }
    // Round 1's previous policy is the start.
    expect(report[0].eval.truth_free.win_rate_vs_previous).toEqual(report[0].eval.truth_free.win_rate_vs_start);
  });

  test('round 2 samples from round 1\'s checkpoint', () => {
    const [r1, r2] = report;
    expect(r1.policy).toBe(POLICY);
    expect(r2.policy).toBe(r1.checkpoint);
    const [cfg] = rows<{ config_json: string }>(db, 'SELECT config_json FROM rounds WHERE id = ?', r2.round);
    expect(JSON.parse(cfg!.config_json).generate.backend).toEqual({ type: 'local', model: r1.checkpoint });
    // The trainer's command for round 2 started from round 1's checkpoint.
    const [lr] = rows<{ trainer_command: string }>(db, 'SELECT trainer_command FROM loop_rounds WHERE idx = 2');
    expect(lr!.trainer_command).toContain(`--policy ${r1.checkpoint}`);
  });

  test('each checkpoint\'s card names its parent and the SHA-256 of the pairs it was trained on', () => {
    for (const r of report) {
      const card = JSON.parse(readFileSync(path.join(r.checkpoint, 'train.json'), 'utf8'));
      const text = JSON.stringify(card);
      expect(text).toContain(sha256(r.pairs_file));
      expect(text).toContain(r.policy);
      expect(readFileSync(path.join(r.checkpoint, 'README.md'), 'utf8')).toContain(sha256(r.pairs_file));
    }
  });

  test('every pair was fed once, and none on a held-out image', () => {
    const delivered = rows<{ pair_id: string; n: number }>(db, "SELECT pair_id, COUNT(*) AS n FROM delivered_pairs WHERE consumer = 'loop-1' GROUP BY pair_id");
    expect(delivered.length).toBe(report[0].pairs + report[1].pairs);
    expect(delivered.every((d) => d.n === 1)).toBe(true);
    const heldOut = rows<{ n: number }>(
      db,
      `SELECT COUNT(*) AS n FROM delivered_pairs d JOIN pairs p ON p.id = d.pair_id JOIN prompts pr ON pr.id = p.prompt_id
       WHERE pr.image_id IN (SELECT p2.image_id FROM rounds r JOIN round_prompts rp ON rp.round_id = r.id JOIN prompts p2 ON p2.id = rp.prompt_id WHERE r.purpose = 'eval')`,
    );
    expect(heldOut[0]!.n).toBe(0);
    const lines = readFileSync(report[0].pairs_file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(report[0].pairs);
  });

  test('a rerun with the same rounds redoes nothing', async () => {
    const before = rows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM loop_commands')[0]!.n;
    const again = await runNode([...loopArgs(writeConfig(dir), db), '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).rounds).toEqual(report);
    expect(rows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM loop_commands')[0]!.n).toBe(before);
  });

  test('pairs on held-out images never reach any consumer, even from a training round run on them', async () => {
    const run = await runNode(['run', '--round', 'next', '--prompts', path.join(TEST, 'prompts.jsonl'), '--limit', '10', '--samples', '4', '--db', db, '--workers', '1', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const round = rows<{ id: number }>(db, "SELECT MAX(id) AS id FROM rounds WHERE purpose = 'train'")[0]!.id;
    const kept = rows<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM v_pairs WHERE round = ? AND kept = 1', round)[0]!.n;
    expect(kept).toBeGreaterThan(0);
    const file = path.join(dir, 'other.jsonl');
    const p = await runNode(['pull', '--consumer', 'analyst', '--round', String(round), '--format', 'trl', '--out', file, '--db', db]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stderr).toContain(`${kept} kept pairs are withheld`);
    expect(readFileSync(file, 'utf8')).toBe('');
    const e = await runNode(['export', '--round', String(round), '--format', 'trl', '--out', path.join(dir, 'exp.jsonl'), '--db', db]);
    expect(e.code, e.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'exp.jsonl'), 'utf8')).toBe('');
  });
});

describe('rlaifv loop on held-out prompts without truth (a user\'s own data)', () => {
  test('runs to the end; every round has its truth-free figures and win rates, the truth\'s figures are null', async () => {
    const dir = tempDir('rlaifv-loop-nt-');
    const db = path.join(dir, 'loop.sqlite');
    const stripped = path.join(dir, 'held-out.jsonl');
    const lines = readFileSync(path.join(TEST, 'prompts.jsonl'), 'utf8').trim().split('\n').slice(0, 10);
    writeFileSync(stripped, lines.map((l) => { const p = JSON.parse(l); return JSON.stringify({ id: p.id, image: path.join(TEST, p.image), question: p.question }); }).join('\n') + '\n');
    const config = writeConfig(dir);
    const c = JSON.parse(readFileSync(config, 'utf8'));
    c.loop.eval_prompts = stripped;
    // The multi-turn ablation of every checkpoint too (the first 4 conversations, as --eval-limit cuts the held-out ones).
    c.loop.ablation_prompts = path.join(ROOT, 'data/shapes/multiturn/prompts.jsonl');
    writeFileSync(config, JSON.stringify(c));
    // 4 held-out prompts, not 10: each of the three policies is evaluated on them and on the ablation's conversations
    // in three ways, and what is asserted (every answer counted, every figure there, the table) does not depend on
    // how many there are (23.6 s of CPU for this loop with 10, 18.7 s with 4).
    const args = noTruthLoopArgs(config, db);
    const r = await runNode([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rounds = JSON.parse(r.stdout).rounds;
    expect(rounds).toHaveLength(2);
    for (const x of rounds) {
      expect(x.eval.false_claim_rate).toBeNull();
      expect(x.eval.truth_free.answers).toBe(16); // 4 prompts × eval_samples 4
      expect(x.eval.truth_free.rejected_claim_rate).toBeTypeOf('number');
      expect(x.eval.truth_free.win_rate_vs_previous.ci95).toHaveLength(2);
      expect(x.eval.truth_free.win_rate_vs_start.ci95).toHaveLength(2);
      expect(x.eval.multiturn_ablation.conversations).toBe(4);
      for (const k of ['no_history', 'true_history', 'own_history']) expect(x.eval.multiturn_ablation[k].false_claim_rate).toBeTypeOf('number');
    }
    // The text table shows the labeler's figures and the win rates, and '-' for the truth's.
    const text = await runNode(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/rejected \(labeler\)/);
    expect(text.stdout).toMatch(/mt: own turns/);
    expect(text.stdout.split('\n').find((l) => l.startsWith('2 '))).toMatch(/\d+\.\d% \[\d+\.\d%, \d+\.\d%\]/);
  });
});

describe('rlaifv loop with checkpoint selection (loop.select: best)', () => {
  test('every epoch the trainer saved is evaluated on the validation split; the lowest rejected-claim rate answers the next round', async () => {
    const dir = tempDir('rlaifv-loop-sel-');
    const db = path.join(dir, 'loop.sqlite');
    const config = writeConfig(dir, FORKED.replace('--max-steps 6', '--max-steps 6 --epochs 2 --batch-size 32 --save-epochs'));
    const c = JSON.parse(readFileSync(config, 'utf8'));
    c.loop = { ...c.loop, select: 'best', select_prompts: path.join(ROOT, 'data/shapes/dev/prompts.jsonl'), select_limit: 8 };
    writeFileSync(config, JSON.stringify(c));
    const r = await runNode([...selectLoopArgs(config, db), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rounds = JSON.parse(r.stdout).rounds;
    for (const x of rounds) {
      const out = path.join(path.dirname(path.dirname(x.pairs_file)), 'policy');
      expect(x.select.map((s: any) => s.checkpoint)).toEqual([path.join(out, 'checkpoint-1'), path.join(out, 'checkpoint-2'), out]);
      expect(x.select.filter((s: any) => s.selected)).toHaveLength(1);
      const won = x.select.find((s: any) => s.selected);
      const best = Math.min(...x.select.map((s: any) => s.rejected_claim_rate));
      expect(won.rejected_claim_rate).toBe(best);
      expect(x.checkpoint).toBe(won.checkpoint);
      // The last epoch's checkpoint-2 holds {out}'s weights: evaluated once, recorded for both.
      expect(x.select[2].eval_id).toBe(x.select[1].eval_id);
      expect(x.select[0].eval_id).not.toBe(x.select[1].eval_id);
      expect(x.checkpoint_sha256).toBe(hashCheckpoint(won.checkpoint));
      // Each candidate was evaluated on the validation prompts, never on the held-out ones.
      const evs = rows<{ prompts: string; prompt_limit: number }>(db, `SELECT prompts, prompt_limit FROM policy_evals WHERE id IN (${x.select.map((s: any) => s.eval_id).join(',')})`);
      expect(evs.every((e) => e.prompts.endsWith('dev/prompts.jsonl') && e.prompt_limit === 8)).toBe(true);
    }
    // The next round trained from the selected checkpoint.
    expect(rows<{ policy_checkpoint: string }>(db, 'SELECT policy_checkpoint FROM loop_rounds WHERE idx = 2')[0]!.policy_checkpoint).toBe(rounds[0].checkpoint);

    // Selecting on the held-out prompts is refused, naming the key.
    c.loop.select_prompts = c.loop.eval_prompts;
    writeFileSync(config, JSON.stringify(c));
    const bad = await runNode(selectLoopArgs(config, path.join(dir, 'bad.sqlite'), 1));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('loop.select_prompts');
  });
});

describe('rlaifv loop when a step fails or is killed', () => {
  test('a failing trainer is recorded, the loop exits non-zero, and a rerun retries that step', async () => {
    const dir = tempDir('rlaifv-loop-fail-');
    const db = path.join(dir, 'loop.sqlite');
    const flag = path.join(dir, 'gpu-ready');
    const trainer = `if [ ! -f ${flag} ]; then echo "CUDA error: no device" >&2; exit 3; fi; ${FORKED}`;
    const first = await runNode(smallLoopArgs(writeConfig(dir, trainer), db));
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('the trainer failed (exit code 3)');
    expect(first.stderr).toContain('CUDA error: no device');
    let cmds = rows<{ exit_code: number; stderr_tail: string }>(db, 'SELECT exit_code, stderr_tail FROM loop_commands ORDER BY id');
    expect(cmds).toHaveLength(1);
    expect(cmds[0]).toMatchObject({ exit_code: 3 });
    expect(cmds[0]!.stderr_tail).toContain('CUDA error');
    expect(rows(db, 'SELECT checkpoint FROM loop_rounds WHERE checkpoint IS NOT NULL')).toHaveLength(0);
    const deliveries = rows(db, "SELECT id FROM deliveries WHERE consumer = 'loop-1'");

    writeFileSync(flag, '');
    const second = await runNode([...smallLoopArgs(writeConfig(dir, trainer), db), '--json']);
    expect(second.code, second.stderr).toBe(0);
    cmds = rows(db, 'SELECT exit_code, stderr_tail FROM loop_commands ORDER BY id');
    expect(cmds.map((c) => c.exit_code)).toEqual([3, 0]);
    // The retry trained on the pairs delivered the first time: no second pull.
    expect(rows(db, "SELECT id FROM deliveries WHERE consumer = 'loop-1'")).toEqual(deliveries);
    expect(JSON.parse(second.stdout).rounds[0].trainer_exit).toBe(0);
  });

  test('kill -9 while the trainer runs: the rerun resumes there, trains once more, and feeds no pair twice', async () => {
    const dir = tempDir('rlaifv-loop-kill-');
    const db = path.join(dir, 'loop.sqlite');
    // The trainer leaves a mark when it starts, so the test can kill the whole loop (trainer included) mid-training.
    const mark = path.join(dir, 'training');
    // 400 steps over 100 epochs: still training when killed, however few pairs the round made.
    const trainer = `touch ${mark}; ${TRAINER.replace('--max-steps 6', '--max-steps 400 --epochs 100')}`;
    const config = writeConfig(dir, trainer);
    const child = spawn(process.execPath, [CLI, ...smallLoopArgs(config, db)], { detached: true, stdio: 'ignore' });
    const killed = await new Promise<boolean>((resolve) => {
      const t0 = Date.now();
      const poll = setInterval(() => {
        if (existsSync(mark)) {
          clearInterval(poll);
          setTimeout(() => {
            process.kill(-child.pid!, 'SIGKILL');
            resolve(true);
          }, 1500);
        } else if (Date.now() - t0 > 60_000) {
          clearInterval(poll);
          process.kill(-child.pid!, 'SIGKILL');
          resolve(false);
        }
      }, 100);
    });
    expect(killed).toBe(true);
    await new Promise((r) => child.on('exit', r));
    const [before] = rows<{ train_round: number; pairs: number; checkpoint: string | null }>(db, 'SELECT train_round, pairs, checkpoint FROM loop_rounds');
    expect(before!.checkpoint).toBeNull();
    expect(before!.pairs).toBeGreaterThan(0);

    const rerun = await runNode([...smallLoopArgs(writeConfig(dir), db), '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const [after] = JSON.parse(rerun.stdout).rounds;
    expect(after.round).toBe(before!.train_round);
    expect(after.pairs).toBe(before!.pairs);
    expect(rows(db, "SELECT id FROM deliveries WHERE consumer = 'loop-1'")).toHaveLength(1);
    expect(rows(db, 'SELECT id FROM rounds WHERE purpose = \'train\'')).toHaveLength(1);
    expect(rows(db, 'SELECT id FROM loop_commands')).toHaveLength(1);
    expect(existsSync(path.join(after.checkpoint, 'train.json'))).toBe(true);
  });
});
