// Doctor checks of each endpoint of each remote backend: reachable, the model served (GET /models), a 1-token chat
// completion works (for the labeler: with logprobs and top_logprobs, and "yes"/"no" among the listed tokens). The API
// key is read as a run reads it and never shown: every text that leaves here is redacted.
//
// One probe per role in probes/: backend.ts, completion.ts and labeler.ts (policy, divider, labeler), compare-judge.ts,
// gate-judge.ts, teacher.ts, rewriter.ts and prompt-logprobs.ts, the code they share in shared.ts. This file runs the
// probes a config needs and is the public entry.
import type { Config, OpenAIBackend } from '../config/schema.js';
import { parseJudgeSpec, type JudgeSpec } from '../eval/runs/compare/judges.js';
import { checkDeployRoutes, checkSampling } from './server-checks.js';
import { fail, type Check } from './types.js';
import { checkBackend } from './probes/backend.js';
import { checkCompareJudge } from './probes/compare-judge.js';
import { checkPairJudge } from './probes/gate-judge.js';
import { checkPromptLogprobs } from './probes/prompt-logprobs.js';
import { checkRewriter } from './probes/rewriter.js';
import { probeImage, type Remote, type Role } from './probes/shared.js';
import { checkTeacher } from './probes/teacher.js';

export { PROBE_IMAGE } from './probes/shared.js';
export { checkCompareJudge, checkPairJudge, checkPromptLogprobs, checkRewriter, checkTeacher };

/** The remote backends of a config, by role. */
export function remoteBackends(c: Config): { role: Role; b: Remote }[] {
  const out: { role: Role; b: Remote }[] = [];
  if (c.generate.backend.type === 'openai') out.push({ role: 'generate', b: c.generate.backend });
  if (c.divide.backend.type === 'llm') out.push({ role: 'divide', b: c.divide.backend });
  if (c.label.backend.type === 'openai') out.push({ role: 'label', b: c.label.backend });
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
