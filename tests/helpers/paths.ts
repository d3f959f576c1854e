// Paths of the committed tiny models and data, and temp folders for real SQLite files.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder for temp folders (run-folders-setup.ts), removed when the run ends. */
    tempRoot: string;
  }
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const POLICY = path.join(ROOT, 'models', 'shapes-policy');
export const LABELER = path.join(ROOT, 'models', 'shapes-labeler');
export const DEV = path.join(ROOT, 'data', 'shapes', 'dev');
export const TEST = path.join(ROOT, 'data', 'shapes', 'test');

/** The vitest run's temp root, or the system's temp folder outside a run (scripts that import these helpers). */
function tempRoot(): string {
  try {
    const dir = inject('tempRoot');
    if (dir && existsSync(dir)) return dir;
  } catch {
    // not inside a vitest worker
  }
  return os.tmpdir();
}

/** A fresh temp folder (real files: WAL behaves differently in memory), inside the run's root: gone when it ends. */
export function tempDir(prefix = 'rlaifv-test-'): string {
  return mkdtempSync(path.join(tempRoot(), prefix));
}

/** The committed test split's yes/no questions. */
export function testQuestions(): { image: string; question: string; answer: 'yes' | 'no'; form: string }[] {
  return readFileSync(path.join(TEST, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Settings of a served backend for tests: quick backoff so retries don't make the suite slow. */
export function serverBackend(url: string | string[], model: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'openai' as const,
    model,
    base_urls: Array.isArray(url) ? url : [url],
    max_in_flight: 4,
    timeout_ms: 20_000,
    max_retries: 2,
    min_backoff_ms: 20,
    max_backoff_ms: 200,
    rest_after_failures: 3,
    rest_ms: 300,
    ...extra,
  };
}
