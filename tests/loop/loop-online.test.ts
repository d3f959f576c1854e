// `rlaifv loop` with loop.mode "online" through the built CLI: rlaifv serve on the loop's store (127.0.0.1, a free
// port), the real shapes GRPO trainer (Debian's python3-torch) asking it for rewards through the TRL adapter, two
// budget points on two dev prompts, killed (-9, trainer included) during the second and resumed. What users depend
// on: each budget point is trained once from the previous checkpoint and evaluated with the DPO loop's figures, the
// budget is one DPO round's samples, and the rewards the trainer asked for are stored as serve's round.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { onlineAnswerCount, openDb } from '../../src/store/index.js';
import { CLI, runNode } from '../helpers/run-cli.js';
import { POLICY, ROOT, TEST, tempDir } from '../helpers/paths.js';

const TRAINER = 'python3 {root}/scripts/shapes/grpo.py --prompts {prompts} --policy {policy} --ref {ref} --out {out} --samples {samples} --seed {seed} --num-generations 4 --prompts-per-step 2 --max-new-tokens 48';

function rows<T>(db: string, sql: string, ...args: unknown[]): T[] {
  const d = openDb(db, { readonly: true });
  try {
    return d.prepare(sql).all(...args) as T[];
  } finally {
    d.close();
  }
}

describe('rlaifv loop, loop.mode "online"', () => {
  let dir: string;
  let db: string;
  let args: string[];
  let before: { idx: number; checkpoint: string | null; eval_id: number | null }[];
  let rerun: { code: number | null; stdout: string; stderr: string };
  let report: any[];

  beforeAll(async () => {
    dir = tempDir('rlaifv-loop-online-');
    db = path.join(dir, 'loop.sqlite');
    const config = path.join(dir, 'loop.json');
    // The trainer leaves a mark per budget point when it starts, so the test can kill the loop during the second. In
    // the killed run the second point's trainer repeats its update (--num-iterations) until killed: the kill always
    // finds it training, on a fast machine too (with the plain trainer, an idle machine finished the point within the
    // 1.5 s and the test failed). The rerun's config has the plain trainer, as a user fixing a trainer would.
    const writeLoopConfig = (trainer: string) =>
      writeFileSync(
        config,
        JSON.stringify({
          generate: { samples: 4, max_new_tokens: 48 },
          loop: { mode: 'online', train_prompts: path.join(ROOT, 'data/shapes/dev/prompts.jsonl'), eval_prompts: path.join(TEST, 'prompts.jsonl'), online_trainer: trainer, eval_samples: 2 },
        }),
      );
    writeLoopConfig(`touch ${dir}/training-{round}; ${TRAINER} $([ {round} = 2 ] && echo --num-iterations 1000000)`);
    args = ['loop', '--rounds', '2', '--limit', '2', '--eval-limit', '4', '--config', config, '--db', db, '--workers', '1'];
    const child = spawn(process.execPath, [CLI, ...args], { detached: true, stdio: 'ignore' });
    const killed = await new Promise<boolean>((resolve) => {
      const t0 = Date.now();
      const poll = setInterval(() => {
        const late = Date.now() - t0 > 100_000;
        if (existsSync(path.join(dir, 'training-2')) || late) {
          clearInterval(poll);
          setTimeout(() => {
            process.kill(-child.pid!, 'SIGKILL');
            resolve(!late);
          }, late ? 0 : 1500);
        }
      }, 100);
    });
    expect(killed).toBe(true);
    await new Promise((r) => child.on('exit', r));
    before = rows(db, 'SELECT idx, checkpoint, eval_id FROM loop_rounds ORDER BY idx');
    writeLoopConfig(TRAINER);
  });

  beforeAll(async () => {
    rerun = await runNode([...args, '--json']);
    report = rerun.code === 0 ? JSON.parse(rerun.stdout).rounds : [];
  });

  test('the kill left budget point 1 trained and evaluated, point 2 untrained; the rerun trains only point 2', () => {
    expect(before[0]).toMatchObject({ idx: 1 });
    expect(before[0]!.checkpoint).not.toBeNull();
    expect(before[0]!.eval_id).not.toBeNull();
    expect(before[1]?.checkpoint ?? null).toBeNull();
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(report).toHaveLength(2);
    expect(report[0].checkpoint).toBe(before[0]!.checkpoint);
    // One finished trainer run per budget point: the killed one was never recorded as done.
    const cmds = rows<{ idx: number; exit_code: number }>(db, 'SELECT idx, exit_code FROM loop_commands ORDER BY id');
    expect(cmds).toEqual([{ idx: 1, exit_code: 0 }, { idx: 2, exit_code: 0 }]);
  });

  test('each budget point starts from the previous checkpoint, draws one DPO round\'s samples, and is evaluated as a round', () => {
    for (const [k, r] of report.entries()) {
      const info = JSON.parse(readFileSync(path.join(r.checkpoint, 'train.json'), 'utf8'));
      expect(info.parent.path).toBe(k === 0 ? POLICY : report[0].checkpoint);
      expect(info.reference.path).toBe(POLICY);
      // 2 prompts × generate.samples 4.
      expect(info.summary.samples).toBe(8);
      expect(info.summary.scored).toBeGreaterThan(0);
      expect(info.log[0]).toHaveProperty('kl');
      expect(existsSync(path.join(r.checkpoint, 'README.md'))).toBe(true);
      expect(r.trainer_exit).toBe(0);
      expect(r.pairs).toBeNull();
      expect(r.eval.false_claim_rate).toBeTypeOf('number');
      expect(r.eval.greedy.false_claim_rate).toBeTypeOf('number');
      expect(r.eval.truth_free.rejected_claim_rate).toBeTypeOf('number');
      expect(r.eval.truth_free.win_rate_vs_start.win_rate).toBeGreaterThanOrEqual(0);
    }
  });

  test('the rewards the trainer asked for are stored in serve\'s round, and rlaifv report renders it', async () => {
    const serveRound = report[0].round as number;
    expect(report[1].round).toBe(serveRound);
    const d = openDb(db, { readonly: true });
    let stored: number;
    try {
      stored = onlineAnswerCount(d, serveRound);
    } finally {
      d.close();
    }
    // Distinct answers are stored once; at least one per prompt, at most every sample drawn (three runs of 8).
    expect(stored).toBeGreaterThanOrEqual(2);
    expect(stored).toBeLessThanOrEqual(24);
    const html = path.join(dir, 'report.html');
    const r = await runNode(['report', '--db', db, '--round', String(serveRound), '--out', html, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(html, 'utf8').length).toBeGreaterThan(1000);
  });
});

describe('rlaifv loop, loop.mode settings', () => {
  const run = async (loop: Record<string, unknown>) => {
    const dir = tempDir('rlaifv-loop-online-cfg-');
    const config = path.join(dir, 'loop.json');
    writeFileSync(config, JSON.stringify({ loop }));
    const db = path.join(dir, 'x.sqlite');
    return { db, ...(await runNode(['loop', '--rounds', '1', '--limit', '2', '--config', config, '--db', db])) };
  };

  test('an unknown mode exits 2 naming loop.mode and its choices', async () => {
    const r = await run({ mode: 'ppo' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loop.mode');
    expect(r.stderr).toMatch(/dpo.*online/);
  });

  test('online with a DPO-loop step exits 2 before anything is stored', async () => {
    const r = await run({ mode: 'online', select: 'best', select_prompts: path.join(ROOT, 'data/shapes/dev/prompts.jsonl') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loop.mode: "online"');
    expect(existsSync(r.db) ? rows(r.db, 'SELECT id FROM loops') : []).toEqual([]);
  });
});
