// A 1-token chat completion to one endpoint as a run sends it for its role: an image for the policy and the labeler,
// the divider's split prompt, the labeler's question with its suffix and logprobs; a failure names what to change.
import type OpenAI from 'openai';
import type { LlmDividerBackend } from '../../config/schema.js';
import { errorEnvelope } from '../../backends/openai/client.js';
import { fillTemplate } from '../../backends/openai/index.js';
import { samplingFields, serverKind, type ChatBody } from '../../backends/openai/server-kind.js';
import { fail, ok, type Check } from '../types.js';
import { checkLabelerTop } from './labeler.js';
import { describe, probeImage, PROBE_QUESTION, secondsSince, type Remote, type Role } from './shared.js';

/** The completion check of one endpoint (for the labeler: its logprobs and yes/no too, see checkLabelerTop). */
export async function completionProbe(
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
  const secs = secondsSince(t0);
  const choice = Array.isArray(r?.choices) ? r.choices[0] : undefined;
  if (!choice) return [fail(check, shown, 'the response has no choices', 'check that the server is OpenAI-compatible (POST /v1/chat/completions)')];
  if (role !== 'label') {
    return [ok(check, shown, `a 1-token chat completion${role === 'generate' ? ' with an image' : ''} works (${secs} s)`)];
  }
  return checkLabelerTop(choice, client, b, shown, topLogprobs, suffix, kind, secs, hide);
}
