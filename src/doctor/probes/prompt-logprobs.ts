// The answer log-probs probe of a served model the DPO reward reads (feedback.dpo_reward.policy/reference, generate).
import type { OpenAIBackend } from '../../config/schema.js';
import { OpenAISequenceScorer } from '../../backends/openai/sequence-scorer.js';
import { fail, ok, type Check } from '../types.js';
import { probeEachEndpoint, probeImage, PROBE_ANSWER, PROBE_QUESTION } from './shared.js';

/**
 * Whether each endpoint of a served model gives answer log-probs (the prompt log-probs of a chat request, vLLM's
 * `prompt_logprobs`), as the DPO reward needs them: one probe answer scored through the same code a run uses, no
 * retries. One check per endpoint: ok with the probe's numbers, or fail with the reason and what to change.
 * @example await checkPromptLogprobs({ ...generateBackend, model: 'my-dpo-checkpoint' }) // [{ status: 'ok', ... }]
 */
export async function checkPromptLogprobs(b: OpenAIBackend, role = 'generate'): Promise<Check[]> {
  const image = await probeImage();
  const check = `${role} prompt logprobs`;
  const fix = `serve ${b.model} with vLLM (its chat completions return prompt_logprobs); OpenAI's API, and proxies that drop unknown fields, cannot give answer log-probs`;
  return probeEachEndpoint(b, role, check, fix, async ({ url, shown, hide }) => {
    const scorer = new OpenAISequenceScorer({ ...b, base_urls: [url], max_retries: 0 }, role);
    const [row] = await scorer.logprobs([{ imagePath: image, question: PROBE_QUESTION, answers: [PROBE_ANSWER] }]);
    const r = row![0]!;
    if (r instanceof Error) {
      return fail(check, shown, hide(`a probe answer could not be scored: ${r.message}`),
        `check the server's log; the chat template of ${b.model} must render an assistant turn after the prompt`);
    }
    return ok(check, shown, `answer log-probs work: "${PROBE_ANSWER}" is ${r.tokens} tokens, log-prob ${r.sum.toFixed(3)}`);
  });
}
