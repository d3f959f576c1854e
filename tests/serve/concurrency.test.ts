// ONLINE-RL.md §6.4.4: 1,024 concurrent single-sample OpenRLHF requests over 128 images × 8 (the VLM example's
// rollout) against the built server: every one answered 200 within OpenRLHF's 180 s client timeout, each answer stored
// exactly once. (Latency and throughput are measured by `npm run bench -- --only serve`, not here.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEV } from '../helpers/paths.js';
import { post, spawnServe, stopServe } from './helpers.js';

interface DevPrompt {
  image: string;
  question: string;
  meta: { truth: { objects: { color: string; shape: string; position: string }[] } };
}

const prompts = readFileSync(path.join(DEV, 'prompts.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DevPrompt);

/** Sample k of a prompt: a true sentence about one of its shapes, and on odd k a false one. */
function sample(p: DevPrompt, k: number): string {
  const objs = p.meta.truth.objects;
  const o = objs[k % objs.length]!;
  return `The ${o.color} ${o.shape} is in the ${o.position}.` + (k % 2 ? ` There is a ${o.color === 'green' ? 'red' : 'green'} hexagon.` : '') + ` (${k})`;
}

let server: { url: string; child: ChildProcess };
beforeAll(async () => {
  server = await spawnServe({ workers: 2 });
});
afterAll(() => stopServe(server.child));

describe('OpenRLHF concurrency', () => {
  it('answers 1,024 concurrent single-sample requests (128 images × 8), each stored once', async () => {
    const jobs = prompts.slice(0, 128).flatMap((p) => Array.from({ length: 8 }, (_, k) => ({ p, k })));
    const results = await Promise.all(
      jobs.map(({ p, k }) =>
        post(`${server.url}/get_reward`, {
          query: [`<|im_start|>user\n<|vision_start|>${'<|image_pad|>'.repeat(256)}<|vision_end|>${p.question}<|im_end|>\n<|im_start|>assistant\n${sample(p, k)}<|im_end|>`],
          prompts: [''],
          labels: [JSON.stringify({ image: p.image, question: p.question })],
        }),
      ),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    for (const r of results) expect(r.body.rewards).toHaveLength(1);
    const info = (await (await fetch(`${server.url}/v1/info`)).json()) as { answers_stored: number; batches: number };
    expect(info.answers_stored).toBe(1024);
    // Gathered: far fewer batches than requests.
    expect(info.batches).toBeLessThan(200);
  });
});
