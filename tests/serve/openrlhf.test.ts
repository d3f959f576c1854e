// OpenRLHF's query text as its VLM rollout builds it: the completion after the last assistant header, with the
// processor's expanded image pad tokens before it (openrlhf/utils/agent.py, v0.11.0; ONLINE-RL.md §1.2).
import { describe, expect, it } from 'vitest';
import { completionFromQuery, parseLabel, questionFromPrompt } from '../../src/serve/openrlhf.js';

const ANSWER = 'The blue circle is in the middle left.\nThere is a red star.';
const QWEN_PROMPT = (pads: number) =>
  `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<|vision_start|>${'<|image_pad|>'.repeat(pads)}<|vision_end|>Where is the blue circle?<|im_end|>\n<|im_start|>assistant\n`;

describe('OpenRLHF query parsing', () => {
  it('cuts the completion after the last assistant header of Qwen, Llama-3 and LLaVA templates, end tokens stripped', () => {
    expect(completionFromQuery(`${QWEN_PROMPT(1024)}${ANSWER}<|im_end|>`)).toBe(ANSWER);
    expect(completionFromQuery(`${QWEN_PROMPT(256)}${ANSWER}<|im_end|>\n<|endoftext|><|endoftext|>`)).toBe(ANSWER);
    const llama = `<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n<|image|>Where is the blue circle?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n${ANSWER}<|eot_id|>`;
    expect(completionFromQuery(llama)).toBe(ANSWER);
    const llava = `USER: ${'<image>'.repeat(576)}\nWhere is the blue circle? ASSISTANT: ${ANSWER}</s>`;
    expect(completionFromQuery(llava)).toBe(ANSWER);
    // An answer that quotes "ASSISTANT:" earlier does not confuse the last header.
    expect(completionFromQuery(`${QWEN_PROMPT(4)}${ANSWER}<|im_end|>`)).toBe(ANSWER);
    expect(completionFromQuery('no template here')).toBeNull();
  });

  it('reads the question of the last user turn, image placeholders removed', () => {
    expect(questionFromPrompt(QWEN_PROMPT(1))).toBe('Where is the blue circle?');
    expect(questionFromPrompt(`USER: <image>\nHow many shapes are there? ASSISTANT:`)).toBe('How many shapes are there?');
  });

  it('reads a label as a path, a URL, or a JSON object or string, and names a bad one', () => {
    expect(parseLabel('images/a.png', 'labels[0]')).toMatchObject({ image: { path: 'images/a.png' }, question: null });
    expect(parseLabel('https://x.org/a.png', 'labels[0]').image).toEqual({ url: 'https://x.org/a.png' });
    expect(parseLabel('{"image": "a.png", "question": "Q?", "id": 3}', 'labels[0]')).toMatchObject({ image: { path: 'a.png' }, question: 'Q?', id: '3' });
    expect(parseLabel({ image: { sha256: 'ab' }, question: 'Q?' }, 'labels[0]').image).toEqual({ sha256: 'ab' });
    expect(() => parseLabel('{"image": ', 'labels[2]')).toThrow(/labels\[2\]: looks like JSON/);
    expect(() => parseLabel({ question: 'Q?' }, 'labels[1]')).toThrow(/labels\[1\]\.image: missing/);
    expect(() => parseLabel(7, 'labels[0]')).toThrow(/labels\[0\]/);
  });
});
