// The reward server's settings (`serve`) and its reward definition (`reward`): strict zod schemas with defaults.
// Neither changes what a round stores (claims, labels, scores), so neither is in the config hash.
import { z } from 'zod';
import { REWARD_PRESETS } from '../feedback/reward.js';

/** `reward`: how an answer's claim counts become the scalar a trainer gets. */
export const rewardSchema = z.strictObject({
  /** default: w_a·min(distinct accepted, cap) − w_r·rejected; rejc: −rejected; rejp: −rejected/claims. */
  preset: z.enum(REWARD_PRESETS).default('default'),
  /** w_a: paid per distinct accepted claim (a repeated sentence is paid once). */
  accepted_weight: z.number().min(0).default(1),
  /** w_r: taken per rejected claim. */
  rejected_weight: z.number().positive().default(2),
  /** At most this many accepted claims are paid: past it, saying more earns nothing. */
  accepted_cap: z.number().int().positive().default(8),
});

/** `serve`: where the reward server listens, what it reads, and how long it may take. */
export const serveSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8100),
  /** The environment variable holding the API key; a key is required on any host but loopback (never stored). */
  api_key_env: z.string().min(1).default('RLAIFV_SERVE_KEY'),
  /** `path` images are read only under this folder (relative to the config file); null: `path` images are refused. */
  image_root: z.string().min(1).nullable().default(null),
  /** http(s) image URLs only from these hosts; null: any host. data: URLs are always allowed. */
  url_hosts: z.array(z.string().min(1)).nullable().default(null),
  /** A batch starts once no answer arrived for this long (others join it: per-image prefixes, dedup, the label cache)… */
  window_ms: z.number().int().min(0).max(1000).default(10),
  /** …or this long after its first answer arrived, whichever comes first. */
  max_wait_ms: z.number().int().min(0).max(5000).default(200),
  /** Items scored in one batch at most. */
  max_batch_items: z.number().int().positive().default(4096),
  /** Items one request may carry. */
  max_items: z.number().int().positive().default(10_000),
  /** A request body's size limit. */
  max_body_bytes: z.number().int().positive().default(64 * 1024 * 1024),
  /** /get_reward keeps retrying a failed item until this deadline, then answers 503 (OpenRLHF waits 180 s). */
  deadline_ms: z.number().int().positive().max(179_000).default(120_000),
  /** /get_reward for an unscorable answer: "fail" (503 naming it) or a number the user chose as its reward. */
  openrlhf_unscorable: z.union([z.literal('fail'), z.number()]).default('fail'),
});

/** The resolved `serve` section. */
export type ServeConfig = z.infer<typeof serveSchema>;
/** The resolved `reward` section. */
export type RewardConfig = z.infer<typeof rewardSchema>;
