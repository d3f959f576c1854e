// Failure semantics (ONLINE-RL.md §6.4.10) and the safety rules: a labeler endpoint that is down gives error items
// (never a silent 0) and a 503 on /get_reward after its deadline; then a labeler that is back scores the same answers.
// A server on any host but loopback needs an API key.
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { serverBackend } from '../helpers/paths.js';
import type { RewardServer } from '../../src/serve/server.js';
import { IMG, post, QUESTION, RIGHT, testServer, WRONG } from './helpers.js';
import { sharedPool } from '../helpers/file-pool.js';

/** A port on 127.0.0.1 where nothing listens. */
async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of open.reverse()) await s.close();
});

describe('failures', () => {
  it('labeler down: native items are errors with reward null, /get_reward answers 503 after its deadline; a restart with the labeler back scores them', async () => {
    const port = await deadPort();
    const dead = { ...serverBackend(`http://127.0.0.1:${port}/v1`, 'shapes-labeler'), max_retries: 0, timeout_ms: 2000 };
    const { server, db } = await testServer((c) => {
      c.label.backend = dead;
      c.serve.deadline_ms = 2500;
    });
    const items = [{ id: 'a', image: { path: IMG }, question: QUESTION, completion: `${RIGHT} ${WRONG}` }];
    const r = await post(`${server.url}/v1/rewards`, { items });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ id: 'a', status: 'error', reward: null });
    expect(r.body.items[0].reason).toMatch(/^label: /);
    expect(r.body.rewards).toEqual([null]);
    const t0 = performance.now();
    const o = await post(`${server.url}/get_reward`, { query: [`USER: <image>\n${QUESTION} ASSISTANT: ${RIGHT}</s>`], prompts: [''], labels: [{ image: IMG, question: QUESTION }] });
    expect(o.status).toBe(503);
    expect(o.body.error).toMatch(/within serve.deadline_ms \(2500 ms\): label: /);
    expect(performance.now() - t0).toBeGreaterThan(1000);
    await server.close();
    // The labeler is back (served this time): the same answers, stored once, are scored.
    const labeler = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
    open.push(labeler);
    const again = await testServer((c) => (c.label.backend = serverBackend(labeler.url, 'shapes-labeler')), { db });
    open.push(again.server);
    const ok = await post(`${again.server.url}/v1/rewards`, { items });
    expect(ok.body.items[0]).toMatchObject({ status: 'ok', n_accepted: 1, n_rejected: 1 });
    expect(again.server.round.id).toBe(server.round.id);
  });

  it('refuses a host other than loopback without an API key, and with one answers 401 to a request without it', async () => {
    await expect(testServer(undefined, { host: '0.0.0.0' })).rejects.toThrow(/serve.host: 0.0.0.0 is not loopback, so an API key is required; set it in the environment variable RLAIFV_SERVE_KEY/);
    process.env.RLAIFV_TEST_SERVE_KEY = 'k-123';
    let s: RewardServer | null = null;
    try {
      ({ server: s } = await testServer((c) => (c.serve.api_key_env = 'RLAIFV_TEST_SERVE_KEY'), { host: '0.0.0.0' }));
      const url = s.url.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
      expect((await post(`${url}/get_reward`, { query: [], prompts: [], labels: [] })).status).toBe(401);
      expect((await post(`${url}/get_reward`, { query: [], prompts: [], labels: [] }, { authorization: 'Bearer k-12' })).status).toBe(401);
      const good = await post(`${url}/get_reward`, { query: [], prompts: [], labels: [] }, { authorization: 'Bearer k-123' });
      expect(good).toMatchObject({ status: 200, body: { rewards: [] } });
    } finally {
      delete process.env.RLAIFV_TEST_SERVE_KEY;
      await s?.close();
    }
  });

  it('refuses path images without serve.image_root, and URLs from hosts outside serve.url_hosts', async () => {
    const { server } = await testServer((c) => {
      c.serve.image_root = null;
      c.serve.url_hosts = ['images.example.org'];
    });
    open.push(server);
    const r = await post(`${server.url}/v1/rewards`, {
      items: [
        { id: 'p', image: { path: IMG }, question: QUESTION, completion: RIGHT },
        { id: 'u', image: { url: 'http://127.0.0.1:1/a.png' }, question: QUESTION, completion: RIGHT },
      ],
    });
    expect(r.body.items[0].reason).toMatch(/items\[0\]\.image\.path: path images are off; set serve.image_root/);
    expect(r.body.items[1].reason).toMatch(/items\[1\]\.image\.url: host 127.0.0.1 is not in serve.url_hosts/);
  });
});
