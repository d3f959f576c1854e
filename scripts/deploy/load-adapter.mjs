#!/usr/bin/env node
// A deploy hook for `rlaifv loop`: asks an OpenAI-compatible server to serve a checkpoint folder under a name, with
// vLLM's runtime adapter API (POST <base>/load_lora_adapter {lora_name, lora_path}; vLLM must run with
// VLLM_ALLOW_RUNTIME_LORA_UPDATING=True and --enable-lora). rlaifv's test server speaks the same API for full folders.
//   node scripts/deploy/load-adapter.mjs http://127.0.0.1:8000/v1 policy-r1 /path/to/checkpoint
// An API key, if the server wants one, is read from the environment variable named by RLAIFV_DEPLOY_KEY_ENV.
const [base, name, dir] = process.argv.slice(2);
if (!base || !name || !dir) {
  process.stderr.write('usage: load-adapter.mjs BASE_URL NAME CHECKPOINT_DIR\n');
  process.exit(2);
}
const keyEnv = process.env.RLAIFV_DEPLOY_KEY_ENV;
const headers = { 'content-type': 'application/json' };
if (keyEnv && process.env[keyEnv]) headers.authorization = `Bearer ${process.env[keyEnv]}`;
const res = await fetch(`${base.replace(/\/$/, '')}/load_lora_adapter`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ lora_name: name, lora_path: dir }),
  signal: AbortSignal.timeout(600_000),
});
const text = await res.text();
if (!res.ok) {
  process.stderr.write(`load_lora_adapter failed: HTTP ${res.status}: ${text}\n`);
  process.exit(1);
}
process.stderr.write(`${text}\n`);
