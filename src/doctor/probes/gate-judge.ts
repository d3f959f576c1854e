// The quality gate's judge probe (feedback.gate.judge).
import type { GateJudgeConfig } from '../../config/schema.js';
import { PairJudge } from '../../methods/pair-judge.js';
import { fail, ok, type Check } from '../types.js';
import { noVerdict, probeEachEndpoint, probeImage, PROBE_ANSWER, PROBE_NEGATIVE, PROBE_QUESTION, secondsSince } from './shared.js';

/**
 * Whether each endpoint of the quality gate's judge model rates a pair as the gate asks (Anyprefer's prompt, a score
 * "N/10" in the reply): one probe pair through the same code a run uses, no retries. One check per endpoint.
 * @example await checkPairJudge(config.feedback.gate.judge) // [{ status: 'ok', detail: 'rated a probe pair 9/10 ...' }]
 */
export async function checkPairJudge(j: GateJudgeConfig): Promise<Check[]> {
  const image = await probeImage();
  const check = 'gate judge';
  return probeEachEndpoint(j.backend, 'feedback.gate.judge', check, `check feedback.gate.judge.backend (its base_urls, model and api key)`, async ({ url, shown, hide }) => {
    const judge = new PairJudge({ ...j, content_retries: 0, backend: { ...j.backend, base_urls: [url], max_retries: 0 } });
    const t0 = performance.now();
    const v = await judge.rate({ imagePath: image, question: PROBE_QUESTION, history: [], positive: PROBE_ANSWER, negative: PROBE_NEGATIVE });
    const secs = secondsSince(t0);
    if ('error' in v) {
      return fail(check, shown, hide(noVerdict('a probe pair got no rating', v.error, v.raw)),
        `feedback.gate.judge.backend.model must be a generative VLM that follows the prompt and ends with "N/10"; check feedback.gate.judge.prompt asks for it`);
    }
    return ok(check, shown, `rated a probe pair ${v.score}/10 (${secs} s)`);
  });
}
