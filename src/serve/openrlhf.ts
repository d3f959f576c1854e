// OpenRLHF's remote reward call, read exactly: `{"query", "prompts", "labels"}` (openrlhf/utils/agent.py,
// SingleTurnAgentExecutor._fetch_rewards_via_http, v0.11.0). OpenRLHF sends no image, so it comes from the label; the
// completion is cut from `query` after the last assistant header of the chat template (query holds the processor's
// expanded image pad tokens, so `query[len(prompt):]` does not work for VLM prompts).

/** Assistant headers of the common templates: Qwen (ChatML), Llama-3, LLaVA 1.5 (vicuna), LLaVA-NeXT (mistral), Phi-3. */
const ASSISTANT_HEADERS = ['<|im_start|>assistant\n', '<|im_start|>assistant', '<|start_header_id|>assistant<|end_header_id|>', 'ASSISTANT:', '[/INST]', '<|assistant|>'];
/** User headers paired with where a user turn ends, for the question when the label has none. */
const USER_TURNS: [string, string[]][] = [
  ['<|im_start|>user', ['<|im_end|>']],
  ['<|start_header_id|>user<|end_header_id|>', ['<|eot_id|>']],
  ['USER:', ['ASSISTANT:']],
  ['[INST]', ['[/INST]']],
  ['<|user|>', ['<|end|>']],
];
/** End-of-turn and end-of-text tokens stripped from the completion's end. */
const END_TOKENS = ['<|im_end|>', '<|eot_id|>', '<|end_of_text|>', '<|endoftext|>', '</s>', '<|end|>', '<end_of_turn>', '<|eom_id|>', '<pad>'];
/** Image placeholders removed from a question. */
const IMAGE_TOKENS = /<\|vision_start\|>(?:<\|image_pad\|>|<\|video_pad\|>)*<\|vision_end\|>|<\|image_pad\|>|<\|image\|>|<image>|<\|vision_start\|>|<\|vision_end\|>/g;

/**
 * The completion in an OpenRLHF query: the text after the last assistant header, end tokens stripped; null when the
 * query has no known header.
 * @example completionFromQuery('<|im_start|>assistant\nA red circle.<|im_end|>') // 'A red circle.'
 */
export function completionFromQuery(query: string): string | null {
  let best = -1;
  let len = 0;
  for (const h of ASSISTANT_HEADERS) {
    const at = query.lastIndexOf(h);
    // The longest header at the latest place: "<|im_start|>assistant\n" over its prefix without the newline.
    if (at > best || (at === best && h.length > len)) [best, len] = [at, h.length];
  }
  if (best < 0) return null;
  let text = query.slice(best + len);
  for (let changed = true; changed; ) {
    changed = false;
    text = text.replace(/\s+$/, '');
    for (const t of END_TOKENS) {
      if (text.endsWith(t)) {
        text = text.slice(0, -t.length);
        changed = true;
      }
    }
  }
  return text.trim();
}

/** The last user turn's text in a templated prompt, image placeholders removed; null when there is none. */
export function questionFromPrompt(prompt: string): string | null {
  let best: { at: number; head: string; ends: string[] } | null = null;
  for (const [head, ends] of USER_TURNS) {
    const at = prompt.lastIndexOf(head);
    if (at >= 0 && (!best || at > best.at)) best = { at, head, ends };
  }
  if (!best) return null;
  let text = prompt.slice(best.at + best.head.length);
  for (const e of best.ends) {
    const cut = text.indexOf(e);
    if (cut >= 0) text = text.slice(0, cut);
  }
  const q = text.replace(IMAGE_TOKENS, '').trim();
  return q === '' ? null : q;
}

/** What a label gives: the image spec, and the question and id when it carries them. */
export interface ParsedLabel {
  image: unknown;
  question: string | null;
  id: string | null;
  group: string | null;
}

/** An image reference as a label writes it: a string is a URL (http(s), data:) or a path under the image root. */
function imageOfString(s: string): unknown {
  return /^(https?:\/\/|data:)/i.test(s) ? { url: s } : { path: s };
}

/**
 * A label of `/get_reward`: an image path or URL, or `{"image", "question"?, "id"?, "group"?}` as an object or a JSON
 * string. Throws naming the field when it is neither.
 */
export function parseLabel(label: unknown, field: string): ParsedLabel {
  let v = label;
  if (typeof v === 'string' && v.trim().startsWith('{')) {
    try {
      v = JSON.parse(v);
    } catch (e) {
      throw new Error(`${field}: looks like JSON but does not parse (${(e as Error).message})`);
    }
  }
  if (typeof v === 'string') {
    if (v.trim() === '') throw new Error(`${field}: is empty; give the image (a path or URL) or {"image", "question"}`);
    return { image: imageOfString(v.trim()), question: null, id: null, group: null };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${field}: must be an image path or URL, or {"image", "question", "id"}`);
  const o = v as Record<string, unknown>;
  const str = (k: string) => {
    const x = o[k];
    if (x === undefined || x === null) return null;
    if (typeof x !== 'string' && typeof x !== 'number') throw new Error(`${field}.${k}: must be a string`);
    return String(x);
  };
  const img = o.image;
  if (img === undefined) throw new Error(`${field}.image: missing`);
  return { image: typeof img === 'string' ? imageOfString(img) : img, question: str('question'), id: str('id'), group: str('group') };
}
