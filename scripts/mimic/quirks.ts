// Behaviours of real servers that answer the way rlaifv does not expect, each behind a test-server option (see
// ../shared/SERVERS.md, "Second reading", S1–S7). V = vllm-project/vllm, S = sgl-project/sglang.
import type { Mimic } from './mimic.js';

/** The options that switch the behaviours on (ServerOptions takes them; the standalone server has a flag for each). */
export interface Quirks {
  /**
   * --seed-ignored. SGLang with --enable-deterministic-inference on its OpenAI routes: "I use the OpenAI client to send
   * requests with different seeds; however, I get the same answer for all different seeds" (S issue #15746, chat,
   * 2025-12-24, closed inactive; #15481 for /v1/completions, fixed there only by PR #15498). Every request samples
   * with the same seed, so all N samples of a prompt are the same text.
   */
  seedIgnored?: boolean;
  /**
   * --cap-max-tokens N. vLLM V entrypoints/utils.py@97c10e4 get_max_tokens: `min(val for val in (default_max_tokens,
   * max_tokens, max_output_tokens, default_sampling_params.get("max_tokens")) if val is not None)`, where the default
   * comes from the model's generation_config.json max_new_tokens: an explicit max_tokens above it is cut to it, and the
   * answer ends "length" (a later copy, @00fc880, uses the default only as a fallback). The tiny models' own
   * generation_config.json says 96.
   */
  capMaxTokens?: number;
  /**
   * SGLang's GET /v1/models lists each loaded adapter by its bare name (S PR #12229 from issue #12221, Oct 2025:
   * `ModelCard(id=lora_ref.lora_name, root=lora_ref.lora_path, parent=served_model_names[0])`), while a request reaches
   * the adapter only as "base:adapter" (S serving_base.py _parse_model_parameter: `if ":" not in model: return model,
   * None`); any other name is served by the base (S issue #31404). Default on in sglang mode; false is SGLang before
   * #12229 (only the base listed).
   */
  listAdapters?: boolean;
  /**
   * vLLM's sticky load_inplace: V entrypoints/openai/models/serving.py@00153c8 keeps `LoRARequest(…,
   * load_inplace=request.load_inplace)` in self.lora_requests, so every later generation with that adapter reloads it
   * from disk (V issue #33791; open fixes PR #36373 "subsequent inference requests kept carrying load_inplace=True",
   * PR #41482 "lora reloads from disk every generation, leading to massive slowdowns"; prime-rl PR #2921 patches it at
   * vLLM 0.24). The cost of one reload here, in ms (default 100); each reload is counted at GET /metrics. vllm-legacy
   * (before PR #31326 added load_inplace) ignores the field, as OpenAIBaseModel(extra="allow") ignores any unknown one.
   */
  inplaceReloadMs?: number;
  /**
   * vLLM --max-lora-rank (default 16): an adapter whose adapter_config.json `r` is larger fails add_lora with
   * V lora/worker_manager.py _load_adapter's ValueError, which models/serving.py answers as a 500 with str(e).
   */
  maxLoraRank?: number;
  /**
   * vLLM without --enable-lora while VLLM_ALLOW_RUNTIME_LORA_UPDATING is set: the routes exist, add_lora raises
   * V v1/worker/lora_model_runner_mixin.py's RuntimeError("LoRA is not enabled."), answered as a 500.
   */
  loraDisabled?: boolean;
  /**
   * SGLang: GET /model_info is the route; /get_model_info is deprecated ("use /model_info instead", logged as to be
   * removed in a future version). true: the deprecated route is gone (a release after the removal).
   */
  noGetModelInfo?: boolean;
}

/** vLLM's texts for the add_lora failures above. */
export const LORA_TEXTS = {
  rank: (r: number, max: number) => `LoRA rank ${r} is greater than max_lora_rank ${max}.`,
  disabled: () => 'LoRA is not enabled.',
};

/**
 * GET /version per mode: the release whose behaviours the mode copies, and which behaviours this server has on
 * (the `mimic` field is the test server's own, so a test or a user can see what the mode proves).
 * - vllm: 0.17.0. Its behaviours: nested errors (≥ 0.10.1, PR #22099), load_inplace (PR #31326, 2025-12) and its
 *   sticky reload (unfixed), `reasoning` instead of `reasoning_content` (PR #27752 added it, PR #33402 removed the old
 *   name, 2026-01), /tokenize expanding images (PR #34560; V PR #35834, 2026-03-03: /tokenize did not expand images
 *   on 0.15.1 and 0.16.0, so the first release with all of these is after 0.16.0). The sticky reload is unfixed there.
 * - vllm-legacy: 0.9.2: flat errors, no load_inplace (the field is ignored), `reasoning_content`.
 * SGLang has no /version; its /model_info and /get_server_info say what it is.
 */
export function versionBody(mode: Mimic, on: string[]): { version: string; mimic: { mode: Mimic; behaviours: string[] } } {
  return { version: mode === 'vllm' ? '0.17.0' : '0.9.2', mimic: { mode, behaviours: on } };
}

/** The quirks a server has on, by the names of their flags (for /version and the standalone banner). */
export function quirksOn(mode: Mimic, q: Quirks): string[] {
  const on: string[] = [];
  if (q.seedIgnored) on.push('seed-ignored');
  if (q.capMaxTokens !== undefined) on.push(`cap-max-tokens ${q.capMaxTokens}`);
  if (mode === 'sglang' && q.listAdapters !== false) on.push('models-list-adapters-by-bare-name');
  if (mode === 'vllm') on.push(`sticky-load-inplace ${q.inplaceReloadMs ?? 100}ms`);
  if (q.maxLoraRank !== undefined) on.push(`max-lora-rank ${q.maxLoraRank}`);
  if (q.loraDisabled) on.push('lora-disabled');
  if (mode === 'sglang') on.push(q.noGetModelInfo ? 'model-info-only' : 'model-info,get-model-info-deprecated');
  return on;
}

/** GET /metrics in Prometheus text: the mimic's count of sticky load_inplace reloads per adapter. */
export function metricsText(reloads: ReadonlyMap<string, number>): string {
  const lines = ['# HELP rlaifv_mimic_lora_inplace_reloads_total Adapter reloads from disk caused by a sticky load_inplace (vLLM #33791).', '# TYPE rlaifv_mimic_lora_inplace_reloads_total counter'];
  for (const [name, n] of reloads) lines.push(`rlaifv_mimic_lora_inplace_reloads_total{lora_name="${name}"} ${n}`);
  return lines.join('\n') + '\n';
}
