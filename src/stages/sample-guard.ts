// Guards of the generate stage against a server that samples otherwise than asked, without any error: every sample
// of a prompt the same text (a generation_config.json with top_k 1; SGLang ignoring seeds under
// --enable-deterministic-inference, sglang #15746), or answers cut at a length below max_tokens (vLLM's
// get_max_tokens taking the generation config's max_new_tokens as a cap). Counted per endpoint; an endpoint that shows
// it on its first few prompts, with no prompt that says otherwise, is stopped with the causes and their fixes.
import type { GenerateResult } from '../backends/types.js';

/**
 * Prompts whose samples are all the same text, with none whose samples differ, before an endpoint is stopped. A server
 * at fault (top_k 1, seeds ignored) makes every prompt so; a healthy but peaked policy makes some prompts so by chance
 * (the tiny shapes policy: about 0.4 of its prompts at 4 samples and temperature 0.7), so three in a row stopped a
 * healthy endpoint about once in 16 rounds. Eight in a row: about once in 1,500 for that policy, at the cost of eight
 * prompts' samples on a server at fault.
 */
export const IDENTICAL_PROMPTS_TO_STOP = 8;
/** Prompts cut at one length below max_tokens before an endpoint is stopped (one length with varying totals is a cap). */
export const CUT_PROMPTS_TO_STOP = 3;

type Answer = Extract<GenerateResult, { text: string }>;

interface EndpointCounts {
  identical: number;
  differing: number;
  /** Prompts with an answer cut short, and the token counts the cut answers stopped at. */
  cutPrompts: number;
  cutAt: Set<number>;
  /** prompt + completion tokens of the cut answers: one value for all means a context limit, not a cap. */
  cutTotals: Set<number>;
  longest: number;
  cut: number;
  stopped: boolean;
}

/** A decision of the guard: stop this endpoint, with this message. */
export interface Stop {
  endpoint: string;
  message: string;
}

/** The causes of identical samples and each one's fix (the stage's stop and doctor's warning say the same). */
export function identicalCauses(): string {
  return (
    'Likely causes: (1) the server fills the sampling fields a request leaves out from the model\'s generation_config.json ' +
    '(top_k 1, as Qwen2-VL ships): behind a proxy set generate.backend.server to "vllm" or "sglang" so rlaifv sends them, or ' +
    'restart vLLM with --generation-config vllm (SGLang: --sampling-defaults openai); (2) the server ignores the request\'s ' +
    'seed and samples every request alike (SGLang with --enable-deterministic-inference on its chat route, sglang #15746): ' +
    'restart SGLang without --enable-deterministic-inference (seeds then do not reproduce a sample) or on a release that ' +
    'passes the seed on /v1/chat/completions. `rlaifv doctor` tells the two apart.'
  );
}

/** The fix for a server's cap on max_tokens (and, when the cap `at` is known, the setting that fits under it). */
export function capFix(asked: number, at: number | null): string {
  return (
    `restart vLLM with --generation-config vllm, or --override-generation-config '{"max_new_tokens": ${asked}}'` +
    (at === null ? '' : `, or set generate.max_new_tokens to ${at} if that is enough`)
  );
}

/** The cause of answers cut at `at` tokens when `asked` were asked for (capFix says the fix). */
export function capCause(at: number, asked: number): string {
  return (
    `answers stop for "length" after ${at} tokens though max_tokens was ${asked}: the server caps max_tokens, silently ` +
    "(vLLM releases whose get_max_tokens takes the model's generation_config.json max_new_tokens as a cap)"
  );
}

/** Whether an answer stopped for length with fewer tokens than asked. */
export function cutShort(a: Answer, asked: number): boolean {
  return a.finishReason === 'length' && a.completionTokens !== null && a.completionTokens < asked;
}

/** Counts what each endpoint's answers show, prompt by prompt, and says when one must stop. */
export class SampleGuard {
  private readonly by = new Map<string, EndpointCounts>();

  constructor(
    private readonly temperature: number,
    private readonly maxTokens: number,
  ) {}

  /** Whether an endpoint was stopped (its later answers are failures, so a retry samples them elsewhere). */
  stopped(endpoint: string | undefined): boolean {
    return endpoint !== undefined && !!this.by.get(endpoint)?.stopped;
  }

  /** Answers cut short so far, per endpoint. */
  get cutByEndpoint(): Record<string, number> {
    return Object.fromEntries([...this.by].filter(([, c]) => c.cut > 0).map(([e, c]) => [e, c.cut]));
  }

  private counts(endpoint: string): EndpointCounts {
    let c = this.by.get(endpoint);
    if (!c) this.by.set(endpoint, (c = { identical: 0, differing: 0, cutPrompts: 0, cutAt: new Set(), cutTotals: new Set(), longest: 0, cut: 0, stopped: false }));
    return c;
  }

  /** One prompt's results; returns the endpoints to stop now (each once). */
  observe(results: readonly GenerateResult[]): Stop[] {
    const groups = new Map<string, Answer[]>();
    for (const r of results) if (!('error' in r) && r.endpoint) (groups.get(r.endpoint) ?? groups.set(r.endpoint, []).get(r.endpoint)!).push(r);
    const stops: Stop[] = [];
    for (const [endpoint, answers] of groups) {
      const c = this.counts(endpoint);
      if (this.temperature > 0 && answers.length >= 2) {
        if (new Set(answers.map((a) => a.text)).size === 1) c.identical++;
        else c.differing++;
      }
      const cut = answers.filter((a) => cutShort(a, this.maxTokens));
      for (const a of answers) c.longest = Math.max(c.longest, a.completionTokens ?? 0);
      if (cut.length) {
        c.cut += cut.length;
        c.cutPrompts++;
        for (const a of cut) {
          c.cutAt.add(a.completionTokens!);
          c.cutTotals.add(a.completionTokens! + (a.promptTokens ?? 0));
        }
      }
      const stop = this.verdict(endpoint, c, answers.length);
      if (stop) stops.push(stop);
    }
    return stops;
  }

  private verdict(endpoint: string, c: EndpointCounts, n: number): Stop | null {
    if (c.stopped) return null;
    if (c.identical >= IDENTICAL_PROMPTS_TO_STOP && c.differing === 0) {
      c.stopped = true;
      return {
        endpoint,
        message:
          `generate endpoint ${endpoint} is stopped: all ${n} samples of each of its first ${c.identical} prompts came out as ` +
          `the same text at temperature ${this.temperature}, so they give no pairs. ${identicalCauses()}`,
      };
    }
    // A cap cuts every long answer at one length; a context limit cuts at one prompt + answer total instead.
    const at = [...c.cutAt][0]!;
    if (c.cutPrompts >= CUT_PROMPTS_TO_STOP && c.cutAt.size === 1 && c.longest <= at && c.cutTotals.size > 1) {
      c.stopped = true;
      return { endpoint, message: `generate endpoint ${endpoint} is stopped: on ${c.cutPrompts} prompts, ${capCause(at, this.maxTokens)}. Fix: ${capFix(this.maxTokens, at)}.` };
    }
    return null;
  }
}
