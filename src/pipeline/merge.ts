// Merging shard stores of a round into one store: rows copied once, length balance recomputed over the whole round.
import { configSchema } from '../config/schema.js';
import { mergedShards, mergeShard, openDb, finishRound, roundCount, roundPairMethod, StoreInputError, type MergeReport } from '../store/index.js';
import { rebalance } from '../stages/pair.js';

/** What merging did to each round it touched. */
export interface MergeResult {
  shards: MergeReport[];
  rounds: { id: number; shards: string[]; complete: boolean; prompts: number; paired: number; pairs: number; kept: number; status: string }[];
}

/** Merges shard stores into `into` (created if missing), then recomputes each touched round's length balance. */
export function mergeStores(into: string, files: string[]): MergeResult {
  if (files.length === 0) throw new StoreInputError('merge: name at least one shard store.');
  const db = openDb(into);
  try {
    const shards = files.map((f) => mergeShard(db, into, f));
    const ids = [...new Set(shards.flatMap((s) => s.rounds))].sort((a, b) => a - b);
    const rounds = ids.map((id) => {
      const r = roundPairMethod(db, id);
      const config = configSchema.parse(JSON.parse(r.config_json));
      // Length balance is one decision over all of a round's pairs: each shard's own r is replaced.
      rebalance(db, id, r.pair_method, config.pair.length_balance);
      const prompts = roundCount(db, 'prompts', id, r.pair_method);
      const paired = roundCount(db, 'paired', id, r.pair_method);
      const { shards: merged, complete } = mergedShards(db, id);
      // Done when every slice of the shard set is in and every prompt is paired.
      const done = complete && prompts > 0 && paired === prompts;
      finishRound(db, id, done ? 'done' : 'running');
      return {
        id,
        shards: merged,
        complete,
        prompts,
        paired,
        pairs: roundCount(db, 'pairs', id, r.pair_method),
        kept: roundCount(db, 'kept', id, r.pair_method),
        status: done ? 'done' : 'running',
      };
    });
    return { shards, rounds };
  } finally {
    db.close();
  }
}
