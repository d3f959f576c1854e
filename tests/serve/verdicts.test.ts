// startServer's `verdicts` (studies only, the online study's oracle arm): the claims are still divided and labeled, but
// their verdicts, and so the reward, come from the given source; an image it knows nothing of is an error item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RewardServer } from '../../src/serve/server.js';
import { IMG, post, QUESTION, RIGHT, testServer, WRONG } from './helpers.js';

let server: RewardServer;
let known: string | null = null;
beforeAll(async () => {
  // The source calls every question about a circle false and knows only the first image it is asked about.
  ({ server } = await testServer(undefined, {
    verdicts: (image) => {
      known ??= image.id;
      return image.id === known ? (q) => /circle/i.test(q) : null;
    },
  }));
});
afterAll(async () => {
  await server?.close();
});

describe('startServer verdicts', () => {
  it("replaces the labeler's verdicts in the reward and the claims, and refuses an unknown image as one error item", async () => {
    const item = (id: string, image: unknown) => ({ id, image, question: QUESTION, completion: `${RIGHT} ${WRONG}` });
    const r = await post(`${server.url}/v1/rewards`, { detail: 'claims', items: [item('a', { path: IMG })] });
    expect(r.status).toBe(200);
    const a = r.body.items[0];
    // The labeler accepts the blue circle and rejects the green star; this source does the opposite.
    expect(a).toMatchObject({ status: 'ok', n_accepted: 1, n_rejected: 1 });
    expect(a.claims.find((c: any) => /circle/i.test(c.question)).verdict).toBe('rejected');
    expect(a.claims.find((c: any) => /star/i.test(c.question)).verdict).toBe('accepted');
    const other = await post(`${server.url}/v1/rewards`, { items: [item('b', { path: 'images/dev-0001.png' }), item('c', { path: IMG })] });
    expect(other.body.items[0]).toMatchObject({ id: 'b', status: 'error', reward: null });
    expect(other.body.items[0].reason).toMatch(/^verdicts: none known for image /);
    expect(other.body.items[1]).toMatchObject({ id: 'c', status: 'ok', reward: a.reward });
  });
});
