// Reading an LLM's "- item" bullet lists (REFERENCE §2): headers ignored, numbering and other bullet marks accepted,
// the format's own placeholders dropped.

const BULLET = /^(?:[-*\u2022\u2013]|\d{1,3}[.)])\s+(.+)$/u;
const HEADER = /^(?:#{1,6}\s*|\*\*)(.+?)(?:\*\*)?:?\s*$/u;

/** Bullet items of a list, read from the section whose header matches `section` when there is one. */
export function parseBullets(text: string, section?: RegExp): { items: string[]; header: boolean } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.trim());
  let inSection = section === undefined;
  let header = false;
  const sectioned: string[] = [];
  const all: string[] = [];
  for (const line of lines) {
    if (!line || line.startsWith('```')) continue;
    const h = HEADER.exec(line);
    if (h && !BULLET.test(line)) {
      if (section) {
        inSection = section.test(h[1]!);
        if (inSection) header = true;
      }
      continue;
    }
    if (section && !h && /:\s*$/.test(line) && section.test(line)) {
      // "Facts:" without a markdown header mark.
      inSection = true;
      header = true;
      continue;
    }
    const b = BULLET.exec(line);
    if (!b) continue;
    const item = b[1]!.trim().replace(/^"(.*)"$/u, '$1').trim();
    if (!item || item === '...' || /^\{.*\}$/u.test(item)) continue;
    all.push(item);
    if (inSection) sectioned.push(item);
  }
  return header ? { items: sectioned, header } : { items: all, header };
}
