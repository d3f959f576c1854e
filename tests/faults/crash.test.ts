// kill -9 a real `rlaifv run` at many points across all stages, run the same command again (in this process: `rerun`),
// and compare the store with an uninterrupted run's: nothing lost, nothing twice, nothing misaligned, and work done
// before the kill not redone.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import { configFromFlags } from '../../src/cli/common.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { CLI } from '../helpers/run-cli.js';
import { filePool } from '../helpers/file-pool.js';

// Slices of 2 prompts: the kill points fall while several stages work at once, on different slices.
const ARGS = ['run', '--limit', '6', '--samples', '4', '--workers', '2', '--seed', '3', '--chunk-prompts', '2'];
/** ARGS as `rlaifv run` parses them. */
const FLAGS = { limit: 6, samples: 4, workers: 2, seed: 3, chunkPrompts: 2 };

const pool = filePool();
/**
 * The same command again, in this process: what `rlaifv run` does with ARGS (src/cli/run.ts: the config from the
 * flags, then the latest round with that config resumed through every stage), in the file's worker pool. The killed
 * runs and the reference stay real CLI processes; a rerun in a process of its own paid Node's start and a pool's two
 * workers (importing transformers.js and loading the models) twelve times over.
 */
async function rerun(db: string): Promise<void> {
  const { config } = await configFromFlags({ ...FLAGS, db });
  await runRound(config, { choice: 'latest', stages: STAGES, limit: FLAGS.limit, pool: pool() });
}

/** Runs the command; when `killWhen` matches a progress line, SIGKILLs it. Resolves with how it ended. */
function runUntil(db: string, killWhen?: (line: string) => boolean): Promise<{ killed: boolean; code: number | null; log: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [CLI, ...ARGS, '--progress-every', '0', '--db', db]);
    let log = '';
    let killed = false;
    let buf = '';
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        if (!killed && killWhen?.(l)) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.on('exit', (code) => resolve({ killed, code, log }));
  });
}

/** The round's results, without times. */
function snapshot(file: string) {
  const db = openDb(file, { readonly: true });
  const q = (sql: string) => db.prepare(sql).all();
  try {
    return {
      rounds: q('SELECT id, config_hash, status, seed FROM rounds'),
      prompts: q('SELECT round_id, prompt_id, ordinal FROM round_prompts ORDER BY prompt_id'),
      candidates: q('SELECT id, sample_index, seed, text, finish_reason, words FROM candidates ORDER BY id'),
      divisions: q('SELECT candidate_id, n_claims, skipped_json, truncated FROM divisions ORDER BY candidate_id'),
      claims: q('SELECT id, candidate_id, idx, claim, question_id FROM claims ORDER BY id'),
      labels: q('SELECT question_id, labeler, p_yes, p_no, top_json FROM labels ORDER BY question_id'),
      scores: q('SELECT candidate_id, n_claims, n_judged, n_rejected, rej_c, rej_p FROM scores ORDER BY candidate_id'),
      pairings: q('SELECT prompt_id, method, considered, dropped_json FROM pairings ORDER BY prompt_id'),
      pairs: q('SELECT id, chosen_id, rejected_id, margin, balance_kept FROM pairs ORDER BY id'),
      balances: q('SELECT method, r, objective FROM balances'),
      failures: q('SELECT stage, item, reason FROM failures ORDER BY stage, item'),
    };
  } finally {
    db.close();
  }
}

/** SQLite's integrity check of a database file, read-only by another process with plain better-sqlite3 (no rlaifv code). */
function integrity(file: string): string {
  const script = `const D=require(${JSON.stringify(path.join(ROOT, 'node_modules', 'better-sqlite3'))});console.log(new D(${JSON.stringify(file)},{readonly:true,fileMustExist:true}).pragma('integrity_check',{simple:true}))`;
  return execFileSync('node', ['-e', script], { encoding: 'utf8' }).trim();
}

function count(file: string, table: string): number {
  const db = openDb(file, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The items each stage does in the uninterrupted run (from its final progress line), so kill points fall mid-stage. */
const totals: Record<string, number> = {};

/** A progress line's items: "[label] 2/6 prompts, 17 questions, ..." gives 17; "[pair] 4/6 prompts, ..." gives 4. */
const ITEMS = (stage: string, done = '') => new RegExp(`^\\[${stage}\\] ${done}(\\d+)/\\d+ prompts(?:, (\\d+) [a-z]+,| in|,)`);

/** Where to kill: a predicate on the run's progress lines. */
const at = (stage: string, fraction: number) => (l: string) => {
  const m = ITEMS(stage).exec(l);
  const total = totals[stage];
  return !!m && !!total && Number(m[2] ?? m[1]) >= Math.max(1, Math.floor(fraction * total));
};
const started = (stage: string) => (l: string) => l.startsWith(`[${stage}] start:`);

const POINTS: [string, (l: string) => boolean][] = [
  ['as the round opens, before input', (l) => l.startsWith('round ')],
  ['as generate starts', started('generate')],
  ['after the first answer', at('generate', 0)],
  ['halfway through generate', at('generate', 0.5)],
  ['as divide starts', started('divide')],
  ['halfway through divide', at('divide', 0.5)],
  ['as label starts', started('label')],
  ['after the first label', at('label', 0)],
  ['halfway through label', at('label', 0.5)],
  ['as score starts', started('score')],
  ['as pair starts', started('pair')],
  ['after pairing, before the round is marked done', at('pair', 1)],
];

describe('kill -9 at any point, then the same command again', () => {
  let reference: ReturnType<typeof snapshot>;
  let total: { candidates: number; labels: number };

  beforeAll(async () => {
    const ref = path.join(tempDir(), 'ref.sqlite');
    const r = await runUntil(ref);
    expect(r.code, r.log).toBe(0);
    reference = snapshot(ref);
    for (const stage of ['generate', 'divide', 'label', 'score', 'pair']) {
      const m = r.log.split('\n').map((l) => ITEMS(stage, 'done: ').exec(l)).find((x) => x);
      if (m) totals[stage] = Number(m[2] ?? m[1]);
    }
    expect(Object.keys(totals).sort()).toEqual(['divide', 'generate', 'label', 'pair', 'score']);
    total = { candidates: reference.candidates.length, labels: reference.labels.length };
    expect(total.candidates).toBe(24);
    expect(reference.pairs.length).toBeGreaterThan(0);
  });

  test.each(POINTS)('killed %s: the database passes SQLite\'s integrity check, the store ends exactly as an uninterrupted run, and nothing done is redone', async (_name, when) => {
    const db = path.join(tempDir(), 'crash.sqlite');
    const first = await runUntil(db, when);
    expect(first.killed, `the kill point was never reached:\n${first.log}`).toBe(true);
    expect(first.code).toBeNull(); // killed by the signal, not exited
    // The killed store as it is, before anything opens it through rlaifv: whole by SQLite's own check, at every kill
    // point (this was one test with a run of its own killed at 30% of label; now each of the 12 kill points checks it).
    expect(integrity(db)).toBe('ok');
    // What survived the kill (SQLite recovers the WAL on open): the rerun must only add what is missing.
    const had = { candidates: count(db, 'candidates'), labels: count(db, 'labels') };
    await rerun(db);
    expect(snapshot(db)).toEqual(reference);
    const runs = openDb(db, { readonly: true });
    const items = (stage: string) =>
      (runs.prepare('SELECT items FROM stage_runs WHERE stage = ? ORDER BY id DESC LIMIT 1').get(stage) as { items: number } | undefined)?.items;
    expect(items('generate')).toBe(total.candidates - had.candidates);
    expect(items('label')).toBe(total.labels - had.labels);
    runs.close();
  });

});
