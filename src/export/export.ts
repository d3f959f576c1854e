// `rlaifv export`: a round's kept pairs in a trainer format, written atomically; no delivery is recorded.
import type { Db } from '../store/open.js';
import { getRound, latestRound, type RoundRow } from '../store/rounds.js';
import { iterateKeptPairs } from '../store/deliveries.js';
import { containerFor, getFormat } from './formats.js';
import { spansAllowed } from './spans.js';
import { referenceAllowed, withColumns } from './reference.js';
import { writeOutput, type Written } from './target.js';
import { ExportInputError } from './errors.js';

/** The round an export reads: a number or 'latest'. */
export function exportRound(db: Db, choice: number | 'latest', dbFile: string): RoundRow {
  const r = choice === 'latest' ? latestRound(db) : getRound(db, choice);
  if (!r) {
    throw new ExportInputError(
      choice === 'latest' ? `No rounds in ${dbFile} yet; run \`rlaifv run\` first.` : `No round ${choice} in ${dbFile}.`,
    );
  }
  return r;
}

/** What to export. */
export interface ExportOptions {
  round: number;
  format: string;
  /** A file ('.parquet' for Parquet), or '-' for `stdout`. */
  out: string;
  stdout?: NodeJS.WritableStream;
  /** LLaMA-Factory: the dataset_info.json entry name (default: the file name without extension). */
  datasetName?: string;
  /** Add each side's claim spans (chosen_spans, rejected_spans); JSON containers only. */
  spans?: boolean;
  /** Add each side's reference log-probs (pair.reference_logprobs); JSON containers only. */
  referenceLogprobs?: boolean;
}

/**
 * Writes the round's kept pairs to `out`; the file appears whole or not at all.
 * @example await exportPairs(db, { round: 1, format: 'trl', out: 'pairs.parquet' })
 */
export async function exportPairs(db: Db, o: ExportOptions): Promise<Written> {
  const format = getFormat(o.format);
  const container = containerFor(format, o.out);
  if (o.spans) spansAllowed(container);
  if (o.referenceLogprobs) referenceAllowed(container);
  const w = await writeOutput({
    rows: () => withColumns(db, iterateKeptPairs(db, [o.round]), o),
    format,
    container,
    out: o.out,
    stdout: o.stdout ?? process.stdout,
    ...(o.datasetName ? { datasetName: o.datasetName } : {}),
  });
  try {
    w.place();
  } catch (e) {
    w.discard();
    throw e;
  }
  const { place: _p, discard: _d, ...written } = w;
  return written;
}
