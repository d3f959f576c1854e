// The feedback-quality study (issue "rlaifv eval"): a round on the whole test split with the default settings, its
// evaluation against the truth, and what changes with the pair settings, the score method, the labeler's accuracy
// (a simulated labeler of known accuracy on the same questions) and the questions' wording (the real labeler asked
// the world's canonical wording of each question).
// Usage: npx tsx scripts/study/feedback-quality.ts [--db db/study-test.sqlite] [--fresh] [--seeds 5] [--workers N] [--json FILE]
// Reuses a finished round of the same config in the db file (nothing is redone); --fresh starts a new one.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configHash, loadConfig } from '../../src/config/load.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { openDb, type RoundRow } from '../../src/store/index.js';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalLabeler } from '../../src/backends/local/index.js';
import { mapLimit } from '../../src/progress.js';
import { parseStatement, renderStatement } from '../../src/shapes/index.js';
import {
  evaluateRound,
  judgeRound,
  labelFigures,
  pairQuality,
  pairRound,
  roundSetting,
  loadEvalRound,
  pct,
  renderReport,
  table,
  variantRows,
  type EvalRound,
  type LabelFigures,
  type PairRow,
  type Variant,
  type VerdictSource,
  type YesNo,
} from '../../src/eval/index.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const dbFile = path.resolve(opt('--db') ?? path.join(ROOT, 'db', 'study-test.sqlite'));
const seeds = Number(opt('--seeds') ?? 5);
const workers = opt('--workers') ? Number(opt('--workers')) : undefined;
const jsonOut = opt('--json');

const { config } = loadConfig(undefined, {
  prompts: path.join(ROOT, 'data', 'shapes', 'test', 'prompts.jsonl'),
  db: dbFile,
  ...(workers ? { workers } : {}),
});

// ---------------------------------------------------------------- the round (run, resume or reuse)
async function theRound(): Promise<RoundRow> {
  if (!argv.includes('--fresh')) {
    const db = openDb(dbFile);
    const r = db
      .prepare("SELECT * FROM rounds WHERE config_hash = ? AND status = 'done' ORDER BY id DESC LIMIT 1")
      .get(configHash(config)) as RoundRow | undefined;
    db.close();
    if (r) {
      process.stderr.write(`reusing round ${r.id} of ${dbFile}\n`);
      return r;
    }
  }
  process.stderr.write(`running a round on ${config.prompts} into ${dbFile} …\n`);
  const t0 = performance.now();
  const run = await runRound(config, { choice: argv.includes('--fresh') ? 'next' : 'latest', stages: STAGES });
  process.stderr.write(`round ${run.round.id} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  return run.round;
}

// ---------------------------------------------------------------- the questions in the world's own wording
/** Labels every question of the round the labeler was asked in a wording other than the canonical one, canonically. */
async function canonicalLabels(round: EvalRound): Promise<{ labels: Map<string, YesNo>; reworded: number; questions: number }> {
  const db = openDb(dbFile, { readonly: true });
  const rows = db
    .prepare(
      `SELECT DISTINCT q.id, q.text, i.path FROM claims cl JOIN candidates c ON c.id = cl.candidate_id
       JOIN questions q ON q.id = cl.question_id JOIN images i ON i.id = q.image_id WHERE c.round_id = ? ORDER BY i.path, q.id`,
    )
    .all(round.id) as { id: string; text: string; path: string }[];
  db.close();
  const labels = new Map<string, YesNo>();
  for (const p of round.prompts) for (const a of p.answers) for (const c of a.claims) labels.set(c.questionId, { pYes: c.pYes, pNo: c.pNo });
  const todo = new Map<string, { id: string; text: string }[]>();
  for (const q of rows) {
    let s = null;
    try {
      s = parseStatement(q.text);
    } catch {
      s = null;
    }
    if (s === null) continue;
    const canonical = renderStatement({ ...s, mood: 'question' });
    if (canonical === q.text) continue;
    let l = todo.get(q.path);
    if (!l) todo.set(q.path, (l = []));
    l.push({ id: q.id, text: canonical });
  }
  const pool = new WorkerPool(config.workers);
  const model = (config.label.backend as { model: string }).model;
  const labeler = new LocalLabeler(pool, model, config.label.suffix);
  if (labeler.id !== round.labeler) throw new Error(`The configured labeler ${labeler.id} is not the round's (${round.labeler}).`);
  let reworded = 0;
  try {
    await mapLimit([...todo], pool.size.workers * 2, async ([image, qs]) => {
        const res = await labeler.label(image, qs.map((q) => q.text));
        qs.forEach((q, k) => {
          const r = res[k]!;
          labels.set(q.id, r.error ? { pYes: null, pNo: null } : { pYes: r.pYes, pNo: r.pNo });
          reworded++;
        });
      });
  } finally {
    await pool.close();
  }
  return { labels, reworded, questions: rows.length };
}

// ---------------------------------------------------------------- variants
const VARIANTS: Variant[] = [
  { name: 'default: diff 1, 2 pairs per prompt, balance on' },
  { name: 'diff 2', diff: 2 },
  { name: 'diff 0.5 (REJ-P: share gap ≥ 0.5)', diff: 0.5 },
  { name: 'all pairs per prompt', maxPairs: 'all' },
  { name: 'diff 2, all pairs per prompt', diff: 2, maxPairs: 'all' },
  { name: 'tie rule: paper (p_yes = p_no accepted)', acceptRule: 'paper' },
  { name: 'length balance tie-break: larger r', tieBreak: 'larger' },
  { name: 'length balance off', lengthBalance: false },
];

interface Cell {
  pairs: number;
  accuracy: number | null;
  inverted: number | null;
}
interface VariantLine {
  name: string;
  rejc: Cell;
  rejp: Cell;
}

const cellOf = (r: PairRow): Cell => {
  const q = r.after ?? r.before;
  return { pairs: q.pairs, accuracy: q.pair_accuracy, inverted: q.inverted_share };
};

/** Mean of cells (over seeds of a simulated labeler); null shares are left out of the mean. */
function meanCell(cs: Cell[]): Cell {
  const m = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return { pairs: m(cs.map((c) => c.pairs))!, accuracy: m(cs.map((c) => c.accuracy)), inverted: m(cs.map((c) => c.inverted)) };
}

function linesFor(round: EvalRound, truths: ReturnType<typeof judgeRound>, verdicts: (seed: number) => VerdictSource, nSeeds: number): VariantLine[] {
  return VARIANTS.map((v) => {
    const per = (method: 'rejc' | 'rejp') =>
      meanCell(
        Array.from({ length: nSeeds }, (_, s) => cellOf(variantRows(round, [{ ...v, method, verdicts: verdicts(s + 1) }], truths)[0]!)),
      );
    return { name: v.name, rejc: per('rejc'), rejp: per('rejp') };
  });
}

const fmtN = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
function variantTable(lines: VariantLine[]): string {
  return table([
    ['variant', 'REJ-C pairs', 'accurate', 'inverted', 'REJ-P pairs', 'accurate', 'inverted'],
    ...lines.map((l) => [
      l.name,
      fmtN(l.rejc.pairs),
      pct(l.rejc.accuracy),
      pct(l.rejc.inverted),
      fmtN(l.rejp.pairs),
      pct(l.rejp.accuracy),
      pct(l.rejp.inverted),
    ]),
  ]);
}

function formTable(l: LabelFigures, other?: LabelFigures): string {
  const forms = Object.keys(l.by_form) as (keyof typeof l.by_form)[];
  const head = ['form', 'claims', 'share', 'false', 'labeler acc.', 'wrong verdicts'];
  if (other) head.push('canonical acc.');
  const wrongTotal = l.n - (l.tp + l.tn);
  return table([
    head,
    ...forms.map((f) => {
      const q = l.by_form[f]!;
      const row = [f, String(q.n), pct(q.n / l.n), pct(q.false_share), pct(q.accuracy), pct((q.n - q.tp - q.tn) / wrongTotal)];
      if (other) row.push(pct(other.by_form[f]?.accuracy ?? null));
      return row;
    }),
  ]);
}

// ---------------------------------------------------------------- main
const roundRow = await theRound();
const db = openDb(dbFile, { readonly: true });
const round = loadEvalRound(db, roundRow.id);
db.close();
const report = evaluateRound(round);
const truths = judgeRound(round);

const out: string[] = [];
out.push(renderReport(report));

const labelerLines = linesFor(round, truths, () => ({ kind: 'labeler' }), 1);
out.push('variants, the tiny labeler (final pairs: after length balance unless off)');
out.push(variantTable(labelerLines));

const simulated: Record<string, VariantLine[]> = {};
for (const acc of [0.9, 0.97]) {
  simulated[String(acc)] = linesFor(round, truths, (seed) => ({ kind: 'noisy', accuracy: acc, seed }), seeds);
  out.push(`\nvariants, a simulated labeler right on ${pct(acc)} of the questions (mean of ${seeds} seeds)`);
  out.push(variantTable(simulated[String(acc)]!));
}

const sweepAcc = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99, 1];
const sweep = sweepAcc.map((acc) => {
  const l = linesFor(round, truths, (seed) => ({ kind: 'noisy', accuracy: acc, seed }), acc === 1 ? 1 : seeds)[0]!;
  return { accuracy: acc, rejc: l.rejc, rejp: l.rejp };
});
out.push(`\ndefault settings vs the labeler's accuracy per question (simulated; mean of ${seeds} seeds)`);
out.push(
  table([
    ['labeler accuracy', 'REJ-C pairs', 'accurate', 'inverted', 'REJ-P pairs', 'accurate', 'inverted'],
    ...sweep.map((s) => [pct(s.accuracy), fmtN(s.rejc.pairs), pct(s.rejc.accuracy), pct(s.rejc.inverted), fmtN(s.rejp.pairs), pct(s.rejp.accuracy), pct(s.rejp.inverted)]),
  ]),
);

// Pair accuracy by the instruction's kind: REJ-C and REJ-P pair different prompts.
const KINDS = ['detailed', 'listing', 'attribute', 'position', 'counting'];
function byKind(verdicts: (seed: number) => VerdictSource, nSeeds: number): Record<string, { rejc: Cell; rejp: Cell }> {
  const out: Record<string, { rejc: Cell; rejp: Cell }> = {};
  const cells = (method: 'rejc' | 'rejp') => {
    const per: Record<string, Cell[]> = {};
    for (let s = 1; s <= nSeeds; s++) {
      const made = pairRound(round, truths, roundSetting(round, method, verdicts(s)));
      const kindOf = new Map(round.prompts.map((p) => [p.id, p.kind ?? '?']));
      for (const k of KINDS) {
        const q = pairQuality(made.pairs.filter((p) => p.balanceKept && kindOf.get(p.promptId) === k), truths);
        (per[k] ??= []).push({ pairs: q.pairs, accuracy: q.pair_accuracy, inverted: q.inverted_share });
      }
    }
    return per;
  };
  const c = cells('rejc');
  const p = cells('rejp');
  for (const k of KINDS) out[k] = { rejc: meanCell(c[k]!), rejp: meanCell(p[k]!) };
  return out;
}
const kinds = {
  labeler: byKind(() => ({ kind: 'labeler' }), 1),
  simulated_0_97: byKind((seed) => ({ kind: 'noisy', accuracy: 0.97, seed }), seeds),
  oracle: byKind(() => ({ kind: 'oracle' }), 1),
};
const promptsOfKind = (k: string) => round.prompts.filter((p) => p.kind === k).length;
out.push(`\nfinal pairs by instruction kind, default settings: pairs (accurate)`);
out.push(
  table([
    ['kind', 'prompts', 'labeler REJ-C', 'labeler REJ-P', 'sim. 97% REJ-C', 'sim. 97% REJ-P', 'oracle REJ-C', 'oracle REJ-P'],
    ...KINDS.map((k) => [
      k,
      String(promptsOfKind(k)),
      ...(['labeler', 'simulated_0_97', 'oracle'] as const).flatMap((src) =>
        (['rejc', 'rejp'] as const).map((m) => `${fmtN(kinds[src][k]![m].pairs)} (${pct(kinds[src][k]![m].accuracy)})`),
      ),
    ]),
  ]),
);

process.stderr.write('labeling the questions in the canonical wording …\n');
const canon = await canonicalLabels(round);
const canonSrc: VerdictSource = { kind: 'labels', name: 'canonical', labels: canon.labels };
const canonLabel = labelFigures(round, truths, canonSrc);
const canonRows = variantRows(round, [
  { name: 'REJ-C', verdicts: canonSrc },
  { name: 'REJ-P', method: 'rejp', verdicts: canonSrc },
], truths);
out.push(`\nwhere the labeler's errors are: by question form (claims with a known truth)`);
out.push(formTable(report.label, canonLabel));
out.push(
  `\nthe same labeler asked the world's canonical wording (${canon.reworded} of ${canon.questions} questions reworded, ` +
    `e.g. "Are there two shapes in the image?" -> "Are there two shapes?"): accuracy ${pct(canonLabel.accuracy)}, ` +
    `precision ${pct(canonLabel.precision)}, recall ${pct(canonLabel.recall)}; ` +
    canonRows.map((r) => `${r.name} ${cellOf(r).pairs} pairs, ${pct(cellOf(r).accuracy)} accurate, ${pct(cellOf(r).inverted)} inverted`).join('; '),
);

process.stdout.write(out.join('\n') + '\n');
if (jsonOut) {
  const figures = {
    round: report.round,
    db: path.relative(ROOT, dbFile),
    prompts: report.prompts,
    eval: report,
    variants: { labeler: labelerLines, ...Object.fromEntries(Object.entries(simulated).map(([k, v]) => [`simulated_${k}`, v])) },
    seeds,
    sweep,
    by_kind: kinds,
    canonical: { reworded: canon.reworded, questions: canon.questions, label: canonLabel, rejc: cellOf(canonRows[0]!), rejp: cellOf(canonRows[1]!) },
  };
  writeFileSync(jsonOut, JSON.stringify(figures, null, 2) + '\n');
  process.stderr.write(`figures written to ${jsonOut}\n`);
}
