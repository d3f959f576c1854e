// Figure 5: claims stored per second through rlaifv's store as the divide stage writes them (putDivisions through
// the stage's WriteBatcher: results added 64 divided answers at a time, written DIVIDE_WRITE_ROWS answers per
// transaction) vs a bare better-sqlite3 loop of prepared inserts in one
// transaction, into the same tables (the store's own schema: questions, claims, divisions, same indexes, foreign keys
// on, WAL, synchronous NORMAL) with the same rows (target ≥ 70%). A second reference inserts the claims alone into a
// plain table without keys or indexes: the most SQLite can do here, for context.
//
// Rows look like a shapes round's: 2.2 claims per answer on average, shapes-world sentences, 32-hex content ids, about
// 0.4 distinct questions per claim (claims about one image repeat questions). Each side gets a fresh file; the
// comparison is repeated and the best run of each side is kept (the machine is shared).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDb, putDivisions, type Db, type Division } from '../../src/store/index.js';
import { WriteBatcher } from '../../src/stages/context.js';
import { createRng } from '../../src/feedback/rng.js';
import { DIVIDE_WRITE_ROWS } from '../../src/stages/divide.js';
import { ROOT, checked, info, round, tempDir, type BenchOptions, type BenchResult } from './common.js';

const id = (...parts: (string | number)[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

const COLORS = ['red', 'green', 'blue', 'yellow', 'purple', 'orange'];
const SHAPES = ['circle', 'square', 'triangle', 'star'];
const SIZES = ['small', 'large'];
const CELLS = ['top left', 'top center', 'top right', 'middle left', 'center', 'middle right', 'bottom left', 'bottom center', 'bottom right'];

interface Fixture {
  images: string[];
  candidates: { id: string; promptId: string; imageId: string; index: number }[];
  divisions: Division[];
  claims: number;
}

/** Divided answers for `nClaims` claims or a little more. */
function fixture(nClaims: number): Fixture {
  const r = createRng(6); // deterministic, so both sides get exactly the same rows
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const images = Array.from({ length: Math.max(20, Math.round(nClaims / 22)) }, (_, i) => id('image', i));
  // Per image a small set of facts, so claims of its 10 answers repeat questions as a real round does.
  const facts = new Map<string, { claim: string; question: string }[]>();
  for (const img of images) {
    const fs: { claim: string; question: string }[] = [];
    for (let k = 0; k < 9; k++) {
      const [s, c, z, p] = [pick(SHAPES), pick(COLORS), pick(SIZES), pick(CELLS)];
      fs.push(
        k % 3 === 0
          ? { claim: `There are ${1 + Math.floor(r() * 4)} shapes in the image.`, question: `Are there ${1 + Math.floor(r() * 4)} shapes in the image?` }
          : k % 3 === 1
            ? { claim: `There is a ${z} ${c} ${s} in the ${p} of the image.`, question: `Is there a ${z} ${c} ${s} in the ${p} of the image?` }
            : { claim: `The ${s} is ${c}.`, question: `Is the ${s} ${c}?` },
      );
    }
    facts.set(img, fs);
  }
  const candidates: Fixture['candidates'] = [];
  const divisions: Division[] = [];
  let claims = 0;
  for (let a = 0; claims < nClaims; a++) {
    const imageId = images[Math.floor(a / 10) % images.length]!;
    const promptId = `bench-${Math.floor(a / 10)}`;
    const cid = id(1, promptId, a % 10);
    candidates.push({ id: cid, promptId, imageId, index: a % 10 });
    const n = [1, 1, 2, 2, 2, 3, 3, 4][Math.floor(r() * 8)]!;
    const fs = facts.get(imageId)!;
    const cl: Division['claims'] = [];
    for (let idx = 0; idx < n; idx++) {
      const f = pick(fs);
      cl.push({ id: id(cid, idx), idx, sentence: f.claim, claim: f.claim, questionId: id(imageId, f.question.toLowerCase().replace(/\?$/, '')), questionText: f.question, imageId, start: null, end: null });
    }
    claims += n;
    divisions.push({ candidateId: cid, divider: 'rules', truncated: false, skipped: r() < 0.1 ? [{ sentence: 'It is a nice picture.', reason: 'opinion' }] : [], claims: cl });
  }
  return { images, candidates, divisions, claims };
}

/** The store's schema, applied with the bare driver (the same files openDb migrates with). */
function bareOpen(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const dir = path.join(ROOT, 'db');
  for (const f of readdirSync(dir).filter((x) => /^\d+_.*\.sql$/.test(x)).sort()) db.exec(readFileSync(path.join(dir, f), 'utf8'));
  return db;
}

/** What the claims point at: a round, images, prompts and candidates (not timed). */
function seed(db: Db | Database.Database, fx: Fixture): void {
  const t = new Date().toISOString();
  db.transaction(() => {
    db.prepare(
      `INSERT INTO rounds (id, config_json, config_hash, policy_model, labeler_model, divider, seed, accept_rule, score_method, started_at)
       VALUES (1, '{}', 'bench', 'policy', 'labeler', 'rules', 0, 'scripts', 'rejc', ?)`,
    ).run(t);
    const img = db.prepare(`INSERT INTO images (id, path, width, height, bytes) VALUES (?, ?, 64, 64, 1000)`);
    for (const i of fx.images) img.run(i, `/images/${i}.png`);
    const pr = db.prepare(`INSERT OR IGNORE INTO prompts (id, image_id, question, meta_json, content_hash, source) VALUES (?, ?, 'Describe the image in detail.', NULL, ?, 'bench')`);
    const ca = db.prepare(
      `INSERT INTO candidates (id, round_id, prompt_id, sample_index, seed, model_id, decoding_json, text, finish_reason, words, created_at)
       VALUES (?, 1, ?, ?, 0, 'policy', '{}', 'text', 'stop', 10, ?)`,
    );
    for (const c of fx.candidates) {
      pr.run(c.promptId, c.imageId, c.promptId);
      ca.run(c.id, c.promptId, c.index, t);
    }
  })();
}

/**
 * rlaifv: the divide stage's write path: 64 divided answers at a time into its WriteBatcher, which writes `rows`
 * answers per transaction (DIVIDE_WRITE_ROWS in the stage).
 */
function viaStore(file: string, fx: Fixture, rows = DIVIDE_WRITE_ROWS): number {
  const db = openDb(file);
  try {
    seed(db, fx);
    const t0 = performance.now();
    const out = new WriteBatcher<Division>((r) => db.transaction(() => putDivisions(db, r))(), rows, Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < fx.divisions.length; i += 64) out.add(fx.divisions.slice(i, i + 64));
    out.flush();
    return (performance.now() - t0) / 1000;
  } finally {
    db.close();
  }
}

/** Bare driver, same schema and rows: prepared inserts in one transaction. */
function bareSameSchema(file: string, fx: Fixture): number {
  const db = bareOpen(file);
  try {
    seed(db, fx);
    const q = db.prepare(`INSERT INTO questions (id, image_id, text) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`);
    const c = db.prepare(`INSERT INTO claims (id, candidate_id, idx, sentence, claim, question_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`);
    const d = db.prepare(
      `INSERT INTO divisions (candidate_id, divider, n_claims, skipped_json, truncated, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (candidate_id) DO NOTHING`,
    );
    const t0 = performance.now();
    const t = new Date().toISOString();
    db.transaction(() => {
      for (const div of fx.divisions) {
        for (const cl of div.claims) {
          q.run(cl.questionId, cl.imageId, cl.questionText);
          c.run(cl.id, div.candidateId, cl.idx, cl.sentence, cl.claim, cl.questionId);
        }
        d.run(div.candidateId, div.divider, div.claims.length, JSON.stringify(div.skipped), div.truncated ? 1 : 0, t);
      }
    })();
    return (performance.now() - t0) / 1000;
  } finally {
    db.close();
  }
}

/** Bare driver, the claims alone in a plain table (no keys, no indexes, no other tables). */
function bareClaimsOnly(file: string, fx: Fixture): number {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE claims (id TEXT, candidate_id TEXT, idx INTEGER, sentence TEXT, claim TEXT, question_id TEXT)`);
    const c = db.prepare(`INSERT INTO claims (id, candidate_id, idx, sentence, claim, question_id) VALUES (?, ?, ?, ?, ?, ?)`);
    const t0 = performance.now();
    db.transaction(() => {
      for (const div of fx.divisions) for (const cl of div.claims) c.run(cl.id, div.candidateId, cl.idx, cl.sentence, cl.claim, cl.questionId);
    })();
    return (performance.now() - t0) / 1000;
  } finally {
    db.close();
  }
}

/** Runs figure 5. */
export async function benchStore(opts: BenchOptions = {}): Promise<BenchResult> {
  const log = opts.log ?? (() => {});
  const n = opts.quick ? 20_000 : 100_000;
  const reps = opts.quick ? 2 : 3;
  const fx = fixture(n);
  const tmp = tempDir('store');
  const best = { store: Infinity, storeOne: Infinity, bare: Infinity, plain: Infinity };
  try {
    for (let k = 0; k < reps; k++) {
      log(`store: run ${k + 1} of ${reps}, ${fx.claims} claims`);
      // Alternate the order so neither side always runs on a warmer machine.
      const order = k % 2 ? (['bare', 'storeOne', 'store', 'plain'] as const) : (['store', 'bare', 'storeOne', 'plain'] as const);
      for (const side of order) {
        const file = path.join(tmp.dir, `${side}-${k}.sqlite`);
        const s =
          side === 'store' ? viaStore(file, fx) // the stage's own setting
          : side === 'storeOne' ? viaStore(file, fx, Number.MAX_SAFE_INTEGER)
          : side === 'bare' ? bareSameSchema(file, fx)
          : bareClaimsOnly(file, fx);
        best[side] = Math.min(best[side], s);
      }
    }
  } finally {
    tmp.cleanup();
  }
  const rate = (s: number) => fx.claims / s;
  const questions = new Set(fx.divisions.flatMap((d) => d.claims.map((c) => c.questionId))).size;
  return {
    rows: [
      checked('claims/s through the store ÷ bare inserts, same schema', round((100 * rate(best.store)) / rate(best.bare), 1), '%', '>=', 70,
        `${Math.round(rate(best.store)).toLocaleString('en-US')} vs ${Math.round(rate(best.bare)).toLocaleString('en-US')} claims/s; ` +
          `${fx.claims} claims, ${questions} questions, ${fx.divisions.length} divisions; best of ${reps}`),
      info('the same, putDivisions called once with every row (one transaction)', round((100 * rate(best.storeOne)) / rate(best.bare), 1), '%',
        `${Math.round(rate(best.storeOne)).toLocaleString('en-US')} claims/s: the store functions themselves vs transaction size (${DIVIDE_WRITE_ROWS} answers per commit in the divide stage)`),
      info('claims/s through the store ÷ bare inserts into a plain claims table', round((100 * rate(best.store)) / rate(best.plain), 1), '%',
        `${Math.round(rate(best.plain)).toLocaleString('en-US')} claims/s into one table without keys or indexes`),
    ],
  };
}
