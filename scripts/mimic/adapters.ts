// The test server's served models and its runtime adapter routes, as each real server has them:
// - vLLM (V entrypoints/serve/lora/api_router.py, entrypoints/openai/models/serving.py): POST /v1/load_lora_adapter
//   and /v1/unload_lora_adapter exist only with VLLM_ALLOW_RUNTIME_LORA_UPDATING=True (and --enable-lora); a PEFT
//   adapter folder (adapter_config.json) is required; a name already loaded is refused unless load_inplace; GET
//   /v1/models lists each adapter as its own card (root = its path, parent = the base).
// - SGLang (S entrypoints/http_server.py): POST /load_lora_adapter and /unload_lora_adapter at the root, answered
//   {success, message}; GET /v1/models lists each adapter by its bare name (PR #12229; quirks.ts listAdapters), yet an
//   adapter is served only when asked for as "base:adapter", any other name by the base. A full
//   checkpoint replaces the base's weights through POST /update_weights_from_disk.
// - rlaifv (the server as it always was): the vLLM routes, always on, taking any model folder.
//
// The tiny models have no LoRA: an adapter folder this server loads also holds a whole model (the tests' trainer
// copies a checkpoint and adds adapter_config.json), and that model answers for the adapter.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HttpError, TEXTS, type Mimic } from './mimic.js';
import { LORA_TEXTS, type Quirks } from './quirks.js';
import type { ServedModel } from './openai-server.js';

type Body = Record<string, unknown>;

/** A reply of SGLang's native routes: their own body (not an error envelope) with its status. */
export interface SglangReply {
  status: number;
  body: unknown;
}

/** The served models of one test server, and what loading adapters does to them. */
export class Adapters {
  /** Adapters loaded at run time: name → the folder served for it. */
  readonly loaded = new Map<string, string>();
  /** vLLM: adapters loaded with load_inplace, reloaded from disk at every generation (quirks.ts inplaceReloadMs). */
  readonly sticky = new Set<string>();
  /** Reloads caused by a sticky load_inplace, per adapter (GET /metrics). */
  readonly reloads = new Map<string, number>();
  /** Load requests that carried load_inplace: true (whatever the mode made of it). */
  inplaceRequests = 0;

  constructor(
    private readonly mode: Mimic,
    /** The server's models; the first vision model is the base adapters belong to. */
    private readonly models: Record<string, ServedModel>,
    /** vLLM: whether the runtime adapter routes exist (VLLM_ALLOW_RUNTIME_LORA_UPDATING). */
    public enabled: boolean,
    private readonly quirks: Quirks = {},
  ) {}

  /** The cost of serving a request for `name`: a sticky load_inplace adapter is reloaded (counted), else nothing. */
  reloadMs(name: string): number {
    if (!this.sticky.has(name)) return 0;
    this.reloads.set(name, (this.reloads.get(name) ?? 0) + 1);
    return this.quirks.inplaceReloadMs ?? 100;
  }

  private get base(): string {
    return Object.entries(this.models).find(([, m]) => m.kind === 'vlm')?.[0] ?? Object.keys(this.models)[0]!;
  }

  /** The model a request's `model` names, or the server's error for a name it does not serve. */
  resolve(name: string): ServedModel {
    if (this.mode === 'sglang') {
      // S serving_base / lora_registry: "base:adapter" asks for a loaded adapter (the base part is not checked); any
      // other name is not looked at: SGLang serves what it was started with. (This server serves several models, so
      // an unknown name gets its first vision model, as a one-model SGLang would answer.)
      const colon = name.indexOf(':');
      if (colon > 0) {
        const adapter = name.slice(colon + 1);
        const dir = this.loaded.get(adapter);
        if (!dir) {
          const keys = [...this.loaded.keys()].map((k) => `'${k}'`).join(', ');
          throw new HttpError(400, `The following requested LoRA adapters are not loaded: ${adapter}\nLoaded adapters: odict_keys([${keys}]).`);
        }
        return { kind: 'vlm', dir };
      }
      return this.models[name] ?? this.models[this.base]!;
    }
    const m = this.models[name];
    if (m) return m;
    const dir = this.loaded.get(name);
    if (dir) return { kind: 'vlm', dir };
    // V models/serving.py check_model.
    throw new HttpError(404, TEXTS.modelMissing(name), 'NotFoundError', 'model');
  }

  /** GET /v1/models as each server lists it. */
  modelList(): unknown {
    const created = Math.floor(Date.now() / 1000);
    if (this.mode === 'rlaifv') {
      return { object: 'list', data: [...Object.keys(this.models), ...this.loaded.keys()].map((id) => ({ id, object: 'model', owned_by: 'rlaifv-tests' })) };
    }
    const owner = this.mode === 'sglang' ? 'sglang' : 'vllm';
    const card = (id: string, root: string, parent: string | null) => ({
      id, object: 'model', created, owned_by: owner, root, parent, max_model_len: 160,
      ...(owner === 'vllm' ? { permission: [{ id: `modelperm-${id}`, object: 'model_permission', created, allow_create_engine: false, allow_sampling: true, allow_logprobs: true, allow_search_indices: false, allow_view: true, allow_fine_tuning: false, organization: '*', group: null, is_blocking: false }] } : {}),
    });
    const bases = Object.entries(this.models).map(([id, m]) => card(id, 'dir' in m ? m.dir : id, null));
    // vLLM adds one card per loaded adapter; SGLang too since PR #12229 (by bare name), before it only the base (#12221).
    const loras = this.mode === 'sglang' && this.quirks.listAdapters === false ? [] : [...this.loaded].map(([id, dir]) => card(id, dir, this.base));
    return { object: 'list', data: [...bases, ...loras] };
  }

  private fields(body: Body): { name: string; dir: string } {
    const name = body.lora_name;
    const dir = body.lora_path;
    // V _check_load_lora_adapter_request (S would fail its request validation: a 400 either way).
    if (typeof name !== 'string' || !name || typeof dir !== 'string' || !dir) throw new HttpError(400, "Both 'lora_name' and 'lora_path' must be provided.", 'InvalidUserInput');
    return { name, dir };
  }

  /** vLLM's POST /v1/load_lora_adapter. */
  loadVllm(body: Body): string {
    const { name, dir } = this.fields(body);
    // vllm-legacy predates load_inplace (PR #31326): the field is ignored like any unknown one.
    if (body.load_inplace === true) this.inplaceRequests++;
    const inplace = body.load_inplace === true && this.mode === 'vllm';
    if ((this.loaded.has(name) || this.models[name]) && !inplace) {
      throw new HttpError(400, `The lora adapter '${name}' has already been loaded. If you want to load the adapter in place, set 'load_inplace' to True.`, 'InvalidUserInput');
    }
    const need = this.mode === 'rlaifv' ? 'config.json' : 'adapter_config.json';
    if (!existsSync(path.join(dir, need))) {
      if (this.mode === 'rlaifv') throw new HttpError(400, `${dir} is not a model folder (no config.json)`);
      // V lora/worker_manager.py: a folder without adapter_config.json is LoRAAdapterNotFoundError, answered 404.
      throw new HttpError(404, `Loading lora ${name} failed: No adapter found for ${dir}`, 'NotFoundError');
    }
    // Any other add_lora failure is a 500 with the exception's text (V models/serving.py load_lora_adapter).
    if (this.quirks.loraDisabled) throw new HttpError(500, LORA_TEXTS.disabled(), 'InternalServerError');
    const rank = this.rankOf(dir);
    const max = this.quirks.maxLoraRank ?? 16;
    if (this.mode !== 'rlaifv' && rank !== null && rank > max) throw new HttpError(500, LORA_TEXTS.rank(rank, max), 'InternalServerError');
    this.loaded.set(name, dir);
    if (inplace) this.sticky.add(name);
    return `Success: LoRA adapter '${name}' added successfully.`;
  }

  /** An adapter folder's rank (adapter_config.json `r`), null when it says none. */
  private rankOf(dir: string): number | null {
    try {
      const r = (JSON.parse(readFileSync(path.join(dir, 'adapter_config.json'), 'utf8')) as { r?: unknown }).r;
      return typeof r === 'number' ? r : null;
    } catch {
      return null;
    }
  }

  /** vLLM's POST /v1/unload_lora_adapter. */
  unloadVllm(body: Body): string {
    const name = String(body.lora_name ?? '');
    if (!this.loaded.delete(name)) throw new HttpError(404, `The lora adapter '${name}' cannot be found.`, 'NotFoundError');
    this.sticky.delete(name);
    return `Success: LoRA adapter '${name}' removed successfully.`;
  }

  /**
   * SGLang's POST /load_lora_adapter: its LoRAUpdateOutput {success, error_message, loaded_adapters} as the body, 200
   * or 400 (S http_server.py load_lora_adapter; lora/lora_manager.py validate_new_adapter for a name already loaded).
   */
  loadSglang(body: Body): SglangReply {
    const { name, dir } = this.fields(body);
    if (!this.enabled) return this.reply(false, 'LoRA is not enabled. Please set `--enable-lora` to enable LoRA.');
    if (this.loaded.has(name)) return this.reply(false, `Failed to load LoRA adapter ${name} because it is already loaded`);
    // LoRAConfig reads the folder's adapter_config.json first.
    if (!existsSync(path.join(dir, 'adapter_config.json'))) return this.reply(false, `[Errno 2] No such file or directory: '${path.join(dir, 'adapter_config.json')}'`);
    this.loaded.set(name, dir);
    return this.reply(true, '');
  }

  /** SGLang's POST /unload_lora_adapter. */
  unloadSglang(body: Body): SglangReply {
    const name = String(body.lora_name ?? '');
    if (!this.enabled) return this.reply(false, 'LoRA is not enabled. Please set `--enable-lora` to enable LoRA.');
    if (!this.loaded.delete(name)) return this.reply(false, `LoRA adapter ${name} is not loaded.`);
    return this.reply(true, '');
  }

  private reply(success: boolean, message: string): SglangReply {
    return { status: success ? 200 : 400, body: { success, error_message: message, loaded_adapters: Object.fromEntries(this.loaded) } };
  }

  /** SGLang's POST /update_weights_from_disk: the base model's weights replaced by a checkpoint's; its name stays. */
  updateWeights(body: Body): SglangReply {
    const dir = body.model_path;
    if (typeof dir !== 'string') return { status: 400, body: { success: false, message: 'model_path is required' } };
    if (!existsSync(path.join(dir, 'config.json'))) return { status: 400, body: { success: false, message: `Failed to get weights iterator: ${dir} (repository not found).`, num_paused_requests: 0 } };
    const base = this.base;
    const m = this.models[base];
    if (m?.kind !== 'vlm') return { status: 400, body: { success: false, message: 'no base model' } };
    this.models[base] = { ...m, dir };
    return { status: 200, body: { success: true, message: 'Succeeded to update model weights.', num_paused_requests: 0 } };
  }

  /** SGLang's GET /model_info (and its deprecated /get_model_info). */
  modelInfo(): unknown {
    const m = this.models[this.base];
    return { model_path: m && 'dir' in m ? m.dir : this.base, tokenizer_path: m && 'dir' in m ? m.dir : this.base, is_generation: true };
  }
}
