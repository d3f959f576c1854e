// `rlaifv doctor` as a library: checks the config, the local model folders, the database and every remote endpoint,
// each with ok / warn / fail and a fix to try. Nothing is written anywhere; secrets are never part of the report.
import { existsSync, statSync } from 'node:fs';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { LocalModelUse } from './models.js';
import { fail, ok, warn, type Check, type CheckStatus, type DoctorReport } from './types.js';

export type { Check, CheckStatus, DoctorReport } from './types.js';

/** What to check: as the other commands take it, a config file (default: the embedded one) and a database. */
export interface DoctorOptions {
  config?: string;
  db?: string;
  /** Where relative paths given here resolve (default: the working directory). */
  cwd?: string;
}

function configCheck(o: DoctorOptions): { loaded: LoadedConfig | null; check: Check } {
  const source = o.config ?? '(embedded default)';
  try {
    const loaded = loadConfig(o.config, o.db ? { db: o.db } : {}, o.cwd);
    return { loaded, check: ok('config', source, o.config ? 'valid JSON, every field known and of the right type' : 'valid (built in; no --config given)') };
  } catch (e) {
    const msg = (e as Error).message;
    const fix = /^Cannot read/.test(msg)
      ? 'check the path given to --config (it is relative to the working directory)'
      : /not valid JSON/.test(msg)
        ? `fix the JSON syntax at the position named (a trailing comma or a missing quote is typical); rlaifv.example.json is a valid example`
        : 'change each named field as the message says (README "Config" lists every field, its type and default; rlaifv.example.json is the default written out)';
    return { loaded: null, check: fail('config', source, msg, fix) };
  }
}

function promptsCheck(file: string): Check {
  if (!existsSync(file)) {
    return warn('prompts', file, 'does not exist', 'set "prompts" in the config to your prompts JSONL file, or pass --prompts FILE to run');
  }
  if (statSync(file).isDirectory()) return fail('prompts', file, 'is a folder, not a JSONL file', 'set "prompts" to the JSONL file inside it (e.g. prompts.jsonl)');
  return ok('prompts', file, `present (${statSync(file).size} bytes; lines are checked as a run reads them)`);
}

/** Runs every check. Exit code: 0 no failure, 1 a failure, 2 the config file is bad (then nothing else is checked). */
export async function runDoctor(o: DoctorOptions = {}): Promise<DoctorReport> {
  const checks: Check[] = [];
  const { loaded, check } = configCheck(o);
  checks.push(check);
  let exitCode: 0 | 1 | 2 = 0;
  if (!loaded) exitCode = 2;
  else {
    // The checks past the config are loaded only for a config that loads: refusing one never loads the model-folder
    // reader, SQLite, the OpenAI SDK, undici or sharp (about 0.4 s of CPU).
    const [{ checkDatabase }, { checkEndpoints }, { checkLocalModel }] = await Promise.all([
      import('./database.js'),
      import('./endpoints.js'),
      import('./models.js'),
    ]);
    const c = loaded.config;
    checks.push(promptsCheck(c.prompts));
    const uses: LocalModelUse[] = [];
    if (c.generate.backend.type === 'local') uses.push({ role: 'generate', dir: c.generate.backend.model });
    if (c.label.backend.type === 'local') uses.push({ role: 'label', dir: c.label.backend.model });
    if (c.feedback.method === 'dpo-reward') {
      const d = c.feedback.dpo_reward;
      if (d.policy?.type === 'local') uses.push({ role: 'reward-policy', dir: d.policy.model });
      if (d.reference.type === 'local') uses.push({ role: 'reward-reference', dir: d.reference.model });
    }
    for (const u of uses) checks.push(...(await checkLocalModel(u)));
    checks.push(...checkDatabase(c.db));
    checks.push(...(await checkEndpoints(c)));
    if (checks.some((x) => x.status === 'fail')) exitCode = 1;
  }
  const counts: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0 };
  for (const x of checks) counts[x.status]++;
  return { config: loaded?.source ?? o.config ?? '(embedded default)', db: loaded?.config.db ?? null, checks, counts, exitCode };
}

/** The report as text: one line per check, the fix under each warning and failure, then a summary line. */
export function renderDoctor(r: DoctorReport): string {
  const width = Math.max(...r.checks.map((c) => c.check.length));
  const lines: string[] = [];
  for (const c of r.checks) {
    const detail = c.detail.replace(/\n\s*/g, ' ');
    lines.push(`${c.status.padEnd(4)}  ${c.check.padEnd(width)}  ${c.target}: ${detail}`);
    if (c.fix) lines.push(`${' '.repeat(6 + width)}  fix: ${c.fix}`);
  }
  const n = r.counts;
  lines.push(
    `${n.ok} ok, ${n.warn} warning${n.warn === 1 ? '' : 's'}, ${n.fail} failure${n.fail === 1 ? '' : 's'}` +
      (r.exitCode === 2 ? ' (the config could not be read: nothing else was checked)' : ''),
  );
  return lines.join('\n') + '\n';
}

/** The report as one JSON object (what `--json` prints). */
export function doctorJson(r: DoctorReport): string {
  return JSON.stringify({ ok: r.exitCode === 0, exit_code: r.exitCode, config: r.config, db: r.db, counts: r.counts, checks: r.checks }) + '\n';
}
