// `rlaifv pull`: a consumer gets the kept pairs it has not had, each exactly once. The output is written to a temp
// file and fsynced; then ONE transaction records the delivery and renames the file into place, so a crash before the
// commit delivers nothing (no rows; the file is removed when the commit fails).
import type { Db } from '../store/open.js';
import { getRound, latestRound, type RoundRow } from '../store/rounds.js';
import { allRounds, heldOutPairs, insertDelivery, iterateKeptPairs } from '../store/deliveries.js';
import { containerFor, getFormat } from './formats.js';
import { spansAllowed } from './spans.js';
import { referenceAllowed, withColumns } from './reference.js';
import { writeOutput, type Written } from './target.js';
import { ExportInputError } from './errors.js';

/** Which rounds a pull covers: one round, the newest, or every finished round. */
export type RoundSelector = number | 'latest' | 'all';

/** A consumer name: letters, digits, '.', '_' and '-' (it is a key, typos should not look alike). */
export const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The rounds a pull reads. Only finished rounds (status 'done') are delivered: a running round's pairs and their
 * length balance may still change. With 'all', unfinished rounds are skipped and returned in `skipped`.
 */
export function pullRounds(db: Db, sel: RoundSelector, dbFile: string): { rounds: RoundRow[]; skipped: RoundRow[] } {
  const all = allRounds(db);
  if (all.length === 0) throw new ExportInputError(`No rounds in ${dbFile} yet; run \`rlaifv run\` first.`);
  if (sel === 'all') return { rounds: all.filter((r) => r.status === 'done'), skipped: all.filter((r) => r.status !== 'done') };
  const r = sel === 'latest' ? latestRound(db) : getRound(db, sel);
  if (!r) throw new ExportInputError(`No round ${sel} in ${dbFile}.`);
  if (r.status !== 'done') {
    throw new ExportInputError(
      `Round ${r.id} is ${r.status}, not done; pull delivers finished rounds only (finish it with \`rlaifv run --round ${r.id}\`).`,
    );
  }
  return { rounds: [r], skipped: [] };
}

/** What to pull. */
export interface PullOptions {
  consumer: string;
  rounds: RoundSelector;
  format: string;
  /** A file ('.parquet' for Parquet), or '-' for `stdout`. */
  out: string;
  stdout?: NodeJS.WritableStream;
  datasetName?: string;
  /** Add each side's claim spans (chosen_spans, rejected_spans); JSON containers only. */
  spans?: boolean;
  /** Add each side's reference log-probs (pair.reference_logprobs); JSON containers only. */
  referenceLogprobs?: boolean;
  /**
   * Runs inside the delivery transaction, after the delivery is recorded and the file is in place, before the commit:
   * a caller's own record of the delivery (the loop's step) commits with it, or neither does.
   */
  onCommit?: (delivery: number, written: Written) => void;
  /**
   * Test hook: runs inside the delivery transaction after the file was renamed into place, just before the commit.
   * A crash at that point cannot be produced on demand by a real part, so tests throw here to check that nothing is
   * delivered and the file is removed.
   */
  beforeCommit?: () => void;
}

/** What a pull delivered. */
export interface PullResult extends Written {
  delivery: number;
  consumer: string;
  rounds: number[];
  skipped: RoundRow[];
  /** Kept pairs not delivered because their image is held out for evaluation (an evaluation round has seen it). */
  heldOut: number;
}

/**
 * Delivers to a consumer the kept pairs of the selected rounds it has not had yet, and records them in the same
 * transaction that puts the file in place. A pull with no new pairs still writes a valid, empty output (and records
 * a delivery of 0 pairs), so a file at `out` is always exactly the latest pull.
 * To stdout the bytes are out before the record: a crash in between delivers those pairs again next time.
 * @example await pull(db, { consumer: 'trainer', rounds: 'all', format: 'trl', out: 'pairs.jsonl' }, 'db/rlaifv.sqlite')
 */
export async function pull(db: Db, o: PullOptions, dbFile: string): Promise<PullResult> {
  if (!CONSUMER_NAME.test(o.consumer)) {
    throw new ExportInputError(
      `Consumer name "${o.consumer}" is not allowed: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
  const format = getFormat(o.format);
  const container = containerFor(format, o.out);
  if (o.spans) spansAllowed(container);
  if (o.referenceLogprobs) referenceAllowed(container);
  const { rounds, skipped } = pullRounds(db, o.rounds, dbFile);
  const ids = rounds.map((r) => r.id);
  const w = await writeOutput({
    rows: () => withColumns(db, iterateKeptPairs(db, ids, o.consumer), o),
    format,
    container,
    out: o.out,
    stdout: o.stdout ?? process.stdout,
    ...(o.datasetName ? { datasetName: o.datasetName } : {}),
  });
  let delivery = 0;
  try {
    db.transaction(() => {
      delivery = insertDelivery(db, {
        consumer: o.consumer,
        format: format.name,
        container,
        target: w.target,
        selector: String(o.rounds),
        bytes: w.bytes,
        sha256: w.sha256,
        pairIds: w.pairIds,
      });
      w.place();
      o.onCommit?.(delivery, w);
      o.beforeCommit?.();
    }).immediate();
  } catch (e) {
    w.discard();
    throw e;
  }
  const { place: _p, discard: _d, ...written } = w;
  return { ...written, delivery, consumer: o.consumer, rounds: ids, skipped, heldOut: heldOutPairs(db, ids) };
}
