#!/usr/bin/env node
// A deploy hook for `rlaifv loop`: serves a trained checkpoint under a name on every endpoint of the policy.
//
//   node scripts/deploy/load-adapter.mjs [--server auto|vllm|sglang] BASE_URL[,BASE_URL...] NAME CHECKPOINT_DIR
//   (in loop.deploy.command: node {root}/scripts/deploy/load-adapter.mjs {base_urls} {model} {checkpoint})
//
// - A PEFT adapter (the folder has adapter_config.json):
//   vLLM: POST <base>/load_lora_adapter {lora_name, lora_path}; the route exists only when vLLM runs with
//   VLLM_ALLOW_RUNTIME_LORA_UPDATING=True and --enable-lora. A name already loaded from the same folder (a rerun after
//   a partial deploy) is success; from another folder the old one is unloaded, then the new one loaded.
//   `load_inplace` is never sent: vLLM keeps it on the adapter and reloads it from disk at every later generation
//   (vllm #33791; fixes PR #36373 and #41482 open). Give each checkpoint its own NAME instead: loop.deploy.model
//   "policy-{hash}" (the checkpoint's content hash).
//   SGLang: POST <root>/load_lora_adapter (not under /v1); requests then name the model "base:adapter", so give NAME
//   as "<served base>:<adapter>" (the part after ':' is the adapter's name). SGLang lists the adapter in /v1/models
//   by its bare name, but serves that name with the base model (sglang #31404).
//   Once the new adapter answers a request, the loop's other adapters (the names that share NAME's part up to its last
//   '-', e.g. "policy-" for "policy-3fa9c1e2b7d0") are unloaded, so one adapter of the loop stays loaded.
//   vLLM's 500s (rank over --max-lora-rank, LoRA not enabled) are reported with the server's text and the flag to set.
// - A full checkpoint (config.json, no adapter_config.json):
//   SGLang: POST <root>/update_weights_from_disk {model_path}: the served model's weights are replaced, its name stays
//   (so NAME is the served name, the same every round).
//   vLLM cannot load a full checkpoint at run time: the hook says so and exits 1; restart the server on the folder
//   instead (docs/remote-servers.md "Run with vLLM": a deploy command that restarts it).
// The checkpoint path is read by the server, so it must be a path on the server's machine (a shared file system).
// An API key, if the servers want one, is read from the environment variable named by RLAIFV_DEPLOY_KEY_ENV.
import { existsSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
let server = 'auto';
const i = args.indexOf('--server');
if (i >= 0) {
  server = args[i + 1] ?? '';
  args.splice(i, 2);
}
const [bases, name, dir] = args;
if (!bases || !name || !dir || !['auto', 'vllm', 'sglang'].includes(server)) {
  process.stderr.write('usage: load-adapter.mjs [--server auto|vllm|sglang] BASE_URL[,BASE_URL...] NAME CHECKPOINT_DIR\n');
  process.exit(2);
}
const keyEnv = process.env.RLAIFV_DEPLOY_KEY_ENV;
const headers = { 'content-type': 'application/json' };
if (keyEnv && process.env[keyEnv]) headers.authorization = `Bearer ${process.env[keyEnv]}`;

const folder = path.resolve(dir);
const adapter = existsSync(path.join(folder, 'adapter_config.json'));
const full = !adapter && existsSync(path.join(folder, 'config.json'));
if (!adapter && !full) {
  process.stderr.write(`${folder}: neither a PEFT adapter (adapter_config.json) nor a model folder (config.json); nothing to serve.\n`);
  process.exit(2);
}

/** GET or POST with a time limit; the body parsed as JSON when it is JSON. */
async function call(method, url, body) {
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(600_000) });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, ok: res.ok, text, json };
}

/** The server's message in any of its error shapes (nested, flat, FastAPI's detail) or its text. */
function said(r) {
  const j = r.json;
  return (j && (j.error?.message ?? j.error_message ?? j.message ?? (typeof j.detail === 'string' ? j.detail : null))) || r.text.trim() || `HTTP ${r.status}`;
}

const rootOf = (base) => base.replace(/\/+$/, '').replace(/\/v1$/, '');

/** vLLM or SGLang: their /v1/models cards say, else their own routes do. */
async function kindOf(base) {
  if (server !== 'auto') return server;
  try {
    const r = await call('GET', `${base.replace(/\/+$/, '')}/models`);
    const owners = (r.json?.data ?? []).map((m) => m.owned_by);
    if (owners.includes('vllm')) return 'vllm';
    if (owners.includes('sglang')) return 'sglang';
  } catch {}
  // SGLang's /model_info; /get_model_info is its deprecated name, kept by older releases.
  for (const route of ['/model_info', '/get_model_info']) {
    try {
      if ((await call('GET', `${rootOf(base)}${route}`)).ok) return 'sglang';
    } catch {}
  }
  return 'vllm';
}

const v1 = (base) => base.replace(/\/+$/, '');

/** The adapters a server lists (cards with a parent: vLLM's, and SGLang's since PR #12229), by name → path. */
async function listedAdapters(base) {
  const r = await call('GET', `${v1(base)}/models`);
  return new Map((r.json?.data ?? []).filter((m) => typeof m.parent === 'string' && m.parent).map((m) => [m.id, String(m.root ?? '')]));
}

/** A 1-token request to the new adapter: it must answer before the old one goes. */
async function answers(base, model) {
  const r = await call('POST', `${v1(base)}/chat/completions`, { model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 1, temperature: 0 });
  if (!r.ok) throw new Error(`the new adapter does not answer as "${model}" (HTTP ${r.status}: ${said(r)}); the previous one stays loaded`);
}

/** The loop's adapters: names sharing the new name's part up to its last '-' (all of them, if it has none). */
function family(adapter) {
  const dash = adapter.lastIndexOf('-');
  return (other) => other !== adapter && (dash <= 0 || other.startsWith(adapter.slice(0, dash + 1)));
}

/** The flag that fixes one of vLLM's add_lora 500s (the server's own text is shown with it). */
function loraFix(text) {
  const rank = /LoRA rank (\d+) is greater than max_lora_rank (\d+)/.exec(text);
  if (rank) return `restart vLLM with --max-lora-rank ${rank[1]} or more (it is ${rank[2]}; the adapter's r in adapter_config.json is ${rank[1]})`;
  if (/LoRA is not enabled/i.test(text)) return 'restart vLLM with --enable-lora (and --max-lora-rank at least the adapter\'s rank)';
  return 'see the server\'s log';
}

async function deployVllm(base) {
  if (full) {
    throw new Error(
      `vLLM cannot load a full checkpoint at run time (its /v1/load_lora_adapter takes PEFT adapters only). ` +
        `Train a LoRA adapter (TRL: peft_config; LLaMA-Factory: --finetuning_type lora), or make loop.deploy.command restart the server on the folder: ` +
        `vllm serve ${folder} --served-model-name ${name} ... (see docs/remote-servers.md "Run with vLLM").`,
    );
  }
  const url = `${v1(base)}/load_lora_adapter`;
  let r = await call('POST', url, { lora_name: name, lora_path: folder });
  if (r.status === 404 && /^not found$/i.test(said(r))) {
    throw new Error(`${url} does not exist: start vLLM with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True in its environment and --enable-lora (with --max-lora-rank at least the adapter's rank).`);
  }
  let note = said(r);
  if (r.status === 400 && /already been loaded/.test(said(r))) {
    // A rerun after a partial deploy: the same folder is done; another folder under the name replaces it (unload, then
    // load: load_inplace would make every later generation reload it).
    const root = (await listedAdapters(base)).get(name);
    if (root !== undefined && path.resolve(root) === folder) note = `already serves ${name} from ${folder}`;
    else {
      const u = await call('POST', `${v1(base)}/unload_lora_adapter`, { lora_name: name });
      if (!u.ok) throw new Error(`unload_lora_adapter ${name}: HTTP ${u.status}: ${said(u)}`);
      r = await call('POST', url, { lora_name: name, lora_path: folder });
      note = said(r);
    }
  }
  if (r.status >= 500) throw new Error(`load_lora_adapter: HTTP ${r.status}: ${said(r).replace(/\.$/, '')}. Fix: ${loraFix(said(r))}.`);
  if (!r.ok && !/^already serves/.test(note)) throw new Error(`load_lora_adapter: HTTP ${r.status}: ${said(r)}`);
  await answers(base, name);
  const gone = [];
  for (const other of [...(await listedAdapters(base)).keys()].filter(family(name))) {
    const u = await call('POST', `${v1(base)}/unload_lora_adapter`, { lora_name: other });
    if (!u.ok) throw new Error(`unload_lora_adapter ${other} (the previous adapter): HTTP ${u.status}: ${said(u)}`);
    gone.push(other);
  }
  return `${note}${gone.length ? `; unloaded ${gone.join(', ')}` : ''}`;
}

async function deploySglang(base) {
  const root = rootOf(base);
  if (full) {
    const r = await call('POST', `${root}/update_weights_from_disk`, { model_path: folder });
    if (!r.ok || r.json?.success === false) throw new Error(`update_weights_from_disk: HTTP ${r.status}: ${said(r)}`);
    return `${r.json?.message ?? 'updated'} (the served name stays; loop.deploy.model must be it)`;
  }
  const colon = name.indexOf(':');
  if (colon <= 0) throw new Error(`SGLang addresses an adapter as "base:adapter": give loop.deploy.model as "<served base>:${name}".`);
  const lora = name.slice(colon + 1);
  let r = await call('POST', `${root}/load_lora_adapter`, { lora_name: lora, lora_path: folder });
  let note = `loaded ${lora} from ${folder}; requests name it ${name}`;
  if (!r.ok && /already loaded/i.test(said(r))) {
    const had = r.json?.loaded_adapters?.[lora];
    if (had && path.resolve(String(typeof had === 'string' ? had : (had.lora_path ?? ''))) === folder) {
      note = `already serves ${lora} from ${folder}`;
      r = { ...r, ok: true, json: { ...r.json, success: true } };
    } else {
      const u = await call('POST', `${root}/unload_lora_adapter`, { lora_name: lora });
      if (!u.ok) throw new Error(`unload_lora_adapter ${lora}: HTTP ${u.status}: ${said(u)}`);
      r = await call('POST', `${root}/load_lora_adapter`, { lora_name: lora, lora_path: folder });
    }
  }
  if (!r.ok || r.json?.success === false) throw new Error(`load_lora_adapter: HTTP ${r.status}: ${said(r)}`);
  await answers(base, name);
  // The loaded adapters: the load reply's loaded_adapters, and /v1/models' cards (SGLang lists them since PR #12229).
  const loaded = new Set([...Object.keys(r.json?.loaded_adapters ?? {}), ...(await listedAdapters(base)).keys()]);
  const gone = [];
  for (const other of [...loaded].filter(family(lora))) {
    const u = await call('POST', `${root}/unload_lora_adapter`, { lora_name: other });
    if (!u.ok || u.json?.success === false) throw new Error(`unload_lora_adapter ${other} (the previous adapter): HTTP ${u.status}: ${said(u)}`);
    gone.push(other);
  }
  return `${note}${gone.length ? `; unloaded ${gone.join(', ')}` : ''}`;
}

let failed = 0;
for (const base of bases.split(',').filter(Boolean)) {
  try {
    const kind = await kindOf(base);
    const msg = kind === 'sglang' ? await deploySglang(base) : await deployVllm(base);
    process.stderr.write(`${base}: ${msg}\n`);
  } catch (e) {
    failed++;
    process.stderr.write(`${base}: ${e.message}\n`);
  }
}
process.exit(failed ? 1 : 0);
