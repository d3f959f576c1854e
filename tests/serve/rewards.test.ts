// POST /v1/rewards, /v1/images, /v1/info and /health against the real server with the tiny local models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openDb } from '../../src/store/index.js';
import type { RewardServer } from '../../src/serve/server.js';
import { DEV } from '../helpers/paths.js';
import { IMG, post, QUESTION, RIGHT, testServer, WRONG } from './helpers.js';

let server: RewardServer;
let dbFile: string;
beforeAll(async () => {
  ({ server, db: dbFile } = await testServer());
});
afterAll(async () => {
  await server?.close();
});

const item = (id: string, completion: string, image: unknown = { path: IMG }) => ({ id, image, question: QUESTION, completion });

describe('POST /v1/rewards', () => {
  it('scores each item with its components and, on request, claims with question, p(yes), p(no), verdict and span', async () => {
    const r = await post(`${server.url}/v1/rewards`, { detail: 'claims', items: [item('a', `${RIGHT} ${WRONG}`), item('b', RIGHT)] });
    expect(r.status).toBe(200);
    const [a, b] = r.body.items;
    expect(a).toMatchObject({ id: 'a', status: 'ok', n_claims: 2, n_accepted: 1, n_rejected: 1, rej_c: -1, rej_p: 0.5 });
    expect(a.reward).toBe(1 * 1 - 2 * 1); // default: w_a·1 − w_r·1
    const wrong = a.claims.find((c: any) => c.verdict === 'rejected');
    expect(wrong.question).toMatch(/green star/i);
    expect(wrong.p_no).toBeGreaterThan(wrong.p_yes);
    // The rules divider's span covers the claim's words, not the sentence's closing period.
    expect(`${RIGHT} ${WRONG}`.slice(...(wrong.span as [number, number]))).toBe(WRONG.replace(/\.$/, ''));
    expect(b).toMatchObject({ id: 'b', status: 'ok', reward: 1, n_accepted: 1, n_rejected: 0 });
    expect(r.body.rewards).toEqual([a.reward, b.reward]);
    expect(r.body.meta).toMatchObject({ reward: 'default', divider: 'rules' });
  });

  it('gives the paper rankings under reward "rejc" and "rejp"', async () => {
    const c = await post(`${server.url}/v1/rewards`, { reward: 'rejc', items: [item('a', `${RIGHT} ${WRONG}`)] });
    expect(c.body.items[0].reward).toBe(-1);
    const p = await post(`${server.url}/v1/rewards`, { reward: 'rejp', items: [item('a', `${RIGHT} ${WRONG}`)] });
    expect(p.body.items[0].reward).toBe(-0.5);
  });

  it('scores an empty answer, a refusal and a repeated sentence, none above a right answer', async () => {
    const r = await post(`${server.url}/v1/rewards`, {
      items: [item('right', RIGHT), item('empty', ''), item('refusal', 'I cannot answer that.'), item('repeat', `${RIGHT} ${RIGHT} ${RIGHT}`)],
    });
    const [right, ...rest] = r.body.items;
    expect(right.status).toBe('ok');
    for (const x of rest) {
      expect(x.status).toBe('ok');
      expect(typeof x.reward).toBe('number');
      expect(x.reward).toBeLessThanOrEqual(right.reward);
    }
  });

  it('makes one bad item one error item naming its field, and scores the rest', async () => {
    const r = await post(`${server.url}/v1/rewards`, {
      items: [
        item('ok', RIGHT),
        item('outside', RIGHT, { path: '/etc/passwd' }),
        item('missing', RIGHT, { path: 'images/nope.png' }),
        { id: 'noq', image: { path: IMG }, completion: RIGHT },
        item('two', RIGHT, { path: IMG, url: 'data:,' }),
        item('b64', RIGHT, { b64: Buffer.from('not an image').toString('base64') }),
        item('ftp', RIGHT, { url: 'ftp://x/a.png' }),
      ],
    });
    expect(r.status).toBe(200);
    const [ok, outside, missing, noq, two, b64, ftp] = r.body.items;
    expect(ok.status).toBe('ok');
    expect(outside).toMatchObject({ status: 'error', reward: null });
    expect(outside.reason).toMatch(/items\[1\]\.image\.path: .*outside serve.image_root/);
    expect(missing.reason).toMatch(/items\[2\]\.image\.path/);
    expect(noq.reason).toMatch(/items\[3\]\.question: must be a string/);
    expect(two.reason).toMatch(/items\[4\]\.image: give exactly one/);
    expect(b64.reason).toMatch(/items\[5\]\.image/);
    expect(ftp.reason).toMatch(/items\[6\]\.image\.url: a url must be data: or http/);
    expect(r.body.rewards.slice(1)).toEqual([null, null, null, null, null, null]);
  });

  it('answers 400 naming the field for a bad request, 404 for an unknown route', async () => {
    expect(await post(`${server.url}/v1/rewards`, { items: 'x' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^items: must be a list/) } });
    expect(await post(`${server.url}/v1/rewards`, '{nope')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^body: not valid JSON/) } });
    expect(await post(`${server.url}/v1/rewards`, { items: [], reward: 'best' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^reward: "best"/) } });
    expect((await post(`${server.url}/v1/nothing`, {})).status).toBe(404);
  });

  it('takes images as data: URLs, inline b64 and uploaded sha256, all the same image', async () => {
    const bytes = readFileSync(path.join(DEV, IMG));
    const up = await fetch(`${server.url}/v1/images`, { method: 'POST', body: bytes });
    const { sha256 } = (await up.json()) as { sha256: string };
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const r = await post(`${server.url}/v1/rewards`, {
      items: [
        item('d', RIGHT, { url: `data:image/png;base64,${bytes.toString('base64')}` }),
        item('b', RIGHT, { b64: bytes.toString('base64'), mime: 'image/png' }),
        item('s', RIGHT, { sha256 }),
        item('unknown', RIGHT, { sha256: 'ab'.repeat(32) }),
      ],
    });
    expect(r.body.items.slice(0, 3).map((x: any) => x.reward)).toEqual([1, 1, 1]);
    expect(r.body.items[3].reason).toMatch(/items\[3\]\.image\.sha256: no image/);
  });

  it('is deterministic and stores every scored answer once, with its claims and labels', async () => {
    const body = { detail: 'claims', items: [item('x', `${RIGHT} There is a red circle.`)] };
    const one = await post(`${server.url}/v1/rewards`, body);
    const two = await post(`${server.url}/v1/rewards`, body);
    expect(two.body.items).toEqual(one.body.items);
    const db = openDb(dbFile, { readonly: true });
    try {
      const rows = db.prepare('SELECT id FROM candidates WHERE text = ?').all(`${RIGHT} There is a red circle.`) as { id: string }[];
      expect(rows).toHaveLength(1);
      const claims = db
        .prepare('SELECT cl.claim, l.p_yes FROM claims cl JOIN labels l ON l.question_id = cl.question_id WHERE cl.candidate_id = ? ORDER BY cl.idx')
        .all(rows[0]!.id) as { claim: string; p_yes: number }[];
      expect(claims.map((c) => c.p_yes)).toEqual(one.body.items[0].claims.map((c: any) => c.p_yes));
      const score = db.prepare('SELECT n_claims, n_rejected FROM scores WHERE candidate_id = ?').get(rows[0]!.id);
      expect(score).toEqual({ n_claims: one.body.items[0].n_claims, n_rejected: one.body.items[0].n_rejected });
    } finally {
      db.close();
    }
  });

  it('says its reward definition, config hash and limits on /v1/info, and is healthy', async () => {
    const info = (await (await fetch(`${server.url}/v1/info`)).json()) as any;
    expect(info.reward).toMatchObject({ preset: 'default', accepted_weight: 1, rejected_weight: 2, accepted_cap: 8 });
    expect(info.config_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(info.limits.deadline_ms).toBeLessThan(180_000);
    expect(info.answers_stored).toBeGreaterThan(0);
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
  });
});
