// FROZEN COPY of src/divide/sentences.ts at commit 474dcd8 (the rules divider before issue 29), kept only for
// scripts/study/divide-real.ts and the divide benchmark to compare against. Do not edit or import from src/.
/** Sentence splitting that survives abbreviations, decimals, line wrapping and bullet lists. */

// A period after these is not a sentence end even before a capital ("Mr. Smith", "e.g. The").
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'eg', 'ie', 'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'mt', 'fig', 'approx', 'cf',
  'vol', 'dept', 'gov', 'lt', 'col', 'capt', 'sgt', 'rev', 'ave', 'inc', 'ltd',
]);

const BULLET = /^\s*(?:[-*\u2022\u2023\u25aa\u2013\u2014+]|\(?\d{1,3}[.)]|\(?[a-zA-Z][)])\s+/;
const HEADING = /^\s*#{1,6}\s+/;

/** Split text into sentences; bullet items and paragraphs are always separate sentences. */
export function splitSentences(text: string): string[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const out: string[] = [];
  for (const block of blocks(text)) out.push(...splitBlock(block));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

// Group lines into blocks: a bullet, a heading or a blank line starts a new block; a wrapped line
// (previous line unfinished, next starting lower-case) joins the one before.
function blocks(text: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
    const isBullet = BULLET.test(rawLine) || HEADING.test(rawLine);
    const line = rawLine.replace(HEADING, '').replace(BULLET, '').trim();
    if (line === '') {
      if (cur !== null) out.push(cur);
      cur = null;
      continue;
    }
    const unfinished = cur !== null && !/[.!?:]["')\]]*$/.test(cur);
    if (cur !== null && unfinished && !isBullet && (/^[a-z(]/.test(line) || /^\s/.test(rawLine))) {
      cur = `${cur} ${line}`;
    } else {
      if (cur !== null) out.push(cur);
      cur = line;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

function isAbbreviation(before: string): boolean {
  const word = /([A-Za-z.]+)$/.exec(before)?.[1] ?? '';
  const lower = word.toLowerCase().replace(/^\.+/, '');
  if (ABBREVIATIONS.has(lower)) return true;
  // Initials and dotted acronyms: "J. Smith", "U.S. Army".
  return /^[A-Z]$/.test(word) || /^(?:[A-Za-z]\.)+[A-Za-z]$/.test(word);
}

function splitBlock(block: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /([.!?\u2026]+)(["')\]\u201d\u2019]*)(\s+|$)/g;
  for (let m = re.exec(block); m !== null; m = re.exec(block)) {
    const end = m.index + (m[1]?.length ?? 0) + (m[2]?.length ?? 0);
    const next = block.slice(m.index + m[0].length);
    const punct = m[1] ?? '';
    const before = block.slice(start, m.index);
    if (next !== '') {
      const startsNew = /^["'(\[\u201c]?[A-Z0-9]/.test(next);
      if (punct === '.' && isAbbreviation(before)) continue;
      if (!startsNew && !/[!?]/.test(punct)) continue;
    }
    out.push(block.slice(start, end));
    start = m.index + m[0].length;
  }
  if (start < block.length) out.push(block.slice(start));
  return out;
}
