// The one flag kit: every command's --config, --db, --round, --json, --quiet and --samples, and the parsers of whole
// numbers and rounds. A bad value is an InvalidArgumentError naming the flag; main.ts turns it into exit 2.
import { InvalidArgumentError, Option } from 'commander';

/** Parses a whole-number flag within [min, max] (digits only: "1e3", "0x10" and "" are refused). */
export function wholeNumber(flag: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  return (v: string): number => {
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${flag} must be a whole number ${range}, got "${v}".`);
    return n;
  };
}

/** Parses a positive whole-number flag. */
export const positiveInt = (flag: string) => wholeNumber(flag, 1);

/** The words a --round may take besides a round number; each command allows the ones that make sense for it. */
export type RoundWord = 'latest' | 'next' | 'all';

/** Parses --round: a round number or one of `words`; anything else names the flag, what is allowed and `why`. */
export function roundArg<W extends RoundWord>(words: W[], why?: string) {
  const allowed = ['a round number', ...words.map((w) => `"${w}"`)];
  const said = allowed.length > 2 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed.join(' or ');
  return (v: string): number | W => {
    if ((words as string[]).includes(v)) return v as W;
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`--round must be ${said}, got "${v}"${why ? ` (${why})` : ''}.`);
    return n;
  };
}

/** --round with the words a command allows, shown in its help as `<n|latest|…>`; `why` explains a refusal. */
export function roundOption<W extends RoundWord>(help: string, words: W[], why?: string): Option {
  return new Option(`--round <${['n', ...words].join('|')}>`, help).argParser(roundArg(words, why));
}

/** --config: the config JSON file. */
export const configOption = (help = 'config JSON file (default: the embedded demo config)') => new Option('--config <file>', help);

/** --db: the SQLite store. */
export const dbOption = (help = 'SQLite database (default: db/rlaifv.sqlite)') => new Option('--db <file>', help);

/** --json: the result as JSON on stdout, nothing else there. */
export const jsonOption = (help = 'one JSON object') => new Option('--json', help);

/** --quiet: no progress (or, for commands without progress, no summary). */
export const quietOption = (help = 'no progress output') => new Option('--quiet', help);

/** --samples: answers per prompt. */
export const samplesOption = (help = 'samples per prompt', defaultValue?: number) => {
  const o = new Option('--samples <n>', help).argParser(positiveInt('--samples'));
  return defaultValue === undefined ? o : o.default(defaultValue);
};

/**
 * An old spelling kept for one release: hidden from help, parsed like the new flag, and a one-line deprecation note
 * on stderr when used. Its value lands under the old name's attribute (`--n` → `f.n`); the action prefers it.
 */
export function deprecatedAlias(old: string, now: string, parse: (v: string) => unknown): Option {
  return new Option(`${old} <value>`, `deprecated: use ${now}`).hideHelp().argParser((v: string) => {
    process.stderr.write(`rlaifv: ${old} is deprecated and will be removed in the next release; use ${now}.\n`);
    return parse(v);
  });
}
