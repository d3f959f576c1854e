// The shapes DPO trainer (scripts/shapes/dpo.py, Debian's python3-torch) as the loop calls it: on pairs a real round
// made and `rlaifv pull --format trl` wrote. Its checkpoint must load in rlaifv as a policy, name its parent and pairs,
// be the same bytes for the same seed, and move the policy toward the chosen answers; unusable input exits 2 naming
// the file, line and field.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { hashCheckpoint } from '../../src/util/checkpoint.js';
import { WorkerPool } from '../../src/backends/local/pool.js';
import { LocalGenerator } from '../../src/backends/local/index.js';
import { runNode } from '../helpers/run-cli.js';
import { DPO, python as runPython } from '../helpers/python.js';
import { pythonForks } from '../helpers/python-forks.js';
import { DEV, POLICY, ROOT, tempDir } from '../helpers/paths.js';

// A run that trains is a fork of one Python that imported torch once (about half a short run's CPU); a run the
// trainer must refuse is its own `python3 dpo.py` command, as a user types it (it exits before importing torch).
const forks = pythonForks();
afterAll(() => forks.close());
const python = (args: string[]) => forks.run(DPO, args);
const command = (args: string[]) => runPython(DPO, args);

const files = (dir: string, rel = ''): string[] =>
  readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(dir, path.join(rel, e.name)) : [path.join(rel, e.name)]));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** A run started by the first test that needs it and shared by the others, so any order of the tests works. */
const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};

let dir: string;
let pairs: string;
/** The checkpoint {dir}/a: 4 epochs on the round's pairs. */
const trainA = once(() => python(['--pairs', pairs, '--policy', POLICY, '--out', path.join(dir, 'a'), '--seed', '1', '--epochs', '4', '--batch-size', '8', '--lr', '1e-4', '--json']));
beforeAll(async () => {
  dir = tempDir('rlaifv-dpo-');
  const db = path.join(dir, 'r.sqlite');
  // 12 prompts make 16 pairs (24 made twice as many): every one of the file's ~25 trainer runs passes over them, and no
  // assertion here needs more (the 4-epoch run still ends at reward accuracy 1.0).
  const run = await runNode(['run', '--limit', '12', '--samples', '6', '--db', db, '--workers', '2', '--quiet']);
  expect(run.code, run.stderr).toBe(0);
  pairs = path.join(dir, 'pairs.jsonl');
  const pull = await runNode(['pull', '--consumer', 't', '--format', 'trl', '--out', pairs, '--db', db]);
  expect(pull.code, pull.stderr).toBe(0);
});

describe('scripts/shapes/dpo.py', () => {
  test('0 steps gives the parent\'s ONNX files back byte for byte', async () => {
    const out = path.join(dir, 'zero');
    const r = await python(['--pairs', pairs, '--policy', POLICY, '--out', out, '--max-steps', '0']);
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['vision_encoder.onnx', 'embed_tokens.onnx', 'decoder_model_merged.onnx']) {
      expect(sha256(path.join(out, 'onnx', f)), f).toBe(sha256(path.join(POLICY, 'onnx', f)));
    }
  });

  test('a checkpoint\'s ONNX files are its parent\'s graphs with the trained weights: the bytes tracing the export gives', async () => {
    // The trainers write a checkpoint's weights into a copy of the parent's graphs instead of tracing the export again
    // (0.4 s of CPU per export). onnx_export_check.py moves every parameter of the policy and writes it both ways; it
    // also traces the policy as loaded, which must give the shipped files back (the load is exact, which the 0-step
    // run above no longer shows by itself: there the weights go back into the same graphs they were read from).
    const out = path.join(dir, 'export');
    const r = await forks.run(path.join(ROOT, 'tests', 'loop', 'onnx_export_check.py'), [POLICY, out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('exporting by tracing'); // the fallback for a parent whose graphs do not fit
    for (const f of ['vision_encoder.onnx', 'embed_tokens.onnx', 'decoder_model_merged.onnx']) {
      const [reloaded, traced, patched] = ['reloaded', 'traced', 'patched'].map((d) => sha256(path.join(out, d, 'onnx', f)));
      expect(reloaded, f).toBe(sha256(path.join(POLICY, 'onnx', f)));
      expect(patched, f).toBe(traced);
      expect(patched, f).not.toBe(reloaded);
    }
    expect(hashCheckpoint(path.join(out, 'patched'))).toBe(hashCheckpoint(path.join(out, 'traced')));
  });

  test('writes the policy folder\'s layout plus train.json; the card names parent and pairs; the loss falls', async () => {
    const out = path.join(dir, 'a');
    const r = await trainA();
    expect(r.code, r.stderr).toBe(0);
    expect(files(out).filter((f) => f !== 'train.json').sort()).toEqual(files(POLICY).sort());
    const info = JSON.parse(readFileSync(path.join(out, 'train.json'), 'utf8'));
    const nPairs = readFileSync(pairs, 'utf8').trim().split('\n').length;
    expect(info.parent).toMatchObject({ path: POLICY, sha256: hashCheckpoint(POLICY) });
    expect(info.pairs).toMatchObject({ path: pairs, sha256: sha256(pairs), count: nPairs });
    expect(info.hyperparameters).toMatchObject({ beta: 0.1, lr: 1e-4, epochs: 4, batch_size: 8, seed: 1 });
    const card = readFileSync(path.join(out, 'README.md'), 'utf8');
    expect(card).toContain(sha256(pairs));
    expect(card).toContain(hashCheckpoint(POLICY));
    const e = info.epochs as { loss: number; reward_accuracy: number }[];
    expect(e).toHaveLength(4);
    expect(e[0]!.loss).toBeLessThan(0.7); // ln 2 = 0.693 before any step
    expect(e[3]!.loss).toBeLessThan(e[0]!.loss);
    expect(e[3]!.reward_accuracy).toBeGreaterThan(0.8);
    expect(JSON.parse(r.stdout).steps).toBe(info.steps);
    // A new name, so stores and reports tell checkpoints apart.
    expect(JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8'))._name_or_path).toMatch(/^rlaifv\/shapes-policy-dpo-[0-9a-f]{12}$/);
  });

  test('rlaifv loads the checkpoint as its local policy and samples from it', async () => {
    const a = await trainA();
    expect(a.code, a.stderr).toBe(0);
    const pool = new WorkerPool(1);
    try {
      const g = new LocalGenerator(pool, path.join(dir, 'a'));
      const out = await g.generate({
        imagePath: path.join(DEV, 'images', 'dev-0003.png'),
        question: 'Describe the image in detail.',
        samples: [{ index: 0, seed: 5 }, { index: 1, seed: 6 }],
        decoding: { temperature: 0.7, top_p: 1, max_new_tokens: 64 },
      });
      for (const s of out) {
        expect('text' in s && s.text.length > 0, JSON.stringify(s)).toBe(true);
      }
    } finally {
      await pool.close();
    }
  });

  test('the same seed gives the same bytes; another seed other weights', async () => {
    const args = (out: string, seed: string) => ['--pairs', pairs, '--policy', POLICY, '--out', out, '--seed', seed, '--epochs', '1', '--batch-size', '8'];
    const [b, c, d] = ['b', 'c', 'd'].map((x) => path.join(dir, x)) as [string, string, string];
    // Independent runs, started together.
    const runs = await Promise.all(([[b, '7'], [c, '7'], [d, '8']] as const).map(([out, seed]) => python(args(out, seed))));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(hashCheckpoint(b)).toBe(hashCheckpoint(c));
    expect(sha256(path.join(d, 'onnx', 'decoder_model_merged.onnx'))).not.toBe(sha256(path.join(b, 'onnx', 'decoder_model_merged.onnx')));
  });

  test('unusable input exits 2 naming the file, line and field; nothing is written', async () => {
    const bad = path.join(dir, 'bad');
    mkdirSync(bad);
    const first = readFileSync(pairs, 'utf8').split('\n')[0]!;
    const cases: [string, string, RegExp][] = [
      ['empty.jsonl', '', /empty.jsonl: no pairs \(the file is empty\)/],
      ['text.jsonl', 'chosen,rejected\n', /text.jsonl:1: not JSON/],
      ['nofield.jsonl', `${first}\n${JSON.stringify({ ...JSON.parse(first), rejected: undefined })}\n`, /nofield.jsonl:2: field rejected: missing/],
      ['role.jsonl', JSON.stringify({ ...JSON.parse(first), chosen: [{ role: 'user', content: 'x' }] }) + '\n', /role.jsonl:1: field chosen: must be a list of one assistant message/],
      ['image.jsonl', JSON.stringify({ ...JSON.parse(first), images: [path.join(dir, 'nope.png')] }) + '\n', /image.jsonl:1: field images: cannot read image/],
    ];
    // Independent commands, started together (each exits before it imports torch).
    const [results, missing, exists] = await Promise.all([
      Promise.all(
        cases.map(([name, text]) => {
          writeFileSync(path.join(bad, name), text);
          return command(['--pairs', path.join(bad, name), '--policy', POLICY, '--out', path.join(bad, `${name}.out`)]);
        }),
      ),
      command(['--pairs', path.join(bad, 'missing.jsonl'), '--policy', POLICY, '--out', path.join(bad, 'm')]),
      command(['--pairs', pairs, '--policy', POLICY, '--out', bad]),
    ]);
    cases.forEach(([name, , want], i) => {
      expect(results[i]!.code, name).toBe(2);
      expect(results[i]!.stderr, name).toMatch(want);
      expect(existsSync(path.join(bad, `${name}.out`)), name).toBe(false);
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing.jsonl: no such pairs file/);
    expect(exists.code).toBe(2);
    expect(exists.stderr).toMatch(/already exists/);
  });
});

describe('claim spans and token-weighted DPO (--spans, --token-weight γ)', () => {
  let spansFile: string;
  beforeAll(async () => {
    // The same pairs pulled again with their claim spans (a second consumer, so the same pairs are delivered).
    spansFile = path.join(dir, 'pairs-spans.jsonl');
    const pull = await runNode(['pull', '--consumer', 'spans', '--format', 'trl', '--out', spansFile, '--spans', '--db', path.join(dir, 'r.sqlite')]);
    expect(pull.code, pull.stderr).toBe(0);
  });

  test('each span is a claim\'s source text in its answer, with the labeler\'s verdict; Parquet refuses --spans', async () => {
    const rows = readFileSync(spansFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBe(readFileSync(pairs, 'utf8').trim().split('\n').length);
    let rejected = 0;
    for (const r of rows) {
      for (const side of ['chosen', 'rejected'] as const) {
        const text = r[side][0].content[0].text as string;
        for (const s of r[`${side}_spans`]) {
          expect(text.slice(s.start, s.end).length).toBe(s.end - s.start);
          // The rules divider's span runs from the claim's first word to its last (no edge spaces or closing period).
          expect(text.slice(s.start, s.end)).toMatch(/^\w[\s\S]*\w$/);
          expect(['rejected', 'accepted', 'unjudged']).toContain(s.verdict);
          if (s.verdict === 'rejected') {
            rejected++;
            expect(s.p_no).toBeGreaterThan(0.5);
          }
        }
      }
    }
    expect(rejected).toBeGreaterThan(0);
    const pq = await runNode(['export', '--round', 'latest', '--format', 'trl', '--out', path.join(dir, 'x.parquet'), '--spans', '--db', path.join(dir, 'r.sqlite')]);
    expect(pq.code).toBe(2);
    expect(pq.stderr).toContain('--spans: claim spans are written to JSON Lines and JSON files only');
  });

  test('γ = 1 gives the checkpoint of plain DPO byte for byte; γ = 3 trains another; missing spans are named', async () => {
    const args = (out: string) => ['--policy', POLICY, '--out', out, '--seed', '1', '--epochs', '1', '--batch-size', '16'];
    // Today's trainer on the spans file (it ignores the extra columns) and γ = 1: the same folder, every byte.
    const [plain, one, three, noSpans] = await Promise.all([
      python(['--pairs', spansFile, ...args(path.join(dir, 'g-plain'))]),
      python(['--pairs', spansFile, ...args(path.join(dir, 'g-1')), '--token-weight', '1']),
      python(['--pairs', spansFile, ...args(path.join(dir, 'g-3')), '--token-weight', '3', '--json']),
      python(['--pairs', pairs, ...args(path.join(dir, 'g-nospans'))]),
    ]);
    for (const r of [plain, one, three, noSpans]) expect(r.code, r.stderr).toBe(0);
    expect(hashCheckpoint(path.join(dir, 'g-1'))).toBe(hashCheckpoint(path.join(dir, 'g-plain')));
    // The same pairs without spans train the same weights (only the provenance, the pairs file's SHA-256, differs).
    for (const f of ['vision_encoder.onnx', 'embed_tokens.onnx', 'decoder_model_merged.onnx']) {
      expect(sha256(path.join(dir, 'g-nospans', 'onnx', f))).toBe(sha256(path.join(dir, 'g-plain', 'onnx', f)));
    }
    expect(sha256(path.join(dir, 'g-3', 'onnx', 'decoder_model_merged.onnx'))).not.toBe(sha256(path.join(dir, 'g-plain', 'onnx', 'decoder_model_merged.onnx')));
    expect(JSON.parse(readFileSync(path.join(dir, 'g-3', 'train.json'), 'utf8')).hyperparameters.token_weight).toBe(3);
    // A correction's chosen side marks the sentences its editor wrote "edited": they weigh γ as rejected ones do. The
    // same pairs with every chosen span marked edited (verdicts left accepted) train other weights at γ 3, the same at γ 1.
    const edited = path.join(dir, 'pairs-edited.jsonl');
    writeFileSync(
      edited,
      readFileSync(spansFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const r = JSON.parse(l);
          return JSON.stringify({ ...r, chosen_spans: r.chosen_spans.map((x: object) => ({ ...x, edited: true })) });
        })
        .join('\n') + '\n',
    );
    const [e3, e1, missing] = await Promise.all([
      python(['--pairs', edited, ...args(path.join(dir, 'e-3')), '--token-weight', '3']),
      python(['--pairs', edited, ...args(path.join(dir, 'e-1')), '--token-weight', '1']),
      command(['--pairs', pairs, ...args(path.join(dir, 'g-x')), '--token-weight', '3']),
    ]);
    for (const r of [e3, e1]) expect(r.code, r.stderr).toBe(0);
    expect(sha256(path.join(dir, 'e-3', 'onnx', 'decoder_model_merged.onnx'))).not.toBe(sha256(path.join(dir, 'g-3', 'onnx', 'decoder_model_merged.onnx')));
    expect(sha256(path.join(dir, 'e-1', 'onnx', 'decoder_model_merged.onnx'))).toBe(sha256(path.join(dir, 'g-plain', 'onnx', 'decoder_model_merged.onnx')));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/pairs\.jsonl:1: field chosen_spans: missing; --token-weight needs claim spans/);
  });
});

describe('stored reference log-probs (pair.reference_logprobs, --reference, --write-reference)', () => {
  let onnxFile: string;
  let bothFile: string;
  const args = (out: string) => ['--policy', POLICY, '--out', out, '--seed', '1', '--epochs', '1', '--batch-size', '16', '--json'];
  const json = (r: { stdout: string }) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { reference: string; epochs: { loss: number }[] };
  const rows = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  /** {dir}/r-own: the reference computed by the trainer's own pass, written to pairs-own.jsonl. */
  const trainOwn = once(() =>
    python(['--pairs', onnxFile, ...args(path.join(dir, 'r-own')), '--reference', 'compute', '--write-reference', path.join(dir, 'pairs-own.jsonl')]),
  );
  beforeAll(async () => {
    // The finished round gets its reference log-probs afterwards (the setting is not in the config hash), then a
    // pull carries them as ref_chosen_logps / ref_rejected_logps.
    const cfg = path.join(dir, 'ref-config.json');
    writeFileSync(cfg, JSON.stringify({ pair: { reference_logprobs: true } }));
    const db = path.join(dir, 'r.sqlite');
    const add = await runNode(['pair', '--config', cfg, '--round', '1', '--samples', '6', '--db', db, '--workers', '2', '--quiet']);
    expect(add.code, add.stderr).toBe(0);
    onnxFile = path.join(dir, 'pairs-onnx.jsonl');
    const pull = await runNode(['pull', '--consumer', 'ref', '--format', 'trl', '--out', onnxFile, '--reference-logprobs', '--db', db]);
    expect(pull.code, pull.stderr).toBe(0);
    bothFile = path.join(dir, 'pairs-spans-ref.jsonl');
    const both = await runNode(['pull', '--consumer', 'ref-spans', '--format', 'trl', '--out', bothFile, '--reference-logprobs', '--spans', '--db', db]);
    expect(both.code, both.stderr).toBe(0);
  });

  test('stored values that are the trainer\'s own pass give the same checkpoint, every byte; the pairing-time (ONNX) ones are within float noise', async () => {
    const ownFile = path.join(dir, 'pairs-own.jsonl');
    const own = await trainOwn();
    expect(own.code, own.stderr).toBe(0);
    expect(json(own).reference).toBe('compute');
    // The same pairs file, the reference from the file (auto) or from the pass: one checkpoint.
    const [stored, computed, onnx] = await Promise.all([
      python(['--pairs', ownFile, ...args(path.join(dir, 'r-stored'))]),
      python(['--pairs', ownFile, ...args(path.join(dir, 'r-computed')), '--reference', 'compute']),
      python(['--pairs', onnxFile, ...args(path.join(dir, 'r-onnx'))]),
    ]);
    for (const r of [stored, computed]) expect(r.code, r.stderr).toBe(0);
    expect(json(stored).reference).toBe('stored');
    expect(json(computed).reference).toBe('compute');
    expect(hashCheckpoint(path.join(dir, 'r-stored'))).toBe(hashCheckpoint(path.join(dir, 'r-computed')));
    for (const f of ['vision_encoder.onnx', 'embed_tokens.onnx', 'decoder_model_merged.onnx']) {
      expect(sha256(path.join(dir, 'r-stored', 'onnx', f)), f).toBe(sha256(path.join(dir, 'r-own', 'onnx', f)));
    }
    // The pairing-time values (onnxruntime in rlaifv) differ from torch's in the last digits only.
    const a = rows(onnxFile);
    const b = rows(ownFile);
    expect(b.length).toBe(a.length);
    let max = 0;
    a.forEach((r, i) => {
      for (const k of ['ref_chosen_logps', 'ref_rejected_logps']) max = Math.max(max, Math.abs((r[k] as number) - (b[i]![k] as number)));
    });
    expect(max).toBeGreaterThan(0);
    expect(max).toBeLessThan(1e-4);
    expect(onnx.code, onnx.stderr).toBe(0);
    expect(json(onnx).reference).toBe('stored');
    expect(json(onnx).epochs[0]!.loss).toBeCloseTo(json(own).epochs[0]!.loss, 4);
  });

  test('--reference stored without them, a file where only some rows have them, or a bad value exit 2; --ref or γ ≠ 1 compute', async () => {
    const lines = readFileSync(onnxFile, 'utf8').trim().split('\n');
    const mixed = path.join(dir, 'mixed.jsonl');
    const { ref_chosen_logps: _c, ref_rejected_logps: _r, ...bare } = JSON.parse(lines[1]!);
    writeFileSync(mixed, [lines[0], JSON.stringify(bare), ...lines.slice(2)].join('\n') + '\n');
    const bad = path.join(dir, 'bad-ref.jsonl');
    writeFileSync(bad, JSON.stringify({ ...JSON.parse(lines[0]!), ref_chosen_logps: 'x' }) + '\n');
    const [none, m, b, refused] = await Promise.all([
      command(['--pairs', pairs, ...args(path.join(dir, 'x1')), '--reference', 'stored']),
      command(['--pairs', mixed, ...args(path.join(dir, 'x2'))]),
      command(['--pairs', bad, ...args(path.join(dir, 'x3'))]),
      command(['--pairs', bothFile, ...args(path.join(dir, 'x6')), '--token-weight', '3', '--reference', 'stored']),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--reference stored: the pairs file has no ref_chosen_logps\/ref_rejected_logps/);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/pairs carry ref_chosen_logps and ref_rejected_logps, pair 2 does not/);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad-ref.jsonl:1: field ref_chosen_logps: must be a log-prob/);
    for (const o of [path.join(dir, 'x1'), path.join(dir, 'x2'), path.join(dir, 'x3')]) expect(existsSync(o)).toBe(false);
    // Stored values are the starting policy's plain sums: another reference, or token weights, need the pass.
    const own = await trainOwn();
    expect(own.code, own.stderr).toBe(0);
    const [other, weighted] = await Promise.all([
      python(['--pairs', onnxFile, ...args(path.join(dir, 'x4')), '--ref', path.join(dir, 'r-own'), '--max-steps', '1']),
      python(['--pairs', bothFile, ...args(path.join(dir, 'x5')), '--token-weight', '3', '--max-steps', '1']),
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(json(other).reference).toBe('compute');
    expect(other.stderr).toMatch(/computing the reference log-probs: --ref names another reference than --policy/);
    expect(weighted.code, weighted.stderr).toBe(0);
    expect(json(weighted).reference).toBe('compute');
    expect(weighted.stderr).toMatch(/computing the reference log-probs: --token-weight weighs the reference's tokens too/);
    expect(refused.code).toBe(2);
  });
});
