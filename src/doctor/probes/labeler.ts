// The labeler's probe reading: top_logprobs as many as asked, and "yes" and "no" among them on the first token.
import type OpenAI from 'openai';
import { tokenTexts } from '../../backends/openai/messages.js';
import type { ServerKind } from '../../backends/openai/server-kind.js';
import { yesNoFromTopLogprobs } from '../../feedback/yes-no.js';
import { fail, ok, warn, type Check } from '../types.js';
import { PROBE_QUESTION, type Remote } from './shared.js';

/** Checks a labeler's 1-token completion: its top logprobs, and whether "yes" and "no" are among them. */
export async function checkLabelerTop(
  choice: OpenAI.Chat.Completions.ChatCompletion.Choice,
  client: OpenAI,
  b: Remote,
  shown: string,
  topLogprobs: number,
  suffix: string,
  kind: ServerKind,
  secs: string,
  hide: (s: string) => string,
): Promise<Check[]> {
  const check = 'label completion';
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
