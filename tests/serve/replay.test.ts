// ONLINE-RL.md §6.4: each trainer's exact reward call, replayed with real /usr/bin/python3 (torch and PIL from Debian)
// through the adapters in scripts/integrations/ against the built `rlaifv serve` with the tiny local models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import { DEV, ROOT, tempDir } from '../helpers/paths.js';
import { spawnServe, stopServe } from './helpers.js';

const DRIVER = path.join(ROOT, 'tests', 'serve', 'replay_trainers.py');
let server: { url: string; child: ChildProcess; dir: string };

/** Runs one replay; resolves with its JSON summary (rejects with its stderr when a check failed). */
function replay(name: string, env: Record<string, string> = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn('/usr/bin/python3', [DRIVER, name], { env: { ...process.env, RLAIFV_URL: server.url, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`${name} exited ${code}: ${err}`))));
  });
}

beforeAll(async () => {
  server = await spawnServe({ workers: 2 });
});
afterAll(() => stopServe(server.child));

describe('trainer replays', () => {
  it('1. OpenRLHF per sample: a Qwen query with 256 image pads gives float lists of length 1; the completion cut is the one sent', async () => {
    const r = await replay('openrlhf-single');
    const db = openDb(path.join(server.dir, 'serve.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM candidates WHERE text = ?').get(r.completion)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('2. OpenRLHF empty request: 200 with empty lists', async () => {
    expect(await replay('openrlhf-empty')).toEqual({ ok: true });
  });

  it('3. OpenRLHF batched: 64 samples give lists of 64 in request order that torch.cat takes', async () => {
    const r = await replay('openrlhf-batch');
    expect(r.distinct_rewards).toBeGreaterThan(1);
  });

  it('5. TRL GRPO: B floats or None, each distinct PIL image uploaded once', async () => {
    const r = await replay('trl-grpo');
    expect(r.uploads).toBe(4);
  });

  it('6. TRL Online DPO: the sync adapter runs without an event loop', async () => {
    expect(await replay('trl-online-dpo')).toEqual({ n: 16 });
  });

  it('7. verl: 2,560 concurrent compute_score calls each return {score, ...} with the same scalar keys', async () => {
    const r = await replay('verl');
    expect(r.keys).toEqual(['n_accepted', 'n_claims', 'n_rejected', 'precision', 'rej_c', 'rej_p', 'score']);
  });

  it('8. EasyR1: 2,560 reward inputs give 2,560 dicts with overall', async () => {
    expect((await replay('easyr1')).n).toBe(2560);
  });

  it('9. ms-swift: RlaifvORM takes images as a path, a URL and a {bytes, path} dict; it registers as rlaifv when ms-swift is there', async () => {
    expect((await replay('swift')).rewards).toHaveLength(3);
    expect(await replay('swift-registered')).toEqual({ registered: true });
  });

  it('writes RL prompt files with the image reference where each trainer reads it', async () => {
    const dir = tempDir();
    for (const format of ['trl-grpo', 'verl-rl', 'easyr1-rl', 'openrlhf-rl', 'swift-grpo']) {
      const out = path.join(dir, `${format}.jsonl`);
      const code = await new Promise((resolve) =>
        spawn('/usr/bin/python3', [path.join(ROOT, 'scripts', 'integrations', 'rl_prompts.py'), '--prompts', path.join(DEV, 'prompts.jsonl'), '--format', format, '--image-root', DEV, '--out', out], { stdio: 'ignore' }).on('close', resolve),
      );
      expect(code).toBe(0);
      const first = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!);
      const ref = { 'trl-grpo': first.rlaifv_image, 'verl-rl': first.extra_info?.rlaifv?.image, 'easyr1-rl': first.answer && JSON.parse(first.answer).image, 'openrlhf-rl': first.rlaifv_ref && JSON.parse(first.rlaifv_ref).image, 'swift-grpo': first.images?.[0] }[format];
      expect(ref, format).toMatch(/images\/dev-0000\.png$/);
    }
  });
});
