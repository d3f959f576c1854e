// Shard i of n: the type, its parser and the hash that assigns prompts, with no SQLite here, so the CLI's --shard
// parser loads it without the store (store/shards.ts records and merges shards).
import { createHash } from 'node:crypto';
import { InputError } from '../errors.js';

/** A shard or merge request that cannot be done as asked (the CLI exits 2, as for other bad input). */
export class StoreInputError extends InputError {
  override name = 'StoreInputError';
}

/** Shard i of n (0 ≤ i < n). */
export interface Shard {
  index: number;
  count: number;
}

/** Parses "i/n" (0-based i, as Slurm's SLURM_ARRAY_TASK_ID and Kubernetes' JOB_COMPLETION_INDEX count). */
export function parseShard(v: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(v.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index >= count) {
    throw new StoreInputError(`--shard must be i/n with 0 ≤ i < n (e.g. 0/4 … 3/4), got "${v}".`);
  }
  return { index, count };
}

/** "i/n". */
export function shardText(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/** Which shard of `count` a prompt belongs to: a hash of its id, so it never depends on file order or machine. */
export function shardOf(promptId: string, count: number): number {
  const h = createHash('sha256').update(promptId).digest();
  return h.readUInt32BE(0) % count;
}
