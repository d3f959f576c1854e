// What the test server copies from real servers, mode by mode: error envelopes and texts, sampling defaults from a
// model's generation_config.json, chat templates, model cards. Each behaviour names the upstream file and function it
// copies (V = vllm-project/vllm, S = sgl-project/sglang; see docs/remote-servers.md "Servers as they really answer").
//
// 'rlaifv' is the server as it was before the modes: nested errors, no defaults, rlaifv's own template, seeds honoured.

/** Which server the test server behaves like. */
export type Mimic = 'rlaifv' | 'vllm' | 'vllm-legacy' | 'sglang';
export const MIMICS: readonly Mimic[] = ['rlaifv', 'vllm', 'vllm-legacy', 'sglang'];

/** A chat template the server renders conversations with (prompt_logprobs and /tokenize use it). */
export type TemplateName = 'default' | 'chatml' | 'llava-hf' | 'vicuna';
export const TEMPLATES: readonly TemplateName[] = ['default', 'chatml', 'llava-hf', 'vicuna'];

/** An HTTP error to answer with: the status, the server's text, and its error type. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'BadRequestError',
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** A route the server does not have: FastAPI's own 404 (both vLLM and SGLang are FastAPI apps). */
export class NoRoute extends Error {}

/**
 * The body of an error response.
 * - vllm (≥ 0.10.1): V entrypoints/openai/engine/protocol.py ErrorResponse{error: ErrorInfo{message, type, param, code}}
 *   (PR #22099).
 * - vllm-legacy (< 0.10.1) and sglang: the flat ErrorResponse{object: "error", message, type, param, code}
 *   (S entrypoints/openai/protocol.py ErrorResponse; V issue #12886).
 * - an unknown route, in every mimic mode: FastAPI's {"detail": "Not Found"}.
 * - rlaifv: the nested shape, as the test server always answered.
 */
export function errorBody(mode: Mimic, e: HttpError | NoRoute): { status: number; body: unknown } {
  if (e instanceof NoRoute) return mode === 'rlaifv' ? { status: 404, body: { error: { message: e.message, type: 'NotFoundError', code: 404 } } } : { status: 404, body: { detail: 'Not Found' } };
  const info = { message: e.message, type: e.type, param: e.param, code: e.status };
  if (mode === 'vllm-legacy' || mode === 'sglang') return { status: e.status, body: { object: 'error', ...info } };
  return { status: e.status, body: { error: info } };
}

/** The server's texts for what rlaifv meets, per mode (V serving_engine / processor, S serving_chat / tokenizer_manager). */
export const TEXTS = {
  /** V entrypoints/openai/models/serving.py check_model. */
  modelMissing: (model: string) => `The model \`${model}\` does not exist.`,
  /** V v1/engine/processor.py _validate_logprobs. */
  sampleLogprobs: (n: number, max: number) => `Requested sample logprobs of ${n}, which is greater than max allowed: ${max}`,
  promptLogprobs: (n: number, max: number) => `Requested prompt logprobs of ${n}, which is greater than max allowed: ${max}`,
  /**
   * A prompt longer than the context: V v1/engine/processor.py _validate_model_input (a multimodal model's suggestion
   * included); S managers/tokenizer_manager.py _validate_one_request (input tokens >= context_len). Their checks of
   * prompt + max_tokens are not copied: the tiny models' context (160 tokens) is below rlaifv's default max_new_tokens.
   */
  contextLength: (mode: Mimic, promptTokens: number, maxModelLen: number) =>
    mode === 'sglang'
      ? `The input (${promptTokens} tokens) is longer than the model's context length (${maxModelLen} tokens).`
      : `The decoder prompt (length ${promptTokens}) is longer than the maximum model length of ${maxModelLen}. Make sure that \`max_model_len\` is no smaller than the number of text tokens plus multimodal tokens. For image inputs, the number of image tokens depends on the number of images, and possibly their aspect ratios as well.`,
  /** PIL's UnidentifiedImageError, as both servers pass it on when an image part is not an image. */
  badImage: () => 'cannot identify image file <_io.BytesIO object at 0x7f3a2c1b5f80>',
} as const;

/**
 * The sampling fields a request leaves out, filled from the model's generation_config.json, as both servers do by
 * default: V config ModelConfig.get_diff_sampling_param + ChatCompletionRequest.to_sampling_params ("user -> server
 * default -> OpenAI default"); S protocol.py ChatCompletionRequest.to_sampling_params with --sampling-defaults model.
 * The keys vLLM reads, and max_new_tokens as the default of max_tokens.
 */
export const GENERATION_CONFIG_KEYS = ['repetition_penalty', 'temperature', 'top_k', 'top_p', 'min_p', 'max_new_tokens'] as const;

/** The effective sampling of a request: what it sent, else the generation config's value, else the built-in default. */
export function effectiveSampling(body: Record<string, unknown>, genConfig: Record<string, unknown> | null): {
  temperature: number;
  top_p: number;
  top_k: number;
  min_p: number;
  repetition_penalty: number;
  max_tokens: number | null;
} {
  const pick = (field: string, key: string, fallback: number): number => {
    const v = body[field];
    if (typeof v === 'number') return v;
    const d = genConfig?.[key];
    return typeof d === 'number' ? d : fallback;
  };
  const maxTokens = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : typeof body.max_tokens === 'number' ? body.max_tokens : null;
  return {
    temperature: pick('temperature', 'temperature', 1),
    top_p: pick('top_p', 'top_p', 1),
    top_k: pick('top_k', 'top_k', -1),
    min_p: pick('min_p', 'min_p', 0),
    repetition_penalty: pick('repetition_penalty', 'repetition_penalty', 1),
    max_tokens: maxTokens ?? (typeof genConfig?.max_new_tokens === 'number' ? (genConfig.max_new_tokens as number) : null),
  };
}

/**
 * Chat templates of real models, for prompt_logprobs and /tokenize. The tiny models have one image token, `<image>`,
 * which stands in for each template's own image marker (Qwen's <|vision_start|><|image_pad|><|vision_end|>) and is
 * expanded to the model's image tokens as vLLM expands the marker; `{% generation %}` blocks (a transformers extension
 * that only marks the assistant's tokens) render their body.
 */
export const CHAT_TEMPLATES: Record<Exclude<TemplateName, 'default'>, string> = {
  // Qwen2-VL-7B-Instruct chat_template.json (ChatML: the answer ends with <|im_end|> and a newline). <|im_start|> and
  // <|im_end|> are one special token each in Qwen's tokenizer; the tiny vocabulary's are <s> and </s> (see chatml()).
  chatml:
    "{% set image_count = namespace(value=0) %}{% for message in messages %}{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n{% else %}{% for content in message['content'] %}{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}{% set image_count.value = image_count.value + 1 %}<image>{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
  // llava-hf/llava-1.5-7b-hf chat_template.json: "ASSISTANT: " + text + " ", no end-of-turn token.
  'llava-hf':
    "{% for message in messages %}{% if message['role'] != 'system' %}{{ message['role'].upper() + ': '}}{% endif %}{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}{{ '<image>\n' }}{% endfor %}{% if message['role'] != 'assistant' %}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}{{ content['text'] + ' '}}{% endfor %}{% else %}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}{% generation %}{{ content['text'] + ' '}}{% endgeneration %}{% endfor %}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ 'ASSISTANT:' }}{% endif %}",
  // LLaVA-1.5's vicuna_v1 conversation (llava/conversation.py conv_vicuna_v1) as a template: a system line, then
  // "USER: … ASSISTANT: …</s>" with the end token right after the answer.
  vicuna:
    "{{ \"A chat between a curious human and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the human's questions.\" }}{% for message in messages %}{% if message['role'] == 'user' %} USER: {% for content in message['content'] %}{% if content['type'] == 'image' %}<image>\n{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}{% endfor %}{% elif message['role'] == 'assistant' %} ASSISTANT: {% for content in message['content'] %}{% if content['type'] == 'text' %}{{ content['text'] }}{% endif %}{% endfor %}</s>{% endif %}{% endfor %}{% if add_generation_prompt %} ASSISTANT:{% endif %}",
};

/**
 * A template as the tiny models can render it: transformers' `{% generation %}` marks taken out (their body stays),
 * and ChatML's <|im_start|> and <|im_end|> written as the vocabulary's <s> and </s>, so each is one special token as
 * in Qwen's tokenizer (as text they would be seven unknown words, and Qwen's system turn alone would fill the context).
 */
export function renderable(template: string): string {
  return template
    .replace(/\{%-?\s*(end)?generation\s*-?%\}/g, '')
    .replaceAll('<|im_start|>', '<s>')
    .replaceAll('<|im_end|>', '</s>');
}
