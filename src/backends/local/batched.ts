// Shared-prefix batching: an image's prompts share the chat-template prefix and the image tokens, so the prefix's
// key/value cache is computed once and every question (labeler) or every sample (policy) continues from it in
// batches. Every row gives what a one-row run of its whole prompt gives (within float noise): a real token never
// sees a padded position, and positions continue from the prefix as in the unbatched run. Across images, the prefix
// is run once with a row per image (extendPrefixRows) and a batch's rows may continue different images' rows, each
// row's past gathered from its own image's (continuationLogitsAcross).
//
// One file per job in batched/: plan.ts (cutting rows into runs), feeds.ts (embeddings, masks, positions),
// prefix.ts (running prefixes), continuation.ts (logits and log-probs of continuations), sample-rows.ts (sampling).
// This file is the public entry.
export { CACHE_BUDGET_FLOATS, DEFAULT_PLAN, planBatches, rowsWithinCacheBudget, type BatchPlanOptions } from './batched/plan.js';
export { continuationFeeds, continuationLayout, countImageTokens } from './batched/feeds.js';
export {
  commonPrefixLength,
  EMPTY_PREFIX,
  extendPrefix,
  extendPrefixRows,
  gatherRows,
  type PrefixRow,
  type SharedPrefix,
} from './batched/prefix.js';
export {
  continuationLogits,
  continuationLogitsAcross,
  continuationTokenLogprobs,
  logprobOf,
  type ContinuationRow,
} from './batched/continuation.js';
export { sampleRows, type SampledIds } from './batched/sample-rows.js';
