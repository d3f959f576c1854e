// Readers and other writers while a real `rlaifv run` writes the store: two rounds of 40 prompts run by the built
// command as child processes, one after the other, while `rlaifv pull` for two consumers, `rlaifv stats --json` and
// `rlaifv sql` run over and over as processes, and an in-process reader reads through src/store in transactions.
// Nothing may fail with SQLITE_BUSY / "database is locked", every read must be one consistent state, counts never go
// back, and each consumer gets every kept pair exactly once over all its pulls. No timing is asserted: the loops run
// as long as the writer does, and the checks are on what was read.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/paths.js';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { latestRound, latestSchemaVersion, openDb, roundStats, type Db, type RoundStats } from '../../src/store/index.js';

const LOCKED = /SQLITE_BUSY|database is locked|database table is locked/i;
const CONSUMERS = ['trainer', 'archive'] as const;
const MONOTONE = ['prompts', 'candidates', 'divided', 'claims', 'questions', 'labeled', 'rejected_claims', 'scored', 'pairs', 'failures'] as const;

/** One statement, so one snapshot: totals and every cross-table invariant a reader could see broken mid-write. */
const CONSISTENCY_SQL = `SELECT
  (SELECT COUNT(*) FROM candidates) AS candidates,
  (SELECT COUNT(*) FROM pairs) AS pairs,
  (SELECT COUNT(*) FROM pairs p WHERE NOT EXISTS (SELECT 1 FROM candidates c WHERE c.id = p.chosen_id)
     OR NOT EXISTS (SELECT 1 FROM candidates c WHERE c.id = p.rejected_id)) AS pairs_without_candidates,
  (SELECT COUNT(*) FROM pairs p WHERE NOT EXISTS (SELECT 1 FROM scores s WHERE s.candidate_id = p.chosen_id)
     OR NOT EXISTS (SELECT 1 FROM scores s WHERE s.candidate_id = p.rejected_id)) AS pairs_without_scores,
  (SELECT COUNT(*) FROM divisions d WHERE d.n_claims <> (SELECT COUNT(*) FROM claims cl WHERE cl.candidate_id = d.candidate_id)) AS divisions_with_claims_missing,
  (SELECT COUNT(*) FROM claims cl WHERE NOT EXISTS (SELECT 1 FROM divisions d WHERE d.candidate_id = cl.candidate_id)) AS claims_without_division,
  (SELECT COUNT(*) FROM scores s JOIN divisions d ON d.candidate_id = s.candidate_id WHERE s.n_claims <> d.n_claims) AS scores_off_division,
  (SELECT COUNT(*) FROM deliveries x WHERE x.n_pairs <> (SELECT COUNT(*) FROM delivered_pairs dp WHERE dp.delivery_id = x.id)) AS deliveries_half_recorded`;
const INVARIANTS = ['pairs_without_candidates', 'pairs_without_scores', 'divisions_with_claims_missing', 'claims_without_division', 'scores_off_division', 'deliveries_half_recorded'];

let dir: string;
let db: string;
const runs: CliResult[] = [];
const pulls: Record<string, { result: CliResult; ids: string[] | null }[]> = { trainer: [], archive: [] };
const stats: { result: CliResult; s: RoundStats | null }[] = [];
const sqls: { result: CliResult; row: Record<string, number> | null }[] = [];
const inProcess: { round: number; s: RoundStats; pairIds: string[]; missing: number; error: string | null }[] = [];
const readerErrors: string[] = [];

const rlaifv = (args: string[]) => runNode(args, { cwd: dir });
const idsOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).idx as string);

beforeAll(async () => {
  dir = tempDir('rlaifv-concurrency-');
  db = path.join(dir, 'store.sqlite');
  let writing = true;
  const writer = (async () => {
    try {
      runs.push(await rlaifv(['run', '--limit', '40', '--db', db, '--quiet']));
      runs.push(await rlaifv(['run', '--limit', '40', '--db', db, '--round', 'next', '--seed', '1', '--quiet']));
    } finally {
      writing = false;
    }
  })();

  // Readers start once round 1 exists (before that there is no store to read; opening a new store from several
  // processes at once is the test below).
  let reader: Db | null = null;
  while (writing && !reader) {
    await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(db)) continue;
    try {
      const h = openDb(db, { readonly: true });
      const has = h.prepare("SELECT 1 FROM sqlite_master WHERE name = 'rounds'").get() && latestRound(h);
      if (has) reader = h;
      else h.close();
    } catch {
      // the file exists but the run has not created its tables yet
    }
  }
  const pause = () => new Promise((r) => setTimeout(r, 20));
  const loops = [
    ...CONSUMERS.map(async (c) => {
      for (let i = 0; writing; i++) {
        const out = path.join(dir, `${c}-${i}.jsonl`);
        const result = await rlaifv(['pull', '--consumer', c, '--format', 'rlaifv', '--out', out, '--db', db]);
        pulls[c]!.push({ result, ids: result.code === 0 ? idsOf(out) : null });
        await pause();
      }
    }),
    (async () => {
      while (writing) {
        const result = await rlaifv(['stats', '--db', db, '--json']);
        stats.push({ result, s: result.code === 0 ? JSON.parse(result.stdout) : null });
        await pause();
      }
    })(),
    (async () => {
      while (writing) {
        const result = await rlaifv(['sql', '--db', db, '--json', CONSISTENCY_SQL]);
        sqls.push({ result, row: result.code === 0 ? JSON.parse(result.stdout)[0] : null });
        await pause();
      }
    })(),
    (async () => {
      // Through the store module, as a library user would: each read is one transaction (one snapshot).
      while (writing && reader) {
        try {
          const snap = reader.transaction(() => {
            const r = latestRound(reader!)!;
            const s = roundStats(reader!, r.id);
            const pairs = reader!.prepare('SELECT id, chosen_id, rejected_id FROM pairs WHERE round_id = ?').all(r.id) as { id: string; chosen_id: string; rejected_id: string }[];
            const has = reader!.prepare('SELECT 1 FROM candidates WHERE id = ? AND round_id = ?');
            const missing = pairs.filter((p) => !has.get(p.chosen_id, r.id) || !has.get(p.rejected_id, r.id)).length;
            return { round: r.id, s, pairIds: pairs.map((p) => p.id), missing, error: null };
          })();
          inProcess.push(snap);
        } catch (e) {
          readerErrors.push(String((e as Error).message));
        }
        await pause();
      }
    })(),
  ];
  await writer;
  await Promise.all(loops);
  reader?.close();
});

afterAll(() => {
  const n = (xs: unknown[]) => xs.length;
  const delivered = CONSUMERS.map((c) => `${c} ${pulls[c]!.reduce((a, p) => a + (p.ids?.length ?? 0), 0)} pairs in ${n(pulls[c]!.filter((p) => p.ids?.length))} non-empty pulls`);
  const line = `concurrency: ${n(runs)} runs; ${n(pulls.trainer!) + n(pulls.archive!)} pulls (${delivered.join(', ')}), ${n(stats)} stats, ${n(sqls)} sql, ${n(inProcess)} in-process reads`;
  process.stdout.write(`${line}\n`);
  if (process.env.RLAIFV_FAULT_TABLE) writeFileSync(`${process.env.RLAIFV_FAULT_TABLE}.concurrency`, line + '\n');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a real run writing while pulls, stats, sql and in-process readers run', () => {
  test('both runs finished, and the readers really ran while they wrote', () => {
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(runs).toHaveLength(2);
    // Each loop went round several times, and some reads saw round 2 unfinished.
    for (const c of CONSUMERS) expect(pulls[c]!.length).toBeGreaterThan(2);
    expect(stats.length).toBeGreaterThan(2);
    expect(sqls.length).toBeGreaterThan(2);
    expect(inProcess.length).toBeGreaterThan(2);
    expect(stats.some((x) => x.s?.status === 'running')).toBe(true);
  });

  test('no SQLITE_BUSY / "database is locked", no failed command, no failed read', () => {
    const all = [...runs, ...Object.values(pulls).flat().map((p) => p.result), ...stats.map((x) => x.result), ...sqls.map((x) => x.result)];
    expect(all.filter((r) => LOCKED.test(r.stderr) || LOCKED.test(r.stdout)).map((r) => r.stderr)).toEqual([]);
    expect(all.filter((r) => r.code !== 0).map((r) => `${r.code}: ${r.stderr}`)).toEqual([]);
    expect(readerErrors).toEqual([]);
  });

  test('every sql read is one consistent state: pairs have their candidates and scores, divisions their claims', () => {
    for (const { row } of sqls) for (const k of INVARIANTS) expect(row![k], `${k} in ${JSON.stringify(row)}`).toBe(0);
    // Totals never go back between one read and the next.
    for (let i = 1; i < sqls.length; i++) {
      expect(sqls[i]!.row!.candidates).toBeGreaterThanOrEqual(sqls[i - 1]!.row!.candidates!);
      expect(sqls[i]!.row!.pairs).toBeGreaterThanOrEqual(sqls[i - 1]!.row!.pairs!);
    }
  });

  test('stats: counts of a round never go back, rounds only move forward, a done round stays done', () => {
    const seen = stats.map((x) => x.s!);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(b.round).toBeGreaterThanOrEqual(a.round);
      if (b.round !== a.round) continue;
      for (const k of MONOTONE) expect(b[k], `${k}: ${a[k]} then ${b[k]}`).toBeGreaterThanOrEqual(a[k]);
      if (a.status === 'done') expect(b.status).toBe('done');
    }
  });

  test('in-process reads (src/store, one transaction each): consistent counts, every pair\'s answers exist, pairs never vanish', () => {
    // Over a thousand reads: each broken rule is collected as a line and the list compared with [] once, since an
    // expect per rule and read took about 3 s of CPU; a failure still names the read, the rule and the values.
    const broken: string[] = [];
    const rule = (i: number, ok: boolean, what: string) => void (ok || broken.push(`read ${i}: ${what}`));
    inProcess.forEach((r, i) => {
      const s = r.s;
      rule(i, r.missing === 0, `${r.missing} pairs without their answers`);
      rule(i, s.divided <= s.candidates, `divided ${s.divided} > candidates ${s.candidates}`);
      rule(i, s.scored <= s.divided, `scored ${s.scored} > divided ${s.divided}`);
      rule(i, s.labeled <= s.claims, `labeled ${s.labeled} > claims ${s.claims}`);
      rule(i, s.rejected_claims <= s.labeled, `rejected_claims ${s.rejected_claims} > labeled ${s.labeled}`);
      rule(i, s.pairs_after_balance <= s.pairs, `pairs_after_balance ${s.pairs_after_balance} > pairs ${s.pairs}`);
      rule(i, s.candidates <= s.prompts * 10, `candidates ${s.candidates} > 10 × prompts ${s.prompts}`);
      rule(i, r.pairIds.length === s.pairs, `${r.pairIds.length} pair ids, stats say ${s.pairs}`);
    });
    for (let i = 1; i < inProcess.length; i++) {
      const [a, b] = [inProcess[i - 1]!, inProcess[i]!];
      if (a.round !== b.round) continue;
      for (const k of MONOTONE) rule(i, b.s[k] >= a.s[k], `${k} went back: ${a.s[k]} then ${b.s[k]}`);
      const later = new Set(b.pairIds);
      const vanished = a.pairIds.filter((id) => !later.has(id));
      rule(i, vanished.length === 0, `pairs vanished: ${vanished.join(', ')}`);
    }
    expect(broken).toEqual([]);
  });

  test('pulls: no pair twice to a consumer; the pulls during the run plus one after give every kept pair exactly once', async () => {
    const h = openDb(db, { readonly: true });
    const kept = (h.prepare('SELECT pair_id FROM v_pairs WHERE kept = 1 ORDER BY pair_id').all() as { pair_id: string }[]).map((r) => r.pair_id);
    const rounds = h.prepare("SELECT id, status FROM rounds ORDER BY id").all();
    h.close();
    expect(rounds).toEqual([{ id: 1, status: 'done' }, { id: 2, status: 'done' }]);
    expect(kept.length).toBeGreaterThan(20);
    for (const c of CONSUMERS) {
      const during = pulls[c]!.flatMap((p) => p.ids!);
      expect(new Set(during).size).toBe(during.length); // never twice, while the run wrote
      expect(during.length).toBeGreaterThan(0); // round 1's pairs went out while round 2 was being written
      const out = path.join(dir, `${c}-final.jsonl`);
      const last = await rlaifv(['pull', '--consumer', c, '--format', 'rlaifv', '--out', out, '--db', db]);
      expect(last.code, last.stderr).toBe(0);
      const all = [...during, ...idsOf(out)].sort();
      expect(all).toEqual(kept); // every kept pair, each exactly once
      // The store's record agrees with the files.
      const r = openDb(db, { readonly: true });
      const recorded = (r.prepare('SELECT pair_id FROM delivered_pairs WHERE consumer = ? ORDER BY pair_id').all(c) as { pair_id: string }[]).map((x) => x.pair_id);
      r.close();
      expect(recorded).toEqual(kept);
    }
  });

  test('the store is whole afterwards (integrity_check) and still in WAL mode', () => {
    const h = openDb(db, { readonly: true });
    expect(h.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(h.pragma('journal_mode', { simple: true })).toBe('wal');
    h.close();
  });
});

describe('opening the store', () => {
  test('openDb sets WAL, a busy timeout and foreign keys', () => {
    const d = tempDir('rlaifv-open-');
    const h = openDb(path.join(d, 's.sqlite'));
    expect(h.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(h.pragma('busy_timeout', { simple: true })).toBe(10000);
    expect(h.pragma('foreign_keys', { simple: true })).toBe(1);
    h.close();
    rmSync(d, { recursive: true, force: true });
  });

  test('commands opening a new store at the same moment: each migrates it at most once, none fails', async () => {
    // Eight `rlaifv pull` processes on one empty file, three times: before the fix in src/store/open.ts (the schema
    // version re-read under the write lock), a process that waited for the lock re-ran a migration another had just
    // committed ("table rounds already exists").
    for (let trial = 0; trial < 3; trial++) {
      const file = path.join(dir, `new-${trial}.sqlite`);
      writeFileSync(file, '');
      const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => rlaifv(['pull', '--consumer', `c${i}`, '--format', 'rlaifv', '--out', path.join(dir, `new-${trial}-${i}.jsonl`), '--db', file])));
      for (const r of rs) {
        expect(r.stderr).toBe(`rlaifv: No rounds in ${file} yet; run \`rlaifv run\` first.\n`);
        expect(r.code).toBe(2);
      }
      const h = openDb(file, { readonly: true });
      expect(h.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
      h.close();
    }
  });
});
