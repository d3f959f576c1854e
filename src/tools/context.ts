// Tool knowledge as text for a served judge's {context} (Anyprefer: the judge ranks with the tools' knowledge base).
import { describe, type Description } from '../shapes/statement.js';
import { article, numberWord } from '../shapes/vocabulary.js';
import type { Knowledge } from '../shapes/knowledge.js';
import type { Tool } from './types.js';

/** One object in words, only what the tool knows: "a large red circle in the top left", "a red shape in the center". */
function objectText(o: Knowledge['objects'][number]): string {
  const d: Description = {};
  if (o.shape) d.shape = o.shape;
  if (o.color) d.color = o.color;
  if (o.size) d.size = o.size;
  if (o.position) d.position = o.position;
  const np = describe(d);
  return `${article(np)} ${np}`;
}

/**
 * The knowledge of several tools about one image as the lines a judge reads.
 * @example knowledgeText([{ name: 'segmenter', knowledge: k }]) // 'Tool knowledge about the image:\n- segmenter: two objects: a large red circle in the top left, a small blue star in the center.'
 */
export function knowledgeText(found: readonly { name: string; knowledge: Knowledge }[]): string {
  if (found.length === 0) return '';
  const lines = found.map(({ name, knowledge: k }) => {
    const n = k.objects.length;
    const head = n === 1 ? 'one object' : `${numberWord(n)} objects`;
    return `- ${name}: ${head}${n ? `: ${k.objects.map(objectText).join(', ')}` : ''}.`;
  });
  return `Tool knowledge about the image:\n${lines.join('\n')}`;
}

/** Each image's tool knowledge as judge context, made once per image (an image a tool cannot read is left out). */
export class KnowledgeContext {
  private readonly cache = new Map<string, Promise<string>>();
  constructor(readonly tools: readonly Tool[]) {}

  /** The context text for an image ('' without tools). */
  of(imagePath: string): Promise<string> {
    let p = this.cache.get(imagePath);
    if (!p) {
      p = Promise.all(this.tools.map(async (t) => ({ name: t.name, knowledge: await t.know(imagePath).catch(() => null) }))).then((r) =>
        knowledgeText(r.filter((x): x is { name: string; knowledge: Knowledge } => x.knowledge !== null)),
      );
      this.cache.set(imagePath, p);
    }
    return p;
  }
}
