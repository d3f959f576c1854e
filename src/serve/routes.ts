// The reward server's endpoints: the native batch call (POST /v1/rewards), OpenRLHF's (POST /get_reward), image
// upload, info and health. Each handler takes a parsed body and returns a status and a JSON value; bad requests are
// 400 naming the field, and one bad item is one `error` item.
import type { Config } from '../config/schema.js';
import { PRESET_DEFINITIONS, REWARD_PRESETS, type RewardPreset } from '../feedback/reward.js';
import { resolveImage, uploadImage, type ImageRules } from './images.js';
import { errorReply, itemReply, type Detail, type ItemReply, type VerdictOverride } from './result.js';
import type { ImageRow } from '../store/index.js';
import type { BatchScorer, ScoreItem } from './scorer.js';
import { completionFromQuery, parseLabel, questionFromPrompt } from './openrlhf.js';

/** A reply: its HTTP status, JSON body and extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A request the server refuses as a whole: 400 (or another 4xx) naming the field. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** What the handlers share. */
export interface ServeContext {
  config: Config;
  scorer: BatchScorer;
  images: ImageRules;
  meta: { config_hash: string; divider: string; labeler: string; round: number };
  answersStored: () => number;
  /** Studies only (startServer's `verdicts`): the verdicts for an image's claims instead of the labeler's; null: none known (an error item). */
  verdicts?: (image: ImageRow) => VerdictOverride | null;
}

const DETAILS: readonly Detail[] = ['none', 'summary', 'claims'];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** An item's validated text field; throws naming it. */
function text(v: unknown, field: string, opts: { empty?: boolean; max?: number } = {}): string {
  if (typeof v !== 'string') throw new Error(`${field}: must be a string`);
  if (!opts.empty && v.trim() === '') throw new Error(`${field}: is empty`);
  if (opts.max !== undefined && v.length > opts.max) throw new Error(`${field}: is ${v.length} characters, over limits.max_question_chars (${opts.max})`);
  return v;
}

/** A list field of the body; throws naming it. */
function list(body: Record<string, unknown>, key: string, max: number): unknown[] {
  const v = body[key];
  if (!Array.isArray(v)) throw new RequestError(`${key}: must be a list`);
  if (v.length > max) throw new RequestError(`${key}: ${v.length} items, over serve.max_items (${max})`, 413);
  return v;
}

/** The items that could be read, scored together; the rest keep their error. Returns one reply per item. */
async function scoreAll(
  ctx: ServeContext,
  prepared: ({ id: string | null; item: ScoreItem } | ItemReply)[],
  opts: { preset: RewardPreset; detail: Detail },
): Promise<ItemReply[]> {
  const ok = prepared.filter((p): p is { id: string | null; item: ScoreItem } => 'item' in p);
  const scored = await ctx.scorer.score(ok.map((p) => p.item));
  const r = ctx.config.reward;
  const o = { preset: opts.preset, weights: r, rule: ctx.config.score.accept_rule, detail: opts.detail };
  let k = 0;
  return prepared.map((p) => {
    if (!('item' in p)) return p;
    const s = scored[k++]!;
    if (!ctx.verdicts) return itemReply(p.id, s, p.item.completion, o);
    const v = ctx.verdicts(p.item.image);
    return v ? itemReply(p.id, s, p.item.completion, o, v) : errorReply(p.id, `verdicts: none known for image ${p.item.image.id}`);
  });
}

/** POST /v1/rewards: `{items: [{id, group?, image, question, completion}], reward?, detail?}`. */
export async function rewards(ctx: ServeContext, body: unknown): Promise<Reply> {
  const t0 = performance.now();
  if (!isObject(body)) throw new RequestError('body: must be a JSON object with "items"');
  const items = list(body, 'items', ctx.config.serve.max_items);
  const preset = (body.reward ?? ctx.config.reward.preset) as RewardPreset;
  if (!REWARD_PRESETS.includes(preset)) throw new RequestError(`reward: "${String(body.reward)}" is not a preset; use one of ${REWARD_PRESETS.join(', ')}`);
  const detail = (body.detail ?? 'summary') as Detail;
  if (!DETAILS.includes(detail)) throw new RequestError(`detail: "${String(body.detail)}" must be one of ${DETAILS.join(', ')}`);
  const prepared = await Promise.all(
    items.map(async (raw, i): Promise<{ id: string | null; item: ScoreItem } | ItemReply> => {
      const f = `items[${i}]`;
      const id = isObject(raw) && (typeof raw.id === 'string' || typeof raw.id === 'number') ? String(raw.id) : null;
      try {
        if (!isObject(raw)) throw new Error(`${f}: must be an object`);
        const question = text(raw.question, `${f}.question`, { max: ctx.config.limits.max_question_chars });
        const completion = text(raw.completion, `${f}.completion`, { empty: true });
        const image = await resolveImage(ctx.images, raw.image, `${f}.image`);
        return { id, item: { image, question, completion } };
      } catch (e) {
        return errorReply(id, (e as Error).message);
      }
    }),
  );
  const replies = await scoreAll(ctx, prepared, { preset, detail });
  return {
    status: 200,
    body: {
      rewards: replies.map((r) => r.reward),
      items: replies,
      meta: { ...ctx.meta, reward: preset, elapsed_ms: Math.round(performance.now() - t0) },
    },
  };
}

/** One OpenRLHF sample made into an item; throws naming the field. */
async function openrlhfItem(ctx: ServeContext, query: unknown, prompt: unknown, label: unknown, i: number): Promise<ScoreItem> {
  if (typeof query !== 'string') throw new RequestError(`query[${i}]: must be a string`);
  const l = parseLabel(label, `labels[${i}]`);
  const completion = completionFromQuery(query);
  if (completion === null) throw new RequestError(`query[${i}]: no assistant header of a known chat template (Qwen, Llama-3, LLaVA) to cut the completion after`);
  const question = l.question ?? (typeof prompt === 'string' ? questionFromPrompt(prompt) : null) ?? questionFromPrompt(query);
  if (!question) throw new RequestError(`labels[${i}]: no question, and none found in prompts[${i}]; give {"image", "question"}`);
  const image = await resolveImage(ctx.images, l.image, `labels[${i}].image`).catch((e: Error) => {
    throw new RequestError(e.message);
  });
  return { image, question, completion };
}

/**
 * POST /get_reward, OpenRLHF exactly: lists of any length (empty too) in, `{rewards, scores, extra_logs}` lists of the
 * same length out. A failed item is retried until serve.deadline_ms, then the reply is 503 with the reason: OpenRLHF
 * then retries or stops the step, which is better than a silent 0.
 */
export async function getReward(ctx: ServeContext, body: unknown): Promise<Reply> {
  if (!isObject(body)) throw new RequestError('body: must be a JSON object with "query", "prompts" and "labels"');
  const max = ctx.config.serve.max_items;
  const queries = list(body, 'query', max);
  const labels = list(body, 'labels', max);
  const prompts = body.prompts === undefined ? queries.map(() => null) : list(body, 'prompts', max);
  if (labels.length !== queries.length || prompts.length !== queries.length) {
    throw new RequestError(`labels: query, prompts and labels must have one entry per sample (got ${queries.length}, ${prompts.length}, ${labels.length})`);
  }
  const items = await Promise.all(queries.map((q, i) => openrlhfItem(ctx, q, prompts[i], labels[i], i)));
  const deadline = performance.now() + ctx.config.serve.deadline_ms;
  const replies: (ItemReply | null)[] = items.map(() => null);
  for (;;) {
    const todo = items.map((_, i) => i).filter((i) => replies[i] === null || replies[i]!.status === 'error');
    if (todo.length === 0) break;
    const got = await scoreAll(ctx, todo.map((i) => ({ id: String(i), item: items[i]! })), { preset: ctx.config.reward.preset, detail: 'summary' });
    todo.forEach((i, k) => (replies[i] = got[k]!));
    const failed = replies.find((r) => r!.status === 'error');
    if (!failed) break;
    if (performance.now() + 1000 > deadline) {
      return { status: 503, headers: { 'retry-after': '5' }, body: { error: `item ${failed.id} could not be scored within serve.deadline_ms (${ctx.config.serve.deadline_ms} ms): ${failed.reason}` } };
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  const fallback = ctx.config.serve.openrlhf_unscorable;
  const unscorable = replies.findIndex((r) => r!.status === 'unscorable');
  if (unscorable >= 0 && fallback === 'fail') {
    return { status: 503, body: { error: `item ${unscorable} is unscorable: ${replies[unscorable]!.reason}; set serve.openrlhf_unscorable to a number to give such answers that reward` } };
  }
  const rs = replies.map((r) => r!);
  const num = (f: (r: ItemReply) => number | undefined) => rs.map((r) => f(r) ?? 0);
  return {
    status: 200,
    body: {
      rewards: rs.map((r) => (r.status === 'ok' ? r.reward! : (fallback as number))),
      scores: num((r) => r.precision),
      extra_logs: {
        'rlaifv/accepted': num((r) => r.n_accepted),
        'rlaifv/rejected': num((r) => r.n_rejected),
        'rlaifv/n_claims': num((r) => r.n_claims),
        'rlaifv/rej_p': num((r) => r.rej_p),
      },
    },
  };
}

/** POST /v1/images: the body is the image's bytes; returns its sha256 for `{"image": {"sha256"}}`. */
export async function images(ctx: ServeContext, bytes: Buffer): Promise<Reply> {
  if (bytes.length === 0) throw new RequestError('body: holds no image bytes');
  try {
    const { image, sha256 } = await uploadImage(ctx.images, bytes);
    return { status: 200, body: { sha256, width: image.width, height: image.height, bytes: image.bytes } };
  } catch (e) {
    throw new RequestError((e as Error).message);
  }
}

/** GET /v1/info: the reward definition, the config hash, the models and the limits. */
export function info(ctx: ServeContext): Reply {
  const c = ctx.config;
  const r = c.reward;
  return {
    status: 200,
    body: {
      ...ctx.meta,
      reward: { preset: r.preset, definition: PRESET_DEFINITIONS[r.preset], accepted_weight: r.accepted_weight, rejected_weight: r.rejected_weight, accepted_cap: r.accepted_cap },
      presets: PRESET_DEFINITIONS,
      accept_rule: c.score.accept_rule,
      limits: {
        max_items: c.serve.max_items,
        max_body_bytes: c.serve.max_body_bytes,
        max_image_bytes: c.limits.max_image_bytes,
        deadline_ms: c.serve.deadline_ms,
        window_ms: c.serve.window_ms,
        max_wait_ms: c.serve.max_wait_ms,
        path_images: c.serve.image_root !== null,
        url_hosts: c.serve.url_hosts,
      },
      answers_stored: ctx.answersStored(),
      batches: ctx.scorer.stats.batches,
    },
  };
}
