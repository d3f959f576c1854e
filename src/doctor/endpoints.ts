// Doctor checks of each endpoint of each remote backend: reachable, the model served (GET /models), a 1-token chat
// completion works (for the labeler: with logprobs and top_logprobs, and "yes"/"no" among the listed tokens). The API
// key is read as a run reads it and never shown: every text that leaves here is redacted.
import OpenAI from 'openai';
import path from 'node:path';
import sharp from 'sharp';
import { PACKAGE_ROOT } from '../config/load.js';
import type { Config, GateJudgeConfig, LlmDividerBackend, OpenAIBackend, RewriterConfig, TeacherConfig } from '../config/schema.js';
import { displayUrl, redact, resolveApiKey, servesModel } from '../backends/openai/endpoints.js';
import { bareAdapterMessage, sglangAdapterName, type ModelCard } from '../backends/openai/adapter-names.js';
import { imageUrl } from '../backends/openai/images.js';
import { errorEnvelope, openaiClient } from '../backends/openai/client.js';
import { samplingFields, serverKind, type ChatBody } from '../backends/openai/server-kind.js';
import { tokenTexts } from '../backends/openai/messages.js';
import { checkDeployRoutes, checkSampling } from './server-checks.js';
import { fillTemplate } from '../backends/openai/index.js';
import { OpenAISequenceScorer } from '../backends/openai/sequence-scorer.js';
import { parseJudgeSpec, ServedCompareJudge, type JudgeSpec } from '../eval/runs/compare/judges.js';
import { PairJudge } from '../methods/pair-judge.js';
import { Rewriter } from '../methods/rewriter.js';
import { Teacher } from '../methods/teacher.js';
import { yesNoFromTopLogprobs } from '../feedback/yes-no.js';
import { fail, ok, warn, type Check } from './types.js';

type Role = 'generate' | 'divide' | 'label';
type Remote = OpenAIBackend | LlmDividerBackend;

/** The image sent with the probe completions of vision models: a shapes-world image shipped with the package. */
export const PROBE_IMAGE = path.join(PACKAGE_ROOT, 'data', 'shapes', 'dev', 'images', 'dev-0000.png');
const PROBE_QUESTION = 'Is there a shape in the image?';
const PROBE_ANSWER = 'Yes, there is a shape in the image.';
const PROBE_NEGATIVE = 'No, the image is empty.';
const PROBE_REWRITE = 'There is a red circle. There is a purple star in the top left.';
const PROBE_REWRITE_CLAIM = 'There is a purple star in the top left.';

/** The probe image as a data URL; a plain grey PNG when the package's image is not there. */
async function probeImage(): Promise<string> {
  try {
    return await imageUrl(PROBE_IMAGE);
  } catch {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).png().toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  }
}

/** The remote backends of a config, by role. */
export function remoteBackends(c: Config): { role: Role; b: Remote }[] {
  const out: { role: Role; b: Remote }[] = [];
  if (c.generate.backend.type === 'openai') out.push({ role: 'generate', b: c.generate.backend });
  if (c.divide.backend.type === 'llm') out.push({ role: 'divide', b: c.divide.backend });
  if (c.label.backend.type === 'openai') out.push({ role: 'label', b: c.label.backend });
  return out;
}

/** Why a request failed, in words, and whether the server never answered. */
function describe(e: unknown, timeoutMs: number): { text: string; unreachable: boolean; status: number | null; server: string } {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { text: `no answer within ${timeoutMs} ms`, unreachable: true, status: null, server: '' };
  if (e instanceof OpenAI.APIConnectionError) {
    const cause = (e as { cause?: { code?: string; message?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return { text: `not reachable (${code ?? cause?.message ?? e.message})`, unreachable: true, status: null, server: '' };
  }
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const server = (e.message || '').replace(/^\d{3}\s*/, '').slice(0, 300);
    return { text: `HTTP ${e.status}: ${server}`, unreachable: false, status: e.status, server };
  }
  return { text: (e as Error)?.message ?? String(e), unreachable: false, status: null, server: '' };
}

/** Checks every endpoint of one remote backend. */
async function checkBackend(role: Role, b: Remote, topLogprobs: number, suffix: string): Promise<Check[]> {
  const out: Check[] = [];
  let key: string | null = null;
  try {
    key = resolveApiKey(b, role);
    if (key) out.push(ok(`${role} API key`, b.api_key_env ? `$${b.api_key_env}` : b.api_key_file!, 'set (not shown)'));
  } catch (e) {
    out.push(fail(`${role} API key`, b.api_key_env ? `$${b.api_key_env}` : b.api_key_file ?? '', (e as Error).message,
      b.api_key_env
        ? `export ${b.api_key_env}=<the server's key> in the shell that runs rlaifv (or set ${role}.backend.api_key_file to a file holding it)`
        : `write the key as the first line of ${b.api_key_file} (readable by rlaifv), or set ${role}.backend.api_key_env instead`));
  }
  const hide = (s: string) => redact(s, [key]);
  for (const [i, url] of b.base_urls.entries()) {
    const shown = displayUrl(url);
    const field = `${role}.backend.base_urls[${i}]`;
    const client = openaiClient(url, key, { timeout: b.timeout_ms });
    const modelsTimeout = Math.min(b.timeout_ms, 15_000);
    // 1. Reachable, key accepted, model served.
    let served: boolean | null = null;
    try {
      const page = await client.models.list({ timeout: modelsTimeout });
      const ids = page.data.map((m) => m.id);
      const kind = await serverKind(b.server ?? 'auto', url, key);
      served = servesModel(ids, b.model, kind);
      const exact = sglangAdapterName(page.data as ModelCard[], b.model, kind);
      if (exact) {
        out.push(fail(`${role} endpoint`, shown, bareAdapterMessage(`${role}.backend.model`, b.model, exact), `set ${role}.backend.model to "${exact}"`));
        continue;
      }
      if (served) out.push(ok(`${role} endpoint`, shown, `reachable; serves "${b.model}" (${kind === 'vllm' ? 'vLLM' : kind === 'sglang' ? 'SGLang' : 'OpenAI-compatible'})`));
      else {
        const list = ids.slice(0, 8).map((x) => `"${x}"`).join(', ') + (ids.length > 8 ? ', …' : '');
        out.push(fail(`${role} endpoint`, shown, hide(`reachable, but serves ${ids.length ? list : 'no models'}, not "${b.model}"`),
          ids.length
            ? `set ${role}.backend.model to the served name (${list}), or start the server with --served-model-name ${b.model} (vLLM)`
            : `start the server with the model loaded (vLLM: vllm serve <model> --served-model-name ${b.model})`));
        continue;
      }
    } catch (e) {
      const d = describe(e, modelsTimeout);
      if (d.unreachable) {
        const port = (() => { try { return new URL(url).port || '(default)'; } catch { return '?'; } })();
        out.push(fail(`${role} endpoint`, shown, hide(d.text),
          `check ${field} (host, port ${port}, and the /v1 at the end) and that the server is up and listening there: curl ${shown}/models`));
        continue;
      }
      if (d.status === 401 || d.status === 403) {
        out.push(fail(`${role} endpoint`, shown, hide(`refused the API key (${d.text})`),
          b.api_key_env || b.api_key_file
            ? `set ${b.api_key_env ? `$${b.api_key_env}` : b.api_key_file} to the key the server was started with (vLLM: --api-key)`
            : `the server needs a key: set ${role}.backend.api_key_env to the name of an environment variable holding it`));
        continue;
      }
      if (d.status === 404 || d.status === 405) {
        out.push(warn(`${role} endpoint`, shown, hide(`reachable, but has no GET /models (${d.text}); the model name could not be checked`),
          `nothing to do if the completion check below is ok; otherwise check ${field} ends in /v1`));
      } else {
        out.push(fail(`${role} endpoint`, shown, hide(`GET /models failed: ${d.text}`), `check the server's log; ${field} must be an OpenAI-compatible base URL ending in /v1`));
        continue;
      }
    }
    // 2. A 1-token completion as a run sends it (image for vision models; logprobs for the labeler).
    out.push(...(await probe(role, b, client, shown, topLogprobs, suffix, hide)));
  }
  return out;
}

async function probe(
  role: Role,
  b: Remote,
  client: OpenAI,
  shown: string,
  topLogprobs: number,
  suffix: string,
  hide: (s: string) => string,
): Promise<Check[]> {
  const check = `${role} completion`;
  const content: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
  if (role !== 'divide') content.push({ type: 'image_url', image_url: { url: await probeImage() } });
  // What a run sends: the labeler's question with its suffix, a question to the policy, the divider's split prompt.
  const text = role === 'label'
    ? PROBE_QUESTION + suffix
    : role === 'generate'
      ? 'Describe the image.'
      : fillTemplate((b as LlmDividerBackend).split_prompt, { question: 'Describe the image.', answer: 'There is a red circle on the left.' });
  content.push({ type: 'text', text });
  const t0 = performance.now();
  let r: OpenAI.Chat.Completions.ChatCompletion;
  // The request as a run sends it to this kind of server (the labeler's: greedy, top_p 1, no thinking).
  const kind = await serverKind(b.server ?? 'auto', client.baseURL, client.apiKey === 'EMPTY' ? null : client.apiKey);
  const shape = {
    kind,
    maxTokensField: kind === 'openai' && /(^|\.)openai\.(com|azure\.com)$/.test(new URL(client.baseURL).hostname) ? ('max_completion_tokens' as const) : ('max_tokens' as const),
    chatTemplateKwargs: b.chat_template_kwargs ?? (role === 'label' ? { enable_thinking: false } : null),
  };
  try {
    r = await client.chat.completions.create({
      model: b.model,
      messages: [{ role: 'user', content }],
      seed: 0,
      ...samplingFields(shape, { temperature: 0, top_p: 1, max_tokens: 1 }),
      ...(role === 'label' ? { logprobs: true, top_logprobs: topLogprobs, ...(kind === 'vllm' ? { return_tokens_as_token_ids: false } : {}) } : {}),
    } as ChatBody);
  } catch (e) {
    const d = describe(e, b.timeout_ms);
    let fix = `check the server's log for this request; ${role}.backend.model must be a chat model the server serves`;
    if (d.status === 404 && errorEnvelope(e) === 'fastapi') {
      fix = `POST ${shown}/chat/completions is not a route of this server: ${role}.backend.base_urls must be its OpenAI base URL, ending in /v1`;
    } else if (role === 'label' && /logprob/i.test(d.server)) {
      const max = /(?:max(?:imum)?(?: allowed)?|at most|limit)[^0-9]{0,20}(\d+)/i.exec(d.server)?.[1];
      fix = `set label.top_logprobs to ${max ? `${max} or less (the server's limit)` : "at most the server's limit"}, or restart the server allowing ${topLogprobs} (vLLM: --max-logprobs ${topLogprobs})`;
    } else if (d.unreachable) fix = `the server answered GET /models but not a completion: it may be overloaded or still loading; raise ${role}.backend.timeout_ms or check its log`;
    else if (role !== 'divide' && /image/i.test(d.server)) fix = `${role}.backend.model must be a vision model that takes an image_url part (vLLM: --limit-mm-per-prompt '{"image": 1}')`;
    return [fail(check, shown, hide(`a 1-token chat completion${role === 'label' ? ` with logprobs (top_logprobs ${topLogprobs})` : ''} failed: ${d.text}`), fix)];
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const choice = Array.isArray(r?.choices) ? r.choices[0] : undefined;
  if (!choice) return [fail(check, shown, 'the response has no choices', 'check that the server is OpenAI-compatible (POST /v1/chat/completions)')];
  if (role !== 'label') {
    return [ok(check, shown, `a 1-token chat completion${role === 'generate' ? ' with an image' : ''} works (${secs} s)`)];
  }
  const listed = choice.logprobs?.content?.[0]?.top_logprobs;
  if (!Array.isArray(listed) || listed.length === 0) {
    return [fail(check, shown, `a 1-token chat completion answered without logprobs (choices[0].logprobs.content[0].top_logprobs missing)`,
      `the labeler needs logprobs: serve it with vLLM or SGLang (both return them; vLLM: --max-logprobs ${topLogprobs}); a proxy in between may strip them`)];
  }
  const top = await tokenTexts(listed, client, b.model);
  const out: Check[] = [];
  if (top.length < topLogprobs && kind === 'sglang' && new Set(top.map((t) => t.token)).size === top.length) {
    // SGLang keys the top tokens by their text: tokens that read the same are one entry, so fewer come back.
    out.push(ok(check, shown, `a 1-token chat completion with an image and logprobs works: ${top.length} of top_logprobs ${topLogprobs} listed, each token text once (SGLang merges tokens that read the same; not an error) (${secs} s)`));
  } else if (top.length < topLogprobs) {
    out.push(warn(check, shown, `asked for top_logprobs ${topLogprobs}, got ${top.length} (${secs} s)`,
      `set label.top_logprobs to ${top.length} so the bound for a missing yes/no side is the server's real K`));
  } else out.push(ok(check, shown, `a 1-token chat completion with an image and logprobs works: top_logprobs ${top.length} listed (${secs} s)`));
  const yn = yesNoFromTopLogprobs(top);
  const first = top.slice(0, 5).map((t) => JSON.stringify(t.token)).join(', ');
  if (/^<think>$/i.test(top[0]!.token.trim())) {
    out.push(fail('label yes/no', shown, hide(`the labeler's first token is ${JSON.stringify(top[0]!.token)}: a reasoning model thinks before it answers, so no yes/no is ever its first token (first: ${first})`),
      'set label.backend.chat_template_kwargs to {"enable_thinking": false} if the model\'s chat template reads it (Qwen3); else use a non-reasoning (instruct) model as the labeler'));
  } else if (yn.pYes === null || yn.pNo === null) {
    out.push(fail('label yes/no', shown, hide(`neither "yes" nor "no" among the top ${top.length} tokens (first: ${first}) for "${PROBE_QUESTION}${suffix}"`),
      `check that label.backend.model is the labeler (a VLM that answers yes/no), that label.suffix asks for yes or no, or raise label.top_logprobs`));
  } else if (yn.boundUsed) {
    out.push(warn('label yes/no', shown, hide(`only "${yn.pYes >= yn.pNo ? 'yes' : 'no'}" among the top ${top.length} tokens; the other side gets the smallest listed probability as a bound`),
      `raise label.top_logprobs (up to the server's limit) so both "yes" and "no" are listed`));
  } else {
    out.push(ok('label yes/no', shown, `"yes" and "no" both among the top ${top.length} tokens (p_yes ${yn.pYes.toFixed(3)}, p_no ${yn.pNo.toFixed(3)})`));
  }
  return out;
}

/** Checks every endpoint of every remote backend of a config. */
export async function checkEndpoints(c: Config): Promise<Check[]> {
  const out: Check[] = [];
  for (const { role, b } of remoteBackends(c)) {
    const checks = await checkBackend(role, b, c.label.top_logprobs, c.label.suffix);
    out.push(...checks);
    // A policy that answers: does it sample as asked, with reproducible seeds; can the loop deploy checkpoints to it?
    if (role === 'generate' && checks.some((x) => x.check === 'generate completion' && x.status === 'ok')) {
      out.push(...(await checkSampling(b as OpenAIBackend, c, await probeImage())));
      if (c.loop.deploy) out.push(...(await checkDeployRoutes(b as OpenAIBackend)));
    }
  }
  // The DPO reward reads answer log-probs from its models: a served one must give prompt log-probs (vLLM does).
  if (c.feedback.method === 'dpo-reward') {
    const d = c.feedback.dpo_reward;
    const policy = d.policy ?? c.generate.backend;
    if (policy.type === 'openai') out.push(...(await checkPromptLogprobs(policy, d.policy ? 'feedback.dpo_reward.policy' : 'generate')));
    if (d.reference.type === 'openai') out.push(...(await checkPromptLogprobs(d.reference, 'feedback.dpo_reward.reference')));
  }
  if (c.feedback.gate.judge) out.push(...(await checkPairJudge(c.feedback.gate.judge)));
  if (c.pair.rewriter && c.pair.corrections.includes('llm')) out.push(...(await checkRewriter(c.pair.rewriter)));
  if (c.pair.refine.teacher && c.pair.corrections.includes('refine')) out.push(...(await checkTeacher(c.pair.refine.teacher)));
  // A served judge of the loop's win rates (loop.judge MODEL@URL): it must answer ConvBench's pairwise prompt.
  let loopJudge: JudgeSpec | null = null;
  try {
    loopJudge = parseJudgeSpec(c.loop.judge, 'loop.judge', c.loop.judge_api_key_env);
  } catch (e) {
    out.push(fail('loop judge', c.loop.judge, (e as Error).message, 'set loop.judge to claims, truth or MODEL@URL'));
  }
  if (loopJudge?.type === 'served') out.push(...(await checkCompareJudge(loopJudge.backend)));
  return out;
}

/**
 * Whether each endpoint of a served compare judge (rlaifv compare --judge MODEL@URL, loop.judge) answers ConvBench's
 * pairwise prompt: one probe comparison in both orders through the same code a comparison uses, no retries.
 */
export async function checkCompareJudge(b: OpenAIBackend): Promise<Check[]> {
  const out: Check[] = [];
  const image = await probeImage();
  for (const url of b.base_urls) {
    const shown = displayUrl(url);
    const check = 'compare judge';
    let key: string | null = null;
    try {
      key = resolveApiKey(b, 'loop.judge');
      const judge = new ServedCompareJudge({ ...b, base_urls: [url], max_retries: 0 });
      const t0 = performance.now();
      const ab = await judge.decide({ imagePath: image, question: PROBE_QUESTION, history: [], first: PROBE_ANSWER, second: PROBE_NEGATIVE });
      const ba = await judge.decide({ imagePath: image, question: PROBE_QUESTION, history: [], first: PROBE_NEGATIVE, second: PROBE_ANSWER });
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      const bad = [ab, ba].find((v) => 'error' in v) as { error: string; reply?: string } | undefined;
      if (bad) {
        const reply = (bad.reply ?? '').trim().split(/\r?\n/).at(-1)?.slice(0, 120) ?? '';
        out.push(fail(check, shown, redact(`a probe comparison got no verdict: ${bad.error}${reply ? `; the reply ends "${reply}"` : ''}`, [key]),
          'the judge must be a generative VLM that ends its reply with "Overall, Response X is better"'));
      } else {
        const [x, y] = [ab, ba] as { winner: 'first' | 'second' }[];
        const flip = x!.winner === y!.winner;
        out.push(
          flip
            ? warn(check, shown, `compared a probe pair in both orders (${secs} s): it named the response in the ${x!.winner} place both times (a position bias: such pairs count as ties)`,
                'a judge that keeps its verdict when the order is swapped gives fewer ties')
            : ok(check, shown, `compared a probe pair in both orders (${secs} s): the same answer won in both orders`),
        );
      }
    } catch (e) {
      out.push(fail(check, shown, redact((e as Error).message, [key]), 'check loop.judge (its URL and model) and loop.judge_api_key_env'));
    }
  }
  return out;
}

/**
 * Whether each endpoint of the quality gate's judge model rates a pair as the gate asks (Anyprefer's prompt, a score
 * "N/10" in the reply): one probe pair through the same code a run uses, no retries. One check per endpoint.
 * @example await checkPairJudge(config.feedback.gate.judge) // [{ status: 'ok', detail: 'rated a probe pair 9/10 ...' }]
 */
export async function checkPairJudge(j: GateJudgeConfig): Promise<Check[]> {
  const out: Check[] = [];
  const image = await probeImage();
  for (const url of j.backend.base_urls) {
    const shown = displayUrl(url);
    const check = 'gate judge';
    let key: string | null = null;
    try {
      key = resolveApiKey(j.backend, 'feedback.gate.judge');
      const judge = new PairJudge({ ...j, content_retries: 0, backend: { ...j.backend, base_urls: [url], max_retries: 0 } });
      const t0 = performance.now();
      const v = await judge.rate({ imagePath: image, question: PROBE_QUESTION, history: [], positive: PROBE_ANSWER, negative: PROBE_NEGATIVE });
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      if ('error' in v) {
        const reply = (v.raw ?? '').trim().split(/\r?\n/).at(-1)?.slice(0, 120) ?? '';
        out.push(fail(check, shown, redact(`a probe pair got no rating: ${v.error}${reply ? `; the reply ends "${reply}"` : ''}`, [key]),
          `feedback.gate.judge.backend.model must be a generative VLM that follows the prompt and ends with "N/10"; check feedback.gate.judge.prompt asks for it`));
      } else {
        out.push(ok(check, shown, `rated a probe pair ${v.score}/10 (${secs} s)`));
      }
    } catch (e) {
      out.push(fail(check, shown, redact((e as Error).message, [key]), `check feedback.gate.judge.backend (its base_urls, model and api key)`));
    }
  }
  return out;
}

/**
 * Whether each endpoint of the `refine` editor's served teacher (pair.refine.teacher) comments in FIRE's format: one
 * probe response with a reference answer, through the code a round uses, no retries.
 */
export async function checkTeacher(t: TeacherConfig): Promise<Check[]> {
  const out: Check[] = [];
  const image = await probeImage();
  for (const url of t.backend.base_urls) {
    const shown = displayUrl(url);
    let key: string | null = null;
    try {
      key = resolveApiKey(t.backend, 'pair.refine.teacher');
      const teacher = new Teacher({ ...t, content_retries: 0, backend: { ...t.backend, base_urls: [url], max_retries: 0 } });
      const t0 = performance.now();
      const v = await teacher.comment(image, 'Describe the image.', 'There is a red circle.', PROBE_REWRITE);
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      if ('error' in v) {
        const reply = (v.raw ?? '').trim().split(/\r?\n/).at(-1)?.slice(0, 120) ?? '';
        out.push(fail('teacher', shown, redact(`a probe response got no teacher's turn: ${v.error}${reply ? `; the reply ends "${reply}"` : ''}`, [key]),
          'pair.refine.teacher.backend.model must be a generative VLM that follows FIRE\'s teacher prompt (pair.refine.teacher.prompt) and answers "Score: N" and "Feedback: …"'));
      } else {
        out.push(ok('teacher', shown, `commented on a probe response: "${v.turn.replace(/\n/g, ' ').slice(0, 80)}" (${secs} s)`));
      }
    } catch (e) {
      out.push(fail('teacher', shown, redact((e as Error).message, [key]), 'check pair.refine.teacher.backend (its base_urls, model and api key)'));
    }
  }
  return out;
}

/**
 * Whether each endpoint of the `llm` editor's rewriter (pair.rewriter) rewrites: one probe answer with one claim to
 * fix, through the same code a round uses, no retries. ok with what came back; fail with the reason and what to change.
 */
export async function checkRewriter(r: RewriterConfig): Promise<Check[]> {
  const out: Check[] = [];
  const image = await probeImage();
  for (const url of r.backend.base_urls) {
    const shown = displayUrl(url);
    let key: string | null = null;
    try {
      key = resolveApiKey(r.backend, 'pair.rewriter');
      const rewriter = new Rewriter({ ...r, content_retries: 0, backend: { ...r.backend, base_urls: [url], max_retries: 0 } });
      const t0 = performance.now();
      const v = await rewriter.rewrite(image, 'Describe the image.', PROBE_REWRITE, [PROBE_REWRITE_CLAIM]);
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      if ('error' in v) {
        const reply = (v.raw ?? '').trim().split(/\r?\n/).at(-1)?.slice(0, 120) ?? '';
        out.push(fail('rewriter', shown, redact(`a probe answer was not rewritten: ${v.error}${reply ? `; the reply ends "${reply}"` : ''}`, [key]),
          'pair.rewriter.backend.model must be a generative VLM that follows pair.rewriter.prompt and replies with the rewritten answer only'));
      } else {
        out.push(ok('rewriter', shown, `rewrote a probe answer to "${v.text.slice(0, 80)}" (${secs} s)`));
      }
    } catch (e) {
      out.push(fail('rewriter', shown, redact((e as Error).message, [key]), 'check pair.rewriter.backend (its base_urls, model and api key)'));
    }
  }
  return out;
}

/**
 * Whether each endpoint of a served model gives answer log-probs (the prompt log-probs of a chat request, vLLM's
 * `prompt_logprobs`), as the DPO reward needs them: one probe answer scored through the same code a run uses, no
 * retries. One check per endpoint: ok with the probe's numbers, or fail with the reason and what to change.
 * @example await checkPromptLogprobs({ ...generateBackend, model: 'my-dpo-checkpoint' }) // [{ status: 'ok', ... }]
 */
export async function checkPromptLogprobs(b: OpenAIBackend, role = 'generate'): Promise<Check[]> {
  const out: Check[] = [];
  const image = await probeImage();
  for (const url of b.base_urls) {
    const shown = displayUrl(url);
    const check = `${role} prompt logprobs`;
    let key: string | null = null;
    try {
      key = resolveApiKey(b, role);
      const scorer = new OpenAISequenceScorer({ ...b, base_urls: [url], max_retries: 0 }, role);
      const [row] = await scorer.logprobs([{ imagePath: image, question: PROBE_QUESTION, answers: [PROBE_ANSWER] }]);
      const r = row![0]!;
      if (r instanceof Error) {
        out.push(fail(check, shown, redact(`a probe answer could not be scored: ${r.message}`, [key]),
          `check the server's log; the chat template of ${b.model} must render an assistant turn after the prompt`));
      } else {
        out.push(ok(check, shown, `answer log-probs work: "${PROBE_ANSWER}" is ${r.tokens} tokens, log-prob ${r.sum.toFixed(3)}`));
      }
    } catch (e) {
      out.push(fail(check, shown, redact((e as Error).message, [key]),
        `serve ${b.model} with vLLM (its chat completions return prompt_logprobs); OpenAI's API, and proxies that drop unknown fields, cannot give answer log-probs`));
    }
  }
  return out;
}
