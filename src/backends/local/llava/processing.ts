// The text side of a LLaVA processor, after transformers.js's `models/llava/processing_llava.js`: the chat template,
// the image token expanded to the image's tokens, the tokenizer's ids and texts, with per-model memo tables.
import type { Turn } from '../../../domain.js';
import type { LlavaFolderInfo } from '../model-folder.js';

/** Another chat template than the model's own, and whether the last message is continued (see LlavaProcessing.render). */
export interface RenderOptions {
  template?: string;
  continueFinal?: boolean;
}

// Bound of the per-model memo table of prompt ids by question.
const MAX_PROMPT_IDS = 16_384;

/** A model's chat template and tokenizer (the processor's `apply_chat_template` and `tokenizer`). */
export class LlavaProcessing {
  private readonly texts = new Map<number, string>();
  private readonly promptIdsMemo = new Map<string, number[]>();
  /** The chat template around the question, when it inserts the question verbatim (checked once). */
  private templateParts: { before: string; after: string } | null | undefined;

  constructor(
    private readonly info: LlavaFolderInfo,
    private readonly processor: any,
  ) {}

  /** The model's vocabulary as (token text, id) pairs. */
  vocabulary(): [string, number][] {
    const v = this.processor.tokenizer.get_vocab();
    return v instanceof Map ? [...v.entries()] : Object.entries(v as Record<string, number>);
  }

  /** The text of one token id (decoded once per id). */
  tokenText(id: number): string {
    let t = this.texts.get(id);
    if (t === undefined) this.texts.set(id, (t = this.processor.tokenizer.decode([id], { skip_special_tokens: false }) as string));
    return t;
  }

  /**
   * The chat-template prompt for a conversation ending with a user turn, ending where the assistant starts: the
   * earlier turns (`history`) first, the image in the first user turn.
   */
  prompt(question: string, history: readonly Turn[] = []): string {
    return this.render([...history, { role: 'user', content: question }], true);
  }

  /**
   * A conversation (first turn the user's, holding the image) through the chat template: the model's own, or another
   * one (`opts.template`, given every message as a list of parts as vLLM gives such templates). `continueFinal` ends
   * the text right after the last message's content, as transformers' continue_final_message does.
   */
  render(turns: readonly Turn[], addGenerationPrompt: boolean, opts: RenderOptions = {}): string {
    const messages = turns.map((t, i) =>
      i === 0
        ? { role: 'user', content: [{ type: 'image' }, { type: 'text', text: t.content }] }
        : opts.template
          ? { role: t.role, content: [{ type: 'text', text: t.content }] }
          : { role: t.role, content: t.content },
    );
    const text: string = this.processor.apply_chat_template(messages, {
      add_generation_prompt: addGenerationPrompt,
      tokenize: false,
      ...(opts.template ? { chat_template: opts.template } : {}),
    });
    if (!opts.continueFinal) return text;
    const last = turns.at(-1)!.content;
    const at = text.lastIndexOf(last);
    if (at < 0) throw new Error('continue_final_message: the last message is not in the rendered conversation');
    return text.slice(0, at + last.length);
  }

  /** A text's token ids (no template). */
  encode(text: string): number[] {
    return this.processor.tokenizer.encode(text) as number[];
  }

  /** Token ids of a templated text, its image token expanded to `imageTokens` as LlavaProcessor does. */
  idsOf(text: string, imageTokens: number): number[] {
    const tok = this.processor.config.image_token as string;
    return this.processor.tokenizer.encode(text.replace(tok, tok.repeat(imageTokens))) as number[];
  }

  /**
   * Token ids of the full prompt for one question, the image token expanded as LlavaProcessor does (the same ids as
   * LlavaModel.inputs); remembered per question. The returned array is shared: do not change it.
   */
  promptIds(question: string, imageTokens: number, history: readonly Turn[] = []): readonly number[] {
    const key = `${imageTokens}\u0000${question}${history.length ? `\u0000${JSON.stringify(history)}` : ''}`;
    let ids = this.promptIdsMemo.get(key);
    if (!ids) {
      ids = this.idsOf(this.templated(question, history), imageTokens);
      if (this.promptIdsMemo.size >= MAX_PROMPT_IDS) this.promptIdsMemo.delete(this.promptIdsMemo.keys().next().value!);
      this.promptIdsMemo.set(key, ids);
    }
    return ids;
  }

  /**
   * The token ids an answer is scored on: the answer's text after a space, without special tokens, then the
   * end-of-sequence token (scripts/shapes/dpo.py's `encode(tok, " " + answer) + [EOS]`).
   */
  answerIds(answer: string): number[] {
    const ids = this.processor.tokenizer.encode(' ' + answer, { add_special_tokens: false }) as number[];
    return [...ids, this.info.eosTokenId];
  }

  /** Text of generated ids, special tokens dropped; an answer that ended at once is '' (transformers.js throws on no ids). */
  decode(ids: number[]): string {
    if (ids.length === 0) return '';
    return this.processor.tokenizer.decode(ids, { skip_special_tokens: true }).trim();
  }

  /**
   * The chat-template prompt for a question by string concatenation, when the template inserts the question
   * verbatim (checked once with two probe texts); else the template itself.
   */
  private templated(question: string, history: readonly Turn[]): string {
    // Earlier turns go through the template itself (the fast path is for the single-turn shape it was probed with).
    if (history.length > 0) return this.prompt(question, history);
    if (this.templateParts === undefined) {
      const a = '\u{E000}';
      const b = ' x\u{E001}y \n';
      const pa = this.prompt(a);
      const i = pa.indexOf(a);
      const parts = { before: pa.slice(0, i), after: pa.slice(i + a.length) };
      this.templateParts = i >= 0 && pa.indexOf(a, i + 1) < 0 && this.prompt(b) === parts.before + b + parts.after ? parts : null;
    }
    const t = this.templateParts;
    return t ? t.before + question + t.after : this.prompt(question);
  }
}
