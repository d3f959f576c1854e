// The store: the only module that talks to SQLite.
export * from './open.js';
export * from './rounds.js';
export * from './inputs.js';
export * from './work.js';
export * from './pairs.js';
export * from './failures.js';
export * from './stats.js';
export * from './usage.js';
export * from './shard-spec.js';
export * from './shards.js';
export * from './loop.js';
export * from './answer-scores.js';
export * from './answer-logprobs.js';
export * from './pair-judgments.js';
export * from './compare-verdicts.js';
export * from './dialogues.js';
export * from './tools.js';
export * from './online.js';
/** The store's clock (ISO 8601, UTC), as every stored timestamp is written. */
export { now } from './statements.js';
