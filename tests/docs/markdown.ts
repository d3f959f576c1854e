// Markdown as the docs checks read it: fences, GitHub anchors, relative links, and the runnable ```console examples
// with the output they show. Pure functions over a page's text (docs-check.test.ts shows each failing on a fixture).

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
export function codeSpans(text: string): string[] {
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
