// The checks that keep README.md and docs/ from drifting: pure functions over markdown text, a command's --help text
// and the config's zod schema, so each can be shown failing on a small fixture (docs-check.test.ts) before
// docs.test.ts runs them on the whole documentation.
import { z } from 'zod';

/** A problem found in a page, named by its file and line. */
export interface DocProblem {
  file: string;
  line: number;
  message: string;
}

/** Each line with its 1-based number and whether it sits inside a ``` fence (the fence lines themselves count as inside). */
export function linesWithFences(md: string): { text: string; line: number; fenced: boolean; lang: string }[] {
  let fence: string | null = null;
  return md.split('\n').map((text, i) => {
    const open = /^```\s*([\w-]*)/.exec(text);
    if (open && fence === null) {
      fence = open[1] ?? '';
      return { text, line: i + 1, fenced: true, lang: fence };
    }
    if (open && fence !== null) {
      const lang = fence;
      fence = null;
      return { text, line: i + 1, fenced: true, lang };
    }
    return { text, line: i + 1, fenced: fence !== null, lang: fence ?? '' };
  });
}

/**
 * GitHub's heading anchor: lower case, markup and punctuation dropped, spaces to hyphens (the rule of github-slugger,
 * which GitHub's renderer uses; symbols such as × and → are dropped as punctuation there too).
 */
export function slugify(heading: string): string {
  return heading
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** Every `#anchor` a page's headings give, with GitHub's -1, -2 suffixes for repeated headings. */
export function headingAnchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of linesWithFences(md)) {
    const m = l.fenced ? null : /^#{1,6} (.+)$/.exec(l.text);
    if (!m) continue;
    const base = slugify(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Inline code spans of a line. */
function codeSpans(text: string): string[] {
  return text.split('`').filter((_, i) => i % 2 === 1);
}

/** Relative links and images of a page (`[x](path#anchor)`), outside code; web and mail links are not followed. */
export function relativeLinks(md: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  // Link text may wrap onto the next line, so the text between fences is scanned whole (code spans blanked out,
  // keeping every character's place so a match's line can be counted).
  let chunk: { text: string; line: number }[] = [];
  const flush = () => {
    const text = chunk.map((l) => l.text).join('\n').replace(/`[^`]*`/g, (c) => c.replace(/[^\n]/g, ' '));
    for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^(https?:|mailto:)/.test(target)) continue;
      const at = m.index! + m[0].indexOf('](');
      out.push({ target, line: chunk[0]!.line + (text.slice(0, at).match(/\n/g)?.length ?? 0) });
    }
    chunk = [];
  };
  for (const l of linesWithFences(md)) {
    if (l.fenced) flush();
    else chunk.push(l);
  }
  if (chunk.length) flush();
  return out;
}

/**
 * Every relative link of every page must reach a file, and its #anchor a heading of that page. `pages` maps a
 * repository path (posix) to its text; `exists` says whether a non-page path exists; `pending` lists pages other
 * branches are writing now, allowed to be missing until they merge.
 */
export function checkLinks(
  pages: Map<string, string>,
  exists: (repoPath: string) => boolean,
  pending: ReadonlySet<string> = new Set(),
): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const [file, md] of pages) {
    for (const { target, line } of relativeLinks(md)) {
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart === '' ? file : joinPosix(dirnamePosix(file), decodeURI(pathPart));
      const page = pages.get(resolved);
      if (page === undefined && !exists(resolved)) {
        if (!pending.has(resolved)) problems.push({ file, line, message: `link to ${target}: ${resolved} does not exist` });
        continue;
      }
      if (anchor && page !== undefined && !headingAnchors(page).has(anchor)) {
        problems.push({ file, line, message: `link to ${target}: ${resolved} has no heading #${anchor}` });
      }
    }
  }
  return problems;
}

function dirnamePosix(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function joinPosix(dir: string, rel: string): string {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** The long flags a command's --help lists (`--no-greedy` and the like included). */
export function helpFlags(help: string): Set<string> {
  const out = new Set<string>();
  for (const m of help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)) out.add(m[1]!);
  return out;
}

/** The command names the top-level --help lists. */
export function helpCommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^\s{2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
}

/** `rlaifv CMD … --flag …` as written in a page: in inline code, and in code blocks (a `\` or an open quote continues a line). */
export function cliMentions(md: string): { command: string; flags: string[]; line: number }[] {
  const out: { command: string; flags: string[]; line: number }[] = [];
  const scan = (text: string, line: number) => {
    // Each `rlaifv CMD` up to the next one, a pipe, `&&` or `;`: the flags after it are that command's.
    for (const m of text.matchAll(/(?:^|[\s(`$])(?:npx\s+)?(?:rlaifv|node\s+dist\/cli\/main\.js)\s+([a-z][a-z-]*)([^|;&]*)/g)) {
      const command = m[1]!;
      const flags = [...(m[2] ?? '').matchAll(/(?:^|\s|\[)(--[a-z][a-z0-9-]*)/g)].map((f) => f[1]!);
      out.push({ command, flags, line });
    }
  };
  let carry = '';
  let carryLine = 0;
  for (const l of linesWithFences(md)) {
    if (l.fenced) {
      if (/^```/.test(l.text)) continue;
      if (!['sh', 'bash', 'console', 'text', ''].includes(l.lang)) continue;
      const text = l.text.replace(/^\$ /, '').replace(/#\s.*$/, '');
      if (!carry) carryLine = l.line;
      carry += ` ${text.replace(/\\$/, '')}`;
      if (/\\$/.test(l.text) || (carry.split('"').length - 1) % 2 === 1) continue;
      scan(carry, carryLine);
      carry = '';
      continue;
    }
    for (const span of codeSpans(l.text)) scan(span, l.line);
  }
  return out;
}

/** Each flag written after `rlaifv CMD` must be one of CMD's own flags; an unknown command is a problem too. */
export function checkFlags(file: string, md: string, helpByCommand: ReadonlyMap<string, Set<string>>): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const { command, flags, line } of cliMentions(md)) {
    const known = helpByCommand.get(command);
    if (!known) {
      problems.push({ file, line, message: `rlaifv ${command}: no such command (${[...helpByCommand.keys()].join(', ')})` });
      continue;
    }
    for (const f of flags) if (!known.has(f)) problems.push({ file, line, message: `rlaifv ${command} has no flag ${f}` });
  }
  return problems;
}

/**
 * A flag named alone in inline code (`--spans`, `--token-weight γ`) must be known somewhere: an rlaifv command's flag,
 * a flag the repository's scripts parse, or a flag of an outside tool the page tells the reader to pass.
 */
export function checkBareFlags(file: string, md: string, known: (flag: string) => boolean): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const l of linesWithFences(md)) {
    if (l.fenced) continue;
    for (const span of codeSpans(l.text)) {
      const m = /^(--[a-z][a-z0-9_-]*)/.exec(span);
      if (m && !known(m[1]!)) problems.push({ file, line: l.line, message: `${m[1]} is no flag of rlaifv, its scripts or a known outside tool` });
    }
  }
  return problems;
}

/** Unwraps optional, nullable, default, pipe and friends down to the schema that holds keys. */
function unwrap(s: z.ZodType): z.ZodType[] {
  const def = (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return unwrap(def.innerType as z.ZodType);
    case 'pipe':
      return unwrap(def.in as z.ZodType);
    case 'union':
      return (def.options as z.ZodType[]).flatMap(unwrap);
    case 'array':
      return unwrap(def.element as z.ZodType);
    default:
      return [s];
  }
}

/** Every key path of a zod object schema (`pair.refine.max_turns`), through unions, arrays and defaults. */
export function configKeyPaths(schema: z.ZodType, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const s of unwrap(schema)) {
    const def = (s as unknown as { _zod: { def: { type: string; shape?: Record<string, z.ZodType> } } })._zod.def;
    if (def.type !== 'object' || !def.shape) continue;
    for (const [key, child] of Object.entries(def.shape)) {
      const p = prefix ? `${prefix}.${key}` : key;
      out.add(p);
      for (const sub of configKeyPaths(child, p)) out.add(sub);
    }
  }
  return out;
}

/**
 * Config key paths a page names in inline code (`feedback.gate.threshold`, `pair.refine.*`): a dotted path whose first
 * segment is a top-level key. A trailing `.*` names a section; `<form>`-style segments stand for any key.
 */
export function configMentions(md: string, topLevel: ReadonlySet<string>): { key: string; line: number }[] {
  const out: { key: string; line: number }[] = [];
  for (const l of linesWithFences(md)) {
    if (l.fenced) continue;
    for (const span of codeSpans(l.text)) {
      const m = /^([a-z_]+)((?:\.[a-z_*]+)+)(?::.*)?$/.exec(span.trim());
      if (m && topLevel.has(m[1]!)) out.push({ key: (m[1]! + m[2]!).replace(/\.\*$/, ''), line: l.line });
    }
  }
  return out;
}

/** Each config key a page names must exist in the schema. */
export function checkConfigKeys(file: string, md: string, keys: ReadonlySet<string>): DocProblem[] {
  // Only sections count as a path's first segment: `prompts.jsonl` names a file, not a key under `prompts`.
  const top = new Set([...keys].filter((k) => !k.includes('.') && [...keys].some((c) => c.startsWith(`${k}.`))));
  return configMentions(md, top)
    .filter(({ key }) => !keys.has(key))
    .map(({ key, line }) => ({ file, line, message: `config key ${key} is not in src/config/schema.ts` }));
}

/** A runnable example: a ```console block, its `$ ` commands with the output shown under each. */
export interface ConsoleExample {
  line: number;
  /** From an `<!-- docs-test: MODE (why) -->` comment right above the block: run (default), long, server, skip. */
  mode: string;
  note: string;
  commands: { command: string; expected: string[]; line: number }[];
}

/** The ```console blocks of a page. A command continues on the next line while a double quote is open or it ends in `\`. */
export function consoleExamples(md: string): ConsoleExample[] {
  const lines = md.split('\n');
  const out: ConsoleExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```console\s*$/.test(lines[i]!)) continue;
    const directive = /^<!-- docs-test: (\w[\w-]*)\s*(.*?)\s*-->$/.exec(lines[i - 1] ?? '');
    const ex: ConsoleExample = { line: i + 1, mode: directive?.[1] ?? 'run', note: directive?.[2] ?? '', commands: [] };
    for (i++; i < lines.length && !/^```/.test(lines[i]!); i++) {
      const text = lines[i]!;
      if (text.startsWith('$ ')) {
        let command = text.slice(2);
        const line = i + 1;
        while (((command.split('"').length - 1) % 2 === 1 || command.endsWith('\\')) && i + 1 < lines.length) {
          command = command.replace(/\\$/, '') + '\n' + lines[++i]!;
        }
        ex.commands.push({ command, expected: [], line });
      } else if (ex.commands.length > 0) {
        ex.commands[ex.commands.length - 1]!.expected.push(text);
      }
    }
    out.push(ex);
  }
  return out;
}

/** Output shown in a page for comparison: runs of spaces are one space; `…` stands for any text. */
function outputPattern(expected: string): RegExp {
  const parts = expected.trim().replace(/\s+/g, ' ').split('…');
  return new RegExp('^' + parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
}

/** Seconds, rates and sizes in KB vary between runs; everything else (counts, shares, texts) must match. */
export function maskTimings(text: string): string {
  return text
    .replace(/\b\d+(\.\d+)?\s?(s|ms|KB|questions\/s|answers\/s|prompts\/s)\b/g, '#')
    .replace(/(\s)\d+\.\d+$/gm, '$1#');
}

/**
 * The shown output's non-empty lines must appear in the real output in the same order (other lines may come
 * between); with `timing`, durations are masked on both sides first.
 */
export function compareOutput(expected: string[], actual: string, timing = false): string | null {
  const norm = (s: string) => (timing ? maskTimings(s) : s).trim().replace(/\s+/g, ' ');
  const got = actual.split('\n').map(norm);
  let at = 0;
  for (const want of expected.filter((e) => e.trim() !== '')) {
    const re = outputPattern(timing ? maskTimings(want) : want);
    const found = got.findIndex((g, i) => i >= at && (re.test(g) || re.test(norm(g))));
    if (found < 0) return `expected a line ${JSON.stringify(want.trim())} (in order) in:\n${actual}`;
    at = found + 1;
  }
  return null;
}

/** `### rlaifv CMD` followed by a ```text block: the help the CLI reference shows for each command. */
export function helpBlocks(md: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of md.matchAll(/^### rlaifv ([a-z-]+)\n\n```text\n([\s\S]*?)\n```$/gm)) out.set(m[1]!, m[2]!);
  return out;
}
