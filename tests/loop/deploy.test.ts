// The loop with a served policy: after training, the deploy hook has the real test server (backed by the tiny models)
// load the new checkpoint folder under a new name, the loop waits until GET /models lists it, and the evaluation and
// the next round sample from that served model. A hook that never gets the model served is recorded and retried.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runLoop } from '../../src/loop/index.js';
import { loopCommands, openDb } from '../../src/store/index.js';
import { TestServer } from '../helpers/openai-server.js';
import { POLICY, ROOT, tempDir } from '../helpers/paths.js';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({ workers: 1 });
});
afterAll(async () => {
  await server?.close();
});

function served(deployCommand: string, readyMs = 30_000, model = 'policy-r{round}') {
  const dir = tempDir('rlaifv-deploy-');
  const db = path.join(dir, 'loop.sqlite');
  const config = loadConfig(undefined, { db, workers: 1 }).config;
  config.generate = { ...config.generate, samples: 3, max_new_tokens: 48, backend: { ...openaiDefaults(), model: 'shapes-policy', base_urls: [server.url] } };
  // Training is not what this test is about: the trainer copies its parent (a real command leaving a real folder).
  config.loop = {
    ...config.loop,
    trainer: 'cp -r {policy} {out}',
    eval_samples: 3,
    deploy: { command: deployCommand, model, start_checkpoint: POLICY, ready_timeout_ms: readyMs },
  };
  return { config, db };
}

function openaiDefaults() {
  return {
    type: 'openai' as const,
    model: '',
    base_urls: [] as string[],
    max_in_flight: 4,
    timeout_ms: 60_000,
    max_retries: 2,
    min_backoff_ms: 50,
    max_backoff_ms: 500,
    rest_after_failures: 3,
    rest_ms: 1000,
  };
}

const HOOK = `node {root}/scripts/deploy/load-adapter.mjs ${'URL'} {model} {checkpoint}`;

describe('the deploy hook of a served policy', () => {
  test('serves each checkpoint under its own name; evaluation samples from it', async () => {
    const { config, db } = served(HOOK.replace('URL', server.url));
    const r = await runLoop(config, { rounds: 1, limit: 6, evalLimit: 4 });
    expect(r.rounds[0]!.served_model).toBe('policy-r1');
    expect(r.rounds[0]!.eval?.false_claim_rate).toBeTypeOf('number');
    // The checkpoint's evaluation went to the newly served model: 4 held-out prompts × (3 sampled + 1 greedy), a request each.
    expect(server.stats.byModel['policy-r1']).toBe(16);
    const d = openDb(db, { readonly: true });
    try {
      const cmds = loopCommands(d, r.loop.id);
      expect(cmds.map((c) => [c.step, c.exit_code])).toEqual([
        ['train', 0],
        ['deploy', 0],
      ]);
      expect(cmds[1]!.command).toContain(`${ROOT}/scripts/deploy/load-adapter.mjs`);
    } finally {
      d.close();
    }
  });

  test('a hook after which the model is never served fails the step; the rerun retries only the deploy', async () => {
    const { config, db } = served('true', 1500, 'never-r{round}');
    await expect(runLoop(config, { rounds: 1, limit: 6, evalLimit: 4 })).rejects.toThrow(/did not serve "never-r1" within 1500 ms/);
    config.loop.deploy = { ...config.loop.deploy!, command: HOOK.replace('URL', server.url), model: 'fixed-r{round}' };
    const r = await runLoop(config, { rounds: 1, limit: 6, evalLimit: 4 });
    expect(r.rounds[0]!.served_model).toBe('fixed-r1');
    const d = openDb(db, { readonly: true });
    try {
      expect(loopCommands(d, r.loop.id).map((c) => [c.step, c.exit_code, c.reason === null])).toEqual([
        ['train', 0, true],
        ['deploy', 0, false],
        ['deploy', 0, true],
      ]);
    } finally {
      d.close();
    }
  });
});
