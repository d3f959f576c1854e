// The served compare judge's probe (rlaifv compare --judge MODEL@URL, loop.judge).
import type { OpenAIBackend } from '../../config/schema.js';
import { ServedCompareJudge } from '../../eval/runs/compare/judges.js';
import { fail, ok, warn, type Check } from '../types.js';
import { noVerdict, probeEachEndpoint, probeImage, PROBE_ANSWER, PROBE_NEGATIVE, PROBE_QUESTION, secondsSince } from './shared.js';

/**
 * Whether each endpoint of a served compare judge (rlaifv compare --judge MODEL@URL, loop.judge) answers ConvBench's
 * pairwise prompt: one probe comparison in both orders through the same code a comparison uses, no retries.
 */
export async function checkCompareJudge(b: OpenAIBackend): Promise<Check[]> {
  const image = await probeImage();
  const check = 'compare judge';
  return probeEachEndpoint(b, 'loop.judge', check, 'check loop.judge (its URL and model) and loop.judge_api_key_env', async ({ url, shown, hide }) => {
    const judge = new ServedCompareJudge({ ...b, base_urls: [url], max_retries: 0 });
    const t0 = performance.now();
    const ab = await judge.decide({ imagePath: image, question: PROBE_QUESTION, history: [], first: PROBE_ANSWER, second: PROBE_NEGATIVE });
    const ba = await judge.decide({ imagePath: image, question: PROBE_QUESTION, history: [], first: PROBE_NEGATIVE, second: PROBE_ANSWER });
    const secs = secondsSince(t0);
    const bad = [ab, ba].find((v) => 'error' in v) as { error: string; reply?: string } | undefined;
    if (bad) {
      return fail(check, shown, hide(noVerdict('a probe comparison got no verdict', bad.error, bad.reply)),
        'the judge must be a generative VLM that ends its reply with "Overall, Response X is better"');
    }
    const [x, y] = [ab, ba] as { winner: 'first' | 'second' }[];
    const flip = x!.winner === y!.winner;
    return flip
      ? warn(check, shown, `compared a probe pair in both orders (${secs} s): it named the response in the ${x!.winner} place both times (a position bias: such pairs count as ties)`,
          'a judge that keeps its verdict when the order is swapped gives fewer ties')
      : ok(check, shown, `compared a probe pair in both orders (${secs} s): the same answer won in both orders`);
  });
}
