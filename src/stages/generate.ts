// Stage 1: the policy answers every prompt N times, each sample with its own recorded seed.
import { doneSamples, failedItems, putCandidates, putFailures, roundPrompts, promptHistory, type CandidateRow, type FailureInput } from '../store/index.js';
import { hashSeed } from '../feedback/rng.js';
import { wordCount } from '../feedback/words.js';
import { contentId } from './ids.js';
import { FatalBackendError } from '../backends/errors.js';
import { SampleGuard, capFix } from './sample-guard.js';
import { WriteBatcher, type StageContext, type StageResult } from './context.js';
import { mapLimit, timed } from '../progress.js';

/** The seed of sample `index` of a prompt in a round: distinct per sample, reproducible from the round seed. */
export function sampleSeed(roundSeed: number, promptId: string, index: number): number {
  return hashSeed(roundSeed, promptId, index) & 0x7fffffff;
}

/** Samples what is missing for every prompt of the round. */
export async function runGenerate(ctx: StageContext, concurrency: number): Promise<StageResult> {
  const t0 = performance.now();
  const gen = ctx.backends.generator;
  if (!gen) throw new Error('generate: no policy backend configured.');
  const { samples, temperature, top_p, max_new_tokens } = ctx.config.generate;
  const decoding = { temperature, top_p, max_new_tokens };
  const done = doneSamples(ctx.db, ctx.round.id, ctx.scope);
  const failed = failedItems(ctx.db, ctx.round.id, 'generate');
  const work = roundPrompts(ctx.db, ctx.round.id, ctx.scope)
    .map((p) => ({
      p,
      // A prompt the quality gate topped up (feedback.gate.top_up) wants its extra samples too, with their own seeds.
      missing: Array.from({ length: samples + (p.extra_samples ?? 0) }, (_, i) => i).filter(
        (i) => !done.get(p.id)?.has(i) && !failed.has(`${p.id}#${i}`),
      ),
    }))
    .filter((w) => w.missing.length > 0);
  const acc = { modelSeconds: 0 };
  const guard = new SampleGuard(temperature, max_new_tokens);
  let failures = 0;
  let items = 0;
  ctx.progress.start('generate', work.reduce((a, w) => a + w.missing.length, 0));
  const decodingJson = JSON.stringify(decoding);
  // Answers and failures are written together in large transactions: against many served endpoints a transaction per
  // prompt cost more client CPU than the requests themselves (the remote-fleet bench).
  const out = new WriteBatcher<CandidateRow | FailureInput>((rows) => {
    ctx.db.transaction(() => {
      putCandidates(ctx.db, rows.filter((r): r is CandidateRow => 'sample_index' in r));
      const fails = rows.filter((r): r is FailureInput => !('sample_index' in r));
      if (fails.length) putFailures(ctx.db, fails);
    }).immediate();
  });
  try {
    await mapLimit(work, concurrency, async ({ p, missing }) => {
      const req = {
        imagePath: p.image_path,
        question: p.question,
        history: promptHistory(p),
        samples: missing.map((index) => ({ index, seed: sampleSeed(ctx.round.seed, p.id, index) })),
        decoding,
      };
      let results;
      try {
        results = await timed(acc, () => gen.generate(req));
      } catch (e) {
        if (e instanceof FatalBackendError) throw e;
        results = req.samples.map((s) => ({ ...s, error: (e as Error).message }));
      }
      const rows: CandidateRow[] = [];
      const fails: FailureInput[] = [];
      const wasStopped = new Set(results.map((r) => ('error' in r ? undefined : r.endpoint)).filter((e) => guard.stopped(e)));
      for (const stop of guard.observe(results)) {
        ctx.progress.log(stop.message);
        // A local policy has no endpoint to leave out: the run stops.
        if (!gen.stopEndpoint) throw new FatalBackendError(stop.message);
        gen.stopEndpoint(stop.endpoint, stop.message);
      }
      for (const r of results) {
        if ('error' in r || wasStopped.has(r.endpoint)) {
          // Answers of an endpoint already stopped are failures, so --retry-failed samples them on another.
          const reason = 'error' in r ? r.error : `endpoint ${r.endpoint} was stopped by the sampling guard`;
          fails.push({ round_id: ctx.round.id, stage: 'generate', item: `${p.id}#${r.index}`, reason });
          continue;
        }
        rows.push({
          id: contentId(ctx.round.id, p.id, r.index),
          round_id: ctx.round.id,
          prompt_id: p.id,
          sample_index: r.index,
          seed: r.seed,
          model_id: gen.id,
          decoding_json: decodingJson,
          text: r.text,
          finish_reason: r.finishReason,
          prompt_tokens: r.promptTokens,
          completion_tokens: r.completionTokens,
          words: wordCount(r.text),
        });
      }
      out.add(rows);
      out.add(fails);
      failures += fails.length;
      items += rows.length;
      ctx.progress.tick(results.length);
    });
  } finally {
    out.flush(); // what was done before an error is kept
  }
  ctx.progress.done();
  const cut = Object.entries(guard.cutByEndpoint);
  if (cut.length) {
    const n = cut.reduce((a, [, k]) => a + k, 0);
    ctx.progress.log(`generate: ${n} answers stopped for "length" before generate.max_new_tokens (${cut.map(([e, k]) => `${e}: ${k}`).join(', ')}; counted as answers_cut_short in rlaifv stats). If a server caps max_tokens (vLLM: the model's generation_config.json max_new_tokens): ${capFix(max_new_tokens, null)}.`);
  }
  return { stage: 'generate', items, failures, seconds: (performance.now() - t0) / 1000, modelSeconds: acc.modelSeconds };
}
