// kill -9 under load loses nothing already answered, a restart serves again on the same store and round, and
// `rlaifv pair` makes DPO pairs from the groups a trainer sampled, which `pull` delivers.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import { runNode } from '../helpers/run-cli.js';
import { post, QUESTION, spawnServe, stopServe } from './helpers.js';

// dev-0000 holds a blue circle (middle left) and red circles (top left, center, middle right); no star, no square.
const TRUE = ['The blue circle is in the middle left.', 'There is a red circle in the center.', 'There is a red circle at the top left.'];
const FALSE = ['There is a green star.', 'There is a yellow square.', 'The blue circle is at the bottom right.', 'There is a purple triangle.'];

/** Answer k: a mix of true and false sentences, all different. */
function answer(k: number): string {
  return [TRUE[k % 3]!, ...(k % 2 ? [FALSE[k % 4]!] : []), ...(k % 5 === 0 ? [TRUE[(k + 1) % 3]!] : []), `(${k})`].join(' ');
}

const request = (url: string, k: number) =>
  post(`${url}/get_reward`, {
    query: [`<|im_start|>user\n<|vision_start|>${'<|image_pad|>'.repeat(64)}<|vision_end|>${QUESTION}<|im_end|>\n<|im_start|>assistant\n${answer(k)}<|im_end|>`],
    prompts: [''],
    labels: [JSON.stringify({ image: 'images/dev-0000.png', question: QUESTION })],
  });

describe('serve: kill -9, restart, pair', () => {
  it('keeps every answered answer exactly once after kill -9, then serves again on the same round; rlaifv pair pairs the online round', async () => {
    const first = await spawnServe({});
    const answered: number[] = [];
    const inflight = Array.from({ length: 48 }, (_, k) =>
      request(first.url, k).then(
        (r) => {
          if (r.status === 200) answered.push(k);
        },
        () => {},
      ),
    );
    // Kill once some are answered, while others are still in flight.
    while (answered.length < 8) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await Promise.all(inflight);
    const file = path.join(first.dir, 'serve.sqlite');
    const db = openDb(file, { readonly: true });
    let roundId: number;
    try {
      roundId = (db.prepare('SELECT round_id FROM online_rounds').get() as { round_id: number }).round_id;
      for (const k of answered) {
        const rows = db.prepare('SELECT c.id, s.n_claims FROM candidates c JOIN scores s ON s.candidate_id = c.id WHERE c.text = ?').all(answer(k));
        expect(rows, `answer ${k}`).toHaveLength(1);
      }
    } finally {
      db.close();
    }
    // A restart on the same store: same round, and the answers a trainer retries are not stored twice.
    const again = await spawnServe({}, first.dir);
    try {
      for (let k = 0; k < 48; k++) expect((await request(again.url, k)).status).toBe(200);
      const info = (await (await fetch(`${again.url}/v1/info`)).json()) as { round: number; answers_stored: number };
      expect(info.round).toBe(roundId);
      expect(info.answers_stored).toBe(48);
    } finally {
      await stopServe(again.child);
    }
    const pair = await runNode(['pair', '--config', again.config, '--round', String(roundId), '--quiet'], { cwd: first.dir });
    expect(pair.code, pair.stderr).toBe(0);
    const pulled = await runNode(['pull', '--config', again.config, '--consumer', 'trainer', '--format', 'trl'], { cwd: first.dir });
    expect(pulled.code, pulled.stderr).toBe(0);
    const pairs = pulled.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { chosen: unknown; rejected: unknown });
    expect(pairs.length).toBeGreaterThan(0);
    const check = openDb(path.join(first.dir, 'serve.sqlite'), { readonly: true });
    try {
      // Every pair's chosen answer has fewer rejected claims than its rejected answer (REJ-C, the default strategy).
      const bad = check
        .prepare('SELECT COUNT(*) AS n FROM pairs p JOIN scores a ON a.candidate_id = p.chosen_id JOIN scores b ON b.candidate_id = p.rejected_id WHERE p.round_id = ? AND a.n_rejected >= b.n_rejected')
        .get(roundId) as { n: number };
      expect(bad.n).toBe(0);
      expect((check.prepare('SELECT COUNT(*) AS n FROM round_prompts WHERE round_id = ?').get(roundId) as { n: number }).n).toBe(1);
    } finally {
      check.close();
    }
  });
});
