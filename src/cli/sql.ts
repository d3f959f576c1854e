// `rlaifv sql`: one read-only query on the store, printed as a table, JSON or CSV.
import { Option, type Command } from 'commander';
import { existingDbFile, withStoreFlags } from './export-flags.js';

const MAX_CELL = 80;

/** A value as text for the table: NULL spelled out, blobs summarised, newlines shown, long text cut. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Buffer.isBuffer(v)) return `<blob ${v.length} bytes>`;
  const s = String(v).replace(/\r?\n/g, '\\n');
  return s.length > MAX_CELL ? s.slice(0, MAX_CELL - 1) + '…' : s;
}

/** The rows as an aligned text table (numbers right-aligned), with a row count. */
export function renderTable(columns: string[], rows: unknown[][]): string {
  const text = rows.map((r) => r.map(cell));
  const width = columns.map((c, i) => Math.max(c.length, ...text.map((r) => r[i]!.length)));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number'));
  const line = (cells: string[], header = false) =>
    cells.map((c, i) => (numeric[i] && !header ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join('  ').trimEnd();
  const out = [line(columns, true), width.map((w) => '-'.repeat(w)).join('  '), ...text.map((r) => line(r))];
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
  return out.join('\n') + '\n';
}

const jsonValue = (v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v);

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF, or is the empty string (so it differs
 * from NULL, which is an empty unquoted field); quotes inside are doubled.
 * @example csvField('say "hi", bye') // '"say ""hi"", bye"'
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = Buffer.isBuffer(v) ? v.toString('base64') : String(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Unique keys for JSON objects: a repeated column name gets a suffix (`id`, `id_2`). */
function objectKeys(columns: string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = (seen.get(c) ?? 0) + 1;
    seen.set(c, n);
    return n === 1 ? c : `${c}_${n}`;
  });
}

async function write(s: string): Promise<void> {
  if (!process.stdout.write(s)) await new Promise((r) => process.stdout.once('drain', r));
}

interface SqlFlags {
  json?: boolean;
  csv?: boolean;
  db?: string;
  config?: string;
  upgrade?: boolean;
}

/** Registers `sql`. */
export function registerSql(program: Command): void {
  withStoreFlags(
    program
      .command('sql')
      .description('run one read-only SQL query on the store (tables and the v_* views); writing statements are refused')
      .argument('<query>', 'one SQL statement, e.g. "SELECT * FROM v_rounds"')
      .addOption(new Option('--json', 'a JSON array of objects').conflicts('csv'))
      .addOption(new Option('--csv', 'CSV (RFC 4180) with a header row').conflicts('json')),
  )
    .option('--upgrade', "first migrate an older database to this rlaifv's schema (adds tables and views, changes no rows)")
    .action(async (query: string, f: SqlFlags) => {
      const file = await existingDbFile(f);
      // The store (better-sqlite3) is loaded when the command runs, once the database is known to exist.
      const { latestSchemaVersion, openDb } = await import('../store/index.js');
      const { prepareReadQuery } = await import('../store/query.js');
      if (f.upgrade) openDb(file).close();
      const db = openDb(file, { readonly: true });
      try {
        const version = db.pragma('user_version', { simple: true }) as number;
        if (version < latestSchemaVersion()) {
          process.stderr.write(
            `note: ${file} has schema version ${version} (this rlaifv: ${latestSchemaVersion()}); ` +
              'views added since are missing: add --upgrade to migrate it first.\n',
          );
        }
        const q = prepareReadQuery(db, query);
        if (f.json) {
          const keys = objectKeys(q.columns);
          let n = 0;
          for (const r of q.rows()) {
            await write((n++ === 0 ? '[\n' : ',\n') + JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, jsonValue(r[i])]))));
          }
          await write(n === 0 ? '[]\n' : '\n]\n');
        } else if (f.csv) {
          await write(q.columns.map(csvField).join(',') + '\r\n');
          for (const r of q.rows()) await write(r.map(csvField).join(',') + '\r\n');
        } else {
          await write(renderTable(q.columns, [...q.rows()]));
        }
      } finally {
        db.close();
      }
    });
}
