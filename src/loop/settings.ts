// The loop's settings as the loop reads them: its identity (what a rerun resumes), the checks made before anything
// is stored, the start checkpoint, the policy a round samples from and where checkpoints go.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config, ModelBackend } from '../config/schema.js';
import { ConfigError, configHash } from '../config/load.js';
import type { LoopRoundRow } from '../store/index.js';

/**
 * The identity of a loop: the round settings (start policy included), what it trains and evaluates on, and the prompt
 * limits. How it trains and deploys (the commands, where checkpoints go) is not: a rerun with a fixed trainer command
 * resumes the loop and retries the failed step.
 */
export function loopHash(config: Config, limit: number | null, evalLimit: number | null): string {
  const {
    trainer: _t, trainer_timeout_ms: _tt, deploy: _d, checkpoints: _c, judge: _j, judge_api_key_env: _jk, ablation_prompts: _ap, pairs_spans: _ps,
    eval_feedback: _ef, sft_trainer, select, select_prompts, select_limit, mode, online_trainer: _ot, ...what
  } = config.loop;
  // Selection is part of a loop's identity only when it selects (loops made before it existed keep their hash); an
  // SFT step only by being there (its command, like the trainer's, is not).
  const selection = select === 'last' ? [] : [[select, select_prompts, select_limit]];
  const sft = sft_trainer === null ? [] : ['sft'];
  // An online loop is another loop, and so is each reward preset it trains on (config.reward is not in configHash).
  const online = mode === 'online' ? [['online', config.reward]] : [];
  return createHash('sha256')
    .update(JSON.stringify([configHash(config), what, limit, evalLimit, ...selection, ...sft, ...online]))
    .digest('hex')
    .slice(0, 16);
}

/** What the online loop cannot do, said before anything is stored (exit 2). */
export function checkOnline(config: Config): void {
  if (config.generate.backend.type !== 'local') {
    throw new ConfigError('loop.mode: "online" trains the policy in its trainer process from a checkpoint folder; it needs a local policy (generate.backend.type "local").');
  }
  if (config.loop.select !== 'last' || config.loop.sft_trainer !== null) {
    throw new ConfigError('loop.mode: "online" keeps the trainer\'s {out} at each budget point; loop.select "best" and loop.sft_trainer are DPO-loop steps.');
  }
}

/** The checkpoint folder the loop starts from: the local policy's folder, or the deploy hook's start checkpoint. */
export function startCheckpoint(config: Config): string {
  const g = config.generate.backend;
  if (g.type === 'local') return g.model;
  const d = config.loop.deploy;
  if (!d) {
    throw new ConfigError(
      'loop.deploy: the policy is served (generate.backend.type "openai"), so the loop needs a deploy hook to serve each new checkpoint ' +
        '(loop.deploy.command, loop.deploy.model, loop.deploy.start_checkpoint).',
    );
  }
  return d.start_checkpoint;
}

/** The generate backend that samples from a round's policy. */
export function policyBackend(config: Config, r: Pick<LoopRoundRow, 'policy'>): ModelBackend {
  const g = config.generate.backend;
  return g.type === 'local' ? { type: 'local', model: r.policy } : { ...g, model: r.policy };
}

/** Where the loop's checkpoints go: loop.checkpoints, else a folder beside the database. */
export function checkpointsDir(config: Config): string {
  if (config.loop.checkpoints) return config.loop.checkpoints;
  const p = path.parse(config.db);
  return path.join(p.dir, `${p.name}.checkpoints`);
}
