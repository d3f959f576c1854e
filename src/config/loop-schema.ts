// `loop`: iterative rounds of generate → feedback → train → evaluate, the trainers and the deploy hook.
import { z } from 'zod';

/** The shapes DPO trainer, as the loop runs it by default ({root} is rlaifv's own folder). */
export const DEFAULT_TRAINER = 'python3 {root}/scripts/shapes/dpo.py --pairs {pairs} --policy {policy} --out {out} --seed {round} --lr 5e-5 --epochs 2 --sft-weight 1';

/** The shapes online trainer (GRPO), as loop.mode "online" runs it by default; rlaifv serve's URL is {url} and RLAIFV_URL. */
export const DEFAULT_ONLINE_TRAINER =
  'python3 {root}/scripts/shapes/grpo.py --prompts {prompts} --policy {policy} --ref {ref} --out {out} --samples {samples} --seed {seed}';

/** Serving a new checkpoint for a remote policy (the loop's deploy hook). */
const deploy = z.strictObject({
  /**
   * A shell command that serves {checkpoint} (placeholders: {checkpoint}, {round}, {hash}, {model}, {root}, and
   * {base_urls}: the policy's endpoints, comma-separated); run after each training.
   */
  command: z.string().min(1),
  /**
   * The name the server serves the checkpoint as ({round} and {hash}, the checkpoint's content hash, are filled in),
   * e.g. "policy-{hash}" (SGLang: "<served base>:policy-{hash}"): one name per checkpoint, never loaded twice.
   */
  model: z.string().min(1),
  /** The checkpoint folder the server serves at the start (what round 1 trains from). */
  start_checkpoint: z.string().min(1),
  /** How long to wait, after the command, for the server's GET /models to list the model. */
  ready_timeout_ms: z.number().int().positive().default(600_000),
});

/** `rlaifv loop`: iterative rounds of generate → feedback → train → evaluate. */
export const loop = z.strictObject({
  /**
   * dpo: each round samples, labels, pairs and runs loop.trainer (iterative DPO); online: rlaifv serve runs on the
   * loop's store and loop.online_trainer trains against it, one DPO round's samples per budget point.
   */
  mode: z.enum(['dpo', 'online']).default('dpo'),
  /**
   * The online trainer (loop.mode "online"): a shell command template with {url} (rlaifv serve, also in RLAIFV_URL),
   * {prompts} (the train prompts as JSONL with absolute image paths), {samples} (the budget point's policy samples),
   * {policy} (the checkpoint to start from), {ref} (the loop's start checkpoint), {out}, {round}, {seed}, {root}.
   * Not part of the loop's identity.
   */
  online_trainer: z.string().min(1).default(DEFAULT_ONLINE_TRAINER),
  /** The prompts each round's policy answers to make pairs. */
  train_prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  /**
   * Held-out prompts each checkpoint is evaluated on (the truth-free figures always; the truth's too where the prompts
   * carry meta.truth); no pair on their images is ever delivered.
   */
  eval_prompts: z.string().min(1).default('data/shapes/test/prompts.jsonl'),
  /** The format each round's pairs are pulled in for the trainer (as `rlaifv pull --format`). */
  pairs_format: z.enum(['trl', 'llamafactory', 'openrlhf', 'rlaifv']).default('trl'),
  /**
   * Pull each round's pairs with their claim spans (chosen_spans, rejected_spans), for a trainer that weighs tokens
   * (the shapes trainer's --token-weight); JSON pairs files only. Not part of the loop's identity.
   */
  pairs_spans: z.boolean().default(false),
  /** The pairs file's name in the round's pairs folder; `.parquet` gives Parquet with image bytes (TRL's datasets). */
  pairs_file: z.string().regex(/^[A-Za-z0-9._-]+$/, 'a file name (letters, digits, . _ -), no folder').default('pairs.jsonl'),
  /**
   * The trainer: a shell command template with {pairs} (the file), {pairs_dir} (the folder holding only it),
   * {policy} (the checkpoint folder to start from), {out} (where the new checkpoint must be), {round}, {root} (rlaifv's folder).
   */
  trainer: z.string().min(1).default(DEFAULT_TRAINER),
  /** Where checkpoints and pair files go; null: beside the store (db/rlaifv.sqlite -> db/rlaifv.checkpoints/). */
  checkpoints: z.string().min(1).nullable().default(null),
  /** For a remote policy: how each new checkpoint gets served; null for a local policy. */
  deploy: deploy.nullable().default(null),
  /** Held-out evaluation: samples per prompt and their temperature (the round's decoding), plus one greedy answer. */
  eval_samples: z.number().int().min(1).max(1000).default(10),
  eval_temperature: z.number().min(0).max(5).default(0.7),
  eval_greedy: z.boolean().default(true),
  /** Evaluate on the first N held-out prompts only; null: all (or --limit when given). */
  eval_limit: z.number().int().positive().nullable().default(null),
  /**
   * The judge of each checkpoint's held-out win rates against the previous round and the start (as `rlaifv compare
   * --judge`): claims (rlaifv's own divider and labeler, no truth needed), truth (shapes prompts only) or MODEL@URL (a
   * served VLM with ConvBench's pairwise prompt). Not part of the loop's identity.
   */
  judge: z.string().min(1).default('claims'),
  /** The environment variable holding a served judge's API key. */
  judge_api_key_env: z.string().min(1).optional(),
  /**
   * Checkpoint selection: last keeps the trainer's {out}; best evaluates {out} and every {out}/checkpoint-* the trainer
   * left (per epoch, as Hugging Face trainers save them) on select_prompts with the truth-free rejected-claim rate,
   * and the next round samples from the lowest. Local policies only.
   */
  select: z.enum(['last', 'best']).default('last'),
  /** The validation prompts checkpoint selection reads (never the held-out eval_prompts). */
  select_prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  /** Checkpoint selection on the first N validation prompts only; null: all. */
  select_limit: z.number().int().positive().nullable().default(null),
  /**
   * Multi-turn prompts for ConvBench's ablation of every checkpoint (the final turn with no history, the true earlier
   * turns, its own earlier answers), e.g. data/shapes/multiturn/prompts.jsonl; null: none. Not part of the loop's identity.
   */
  ablation_prompts: z.string().min(1).nullable().default(null),
  /**
   * FIRE's student training in the loop: a command run on each round's refinement dialogues (pair.corrections
   * "refine"; `rlaifv export --format fire` writes them to {dialogues}) before the DPO trainer, which then starts from
   * the checkpoint it wrote at {out}. Placeholders {dialogues}, {policy}, {out}, {round}, {root}. null: no SFT step.
   */
  sft_trainer: z.string().min(1).nullable().default(null),
  /**
   * The correction rate after feedback (rlaifv eval --policy P --feedback L --provider labeler, 3 turns) of the start
   * and every checkpoint on eval_prompts (shapes prompts: it needs the truth); null: not measured. Not part of the
   * loop's identity.
   */
  eval_feedback: z.enum(['simple', 'detailed']).nullable().default(null),
  /** The trainer is stopped (and the step recorded as failed) after this long; null: no limit. */
  trainer_timeout_ms: z.number().int().positive().nullable().default(null),
});

/** The loop's settings. */
export type LoopConfig = z.infer<typeof loop>;
