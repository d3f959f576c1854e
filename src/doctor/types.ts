// What `rlaifv doctor` reports: one line per check, each ok, warn or fail, with a fix to try for the last two.

/** How a check came out: ok, a problem that does not stop a run (warn), or one that does (fail). */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One check's result. */
export interface Check {
  /** What was checked, e.g. "config", "label model files", "database integrity", "label endpoint". */
  check: string;
  /** What it was checked on: a file, a folder or an endpoint URL (never with credentials). */
  target: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** A concrete thing to try (always given for warn and fail). */
  fix: string | null;
}

/** Every check, and the exit code the command ends with. */
export interface DoctorReport {
  /** The config file checked, or "(embedded default)". */
  config: string;
  /** The database file checked (null when the config could not be read). */
  db: string | null;
  checks: Check[];
  counts: Record<CheckStatus, number>;
  /** 0 no failure, 1 a failure, 2 the config file itself is bad (nothing else could be checked). */
  exitCode: 0 | 1 | 2;
}

/** Builds a check; `fix` is required by the type for warn and fail. */
export function ok(check: string, target: string, detail: string): Check {
  return { check, target, status: 'ok', detail, fix: null };
}

export function warn(check: string, target: string, detail: string, fix: string): Check {
  return { check, target, status: 'warn', detail, fix };
}

export function fail(check: string, target: string, detail: string, fix: string): Check {
  return { check, target, status: 'fail', detail, fix };
}
