// Streaming: a round's prompts move through the stages a slice at a time. Every stage works on its own slice at
// once (generate on slice k+1 while divide and label work on slice k), so a prompt goes on to dividing as soon as
// its samples are in, every backend stays busy, and what a stage holds in memory is one slice, whatever the
// number of prompts. Length balance, which looks at the whole round, runs once after the last slice.
import type { Config } from '../config/schema.js';
import { roundOrdinals, type OrdinalRange } from '../store/index.js';
import type { StageContext, StageResult } from './context.js';
import type { Progress } from '../progress.js';

/** One stage as streaming runs it: a function of the context (whose scope is the slice). */
export interface StreamStage {
  name: string;
  run(ctx: StageContext): Promise<StageResult>;
}

/** Cuts a round's prompts (their ordinals, in order) into slices of `size` prompts. */
export function slicesOf(ordinals: readonly number[], size: number): (OrdinalRange & { prompts: number })[] {
  const out: (OrdinalRange & { prompts: number })[] = [];
  for (let i = 0; i < ordinals.length; i += size) {
    const next = ordinals[i + size];
    out.push({ from: ordinals[i]!, to: next ?? ordinals.at(-1)! + 1, prompts: Math.min(size, ordinals.length - i) });
  }
  return out;
}

interface Gate {
  promise: Promise<void>;
  open(): void;
  fail(e: unknown): void;
}

function gate(): Gate {
  let open!: () => void;
  let fail!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    open = res;
    fail = rej;
  });
  promise.catch(() => {}); // a lane that never waits on it must not make it an unhandled rejection
  return { promise, open, fail };
}

/**
 * Runs `stages` over the round's prompts slice by slice, each stage one slice behind the one before it. The first
 * error stops every stage before its next slice (what is stored stays, and a rerun goes on from there) and is
 * rethrown. Returns one result per stage, summed over the slices (`seconds`: the time the stage was working).
 */
export async function runStreaming(
  base: Omit<StageContext, 'scope' | 'progress'>,
  config: Config,
  stages: readonly StreamStage[],
  progress: Progress,
  afterSlice: () => void = () => {},
): Promise<StageResult[]> {
  const ordinals = roundOrdinals(base.db, base.round.id);
  const slices = slicesOf(ordinals, config.chunk_prompts);
  const gates = stages.map(() => slices.map(() => gate()));
  const totals: StageResult[] = stages.map((s) => ({ stage: s.name, items: 0, failures: 0, seconds: 0, modelSeconds: 0 }));
  let failure: { error: unknown } | null = null;
  const lanes = stages.map(async (stage, j) => {
    const p = progress.lane ? progress.lane(stage.name, ordinals.length) : progress;
    try {
      for (let k = 0; k < slices.length; k++) {
        if (j > 0) await gates[j - 1]![k]!.promise;
        if (failure) throw failure.error;
        const { from, to } = slices[k]!;
        const r = await stage.run({ ...base, progress: p, scope: { from, to } });
        const t = totals[j]!;
        t.items += r.items;
        t.failures += r.failures;
        t.seconds += r.seconds;
        t.modelSeconds += r.modelSeconds;
        afterSlice();
        p.through?.(slices[k]!.prompts);
        gates[j]![k]!.open();
      }
      p.finish?.();
    } catch (e) {
      failure ??= { error: e };
      for (const g of gates[j]!) g.fail(e);
      throw e;
    }
  });
  await Promise.allSettled(lanes);
  if (failure) throw (failure as { error: unknown }).error;
  return totals;
}


