// The checks that keep README.md and docs/ from drifting, beside markdown.ts: rlaifv's flags against each command's
// --help text, config keys against the zod schema; each shown failing on a small fixture (docs-check.test.ts).
import { z } from 'zod';
import { codeSpans, linesWithFences, type DocProblem } from './markdown.js';

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

/** `### rlaifv CMD` followed by a ```text block: the help the CLI reference shows for each command. */
export function helpBlocks(md: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of md.matchAll(/^### rlaifv ([a-z-]+)\n\n```text\n([\s\S]*?)\n```$/gm)) out.set(m[1]!, m[2]!);
  return out;
}
