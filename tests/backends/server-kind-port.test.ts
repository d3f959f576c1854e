// The kind of server detected per base URL is forgotten between tests (tests/helpers/fresh-server-kinds.ts): a port
// the OS hands out again belongs to a new server. A doctor test had probed an SGLang test server as vLLM, because a
// vLLM test server of an earlier file in the same process had held its port ("no runtime adapter route (POST
// /v1/load_lora_adapter: HTTP 404 Not Found)" where SGLang's "LoRA is not enabled" was expected).
import { beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:net';
import { serverKind } from '../../src/backends/openai/server-kind.js';
import type { WorkerPool } from '../../src/backends/local/pool.js';
import { TestServer } from '../../scripts/mimic/openai-server.js';
import { sharedPool } from '../helpers/file-pool.js';

let pool: WorkerPool;
let port = 0;
beforeAll(async () => {
  pool = sharedPool(2);
  // A port that was free a moment ago, for both servers in turn.
  port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
});

describe('server kinds on a port used again', () => {
  test('a vLLM server on the port is detected as vLLM', async () => {
    const s = await TestServer.start({ pool, mimic: 'vllm', port });
    try {
      expect(await serverKind('auto', `${s.url}`, null)).toBe('vllm');
    } finally {
      await s.close();
    }
  });

  test('an SGLang server on the same port afterwards is detected as SGLang', async () => {
    const s = await TestServer.start({ pool, mimic: 'sglang', port });
    try {
      expect(await serverKind('auto', `${s.url}`, null)).toBe('sglang');
    } finally {
      await s.close();
    }
  });
});
