// How serve cuts answers into batches with a served labeler (the test server, scripts/mimic/openai-server.ts): batches
// of a few answers per labeler slot, several labeled at once. The rewards and counts must be what one answer at a time
// gives through the same labeler, and every answer is stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { DEV, serverBackend } from '../helpers/paths.js';
import { post, testServer } from './helpers.js';
import { sharedPool } from '../helpers/file-pool.js';

interface DevPrompt {
  image: string;
  question: string;
  meta: { truth: { objects: { color: string; shape: string; position: string }[] } };
}

const prompts = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DevPrompt);

/** 12 images × 4 answers: a true sentence about a shape, and on odd k a false one. */
const items = prompts.slice(0, 12).flatMap((p, i) =>
  Array.from({ length: 4 }, (_, k) => {
    const o = p.meta.truth.objects[k % p.meta.truth.objects.length]!;
    const completion = `The ${o.color} ${o.shape} is in the ${o.position}.${k % 2 ? ' There is a green hexagon.' : ''} (${k})`;
    return { id: `${i}.${k}`, image: { path: p.image }, question: p.question, completion };
  }),
);

let labeler: TestServer;
beforeAll(async () => {
  labeler = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
});
afterAll(() => labeler.close());

/** The items' replies from a server with this labeler, `maxBatch` answers per batch at most. */
async function score(maxBatch: number, send: (url: string) => Promise<{ body: any }[]>) {
  const { server } = await testServer((c) => {
    c.label.backend = serverBackend(labeler.url, 'shapes-labeler');
    c.serve.max_batch_items = maxBatch;
  });
  try {
    const replies = (await send(server.url)).flatMap((r) => r.body.items);
    const info = (await (await fetch(`${server.url}/v1/info`)).json()) as { answers_stored: number; batches: number };
    return { replies, info };
  } finally {
    await server.close();
  }
}

describe('serve batching with a served labeler', () => {
  it('labels batches of a few answers per slot side by side, with the rewards one answer at a time gives', async () => {
    // 48 answers in one request and 4 labeler slots: batches of 16 answers (4 a slot), labeled up to 4 at once.
    const lanes = await score(4096, (url) => Promise.all([post(`${url}/v1/rewards`, { items })]));
    // The reference: every answer alone in its batch (serve.max_batch_items 1).
    const alone = await score(1, (url) => Promise.all([post(`${url}/v1/rewards`, { items })]));
    expect(lanes.info.answers_stored).toBe(items.length);
    expect(lanes.info.batches).toBeGreaterThanOrEqual(3);
    expect(alone.info.batches).toBeGreaterThanOrEqual(items.length);
    expect(lanes.replies.map((r) => r.status)).toEqual(items.map(() => 'ok'));
    const pick = (r: any) => ({ id: r.id, reward: r.reward, n_claims: r.n_claims, n_accepted: r.n_accepted, n_rejected: r.n_rejected });
    expect(lanes.replies.map(pick)).toEqual(alone.replies.map(pick));
    // The false sentence is rejected on the odd answers (the tiny labeler takes image 6's green star for the hexagon,
    // so 22 of 24): the comparison is of real scores, not of empty ones.
    expect(lanes.replies.filter((r) => r.n_rejected > 0).length).toBeGreaterThanOrEqual(items.length / 2 - 2);
  });

  it('takes answers that arrive while batches are labeled, each stored once', async () => {
    // Requests sent in two waves: the second arrives while the first's batches are being labeled.
    const { replies, info } = await score(4096, async (url) => {
      const first = post(`${url}/v1/rewards`, { items: items.slice(0, 24) });
      await new Promise((r) => setTimeout(r, 50));
      return Promise.all([first, ...items.slice(24).map((it) => post(`${url}/v1/rewards`, { items: [it] }))]);
    });
    expect(replies.map((r) => r.status)).toEqual(items.map(() => 'ok'));
    expect(info.answers_stored).toBe(items.length);
  });
});
