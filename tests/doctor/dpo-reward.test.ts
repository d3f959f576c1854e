// rlaifv doctor for feedback.method "dpo-reward": a served reward model must give answer log-probs (vLLM's
// prompt_logprobs); a server that ignores the field fails with the reason, one that gives them passes. Both against
// the real test server (its log-probs come from the real tiny policy).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { runDoctor } from '../../src/doctor/index.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { tempDir } from '../helpers/paths.js';
import { sharedPool } from '../helpers/file-pool.js';

let good: TestServer;
let bad: TestServer;
beforeAll(async () => {
  good = await TestServer.start({ mimic: 'vllm', pool: sharedPool(1) });
  bad = await TestServer.start({ mimic: 'sglang', workers: 1, pool: good.pool });
});
afterAll(async () => {
  await bad?.close();
  await good?.close();
});

function config(url: string): string {
  const file = path.join(tempDir(), 'rlaifv.json');
  writeFileSync(
    file,
    JSON.stringify({
      db: path.join(tempDir(), 'db.sqlite'),
      // Every model on the server: the doctor runs in this test's process, where a model loaded in-process would
      // outlive the runtime at exit (the CLI tests of the doctor run it as a child process instead).
      generate: { backend: { type: 'openai', model: 'shapes-policy', base_urls: [url] } },
      label: { backend: { type: 'openai', model: 'shapes-labeler', base_urls: [url] } },
      feedback: {
        method: 'dpo-reward',
        dpo_reward: { reference: { type: 'openai', model: 'shapes-policy', base_urls: [url] } },
      },
    }),
  );
  return file;
}

describe('doctor: dpo-reward needs answer log-probs from a served model', () => {
  test('a server that gives prompt log-probs passes, one that ignores them fails with the fix', async () => {
    const ok = await runDoctor({ config: config(good.url) });
    const okRows = ok.checks.filter((c) => c.check === 'feedback.dpo_reward.reference prompt logprobs');
    expect(okRows.map((c) => c.status)).toEqual(['ok']);
    const r = await runDoctor({ config: config(bad.url) });
    const rows = r.checks.filter((c) => c.check === 'feedback.dpo_reward.reference prompt logprobs');
    expect(rows.map((c) => c.status)).toEqual(['fail']);
    expect(rows[0]!.detail).toMatch(/prompt_logprobs/);
    expect(rows[0]!.fix).toBeTruthy();
    expect(r.exitCode).toBe(1);
    // The policy the reward is taken from (the round's, on the good server here) is checked as a served policy.
    expect(r.checks.filter((c) => c.check === 'generate endpoint').map((c) => c.status)).toEqual(['ok']);
  });
});
