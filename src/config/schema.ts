// The config file's shape: strict zod schemas (an unknown key is an error) with the method's defaults.
import { z } from 'zod';
import { INPUT_FORMATS } from './input-formats.js';
import { QUESTION_FORMS } from '../shapes/form.js';
import { CORRECTION_EDITORS, type CorrectionEditor } from '../feedback/corrections.js';
import { rewardSchema, serveSchema } from './serve-schema.js';

/** What a server backend's `server` may say (see backends/openai/server-kind.ts). */
export const SERVER_KINDS = ['auto', 'vllm', 'sglang', 'openai'] as const;

const localModel = z.strictObject({
  type: z.literal('local'),
  /** A LLaVA-layout model folder (see models/). */
  model: z.string().min(1),
});

/** How rlaifv talks to one or more OpenAI-compatible servers serving the same model (operational: not in the config hash). */
const serverFields = {
  /** The model name the server serves (vLLM: the `--served-model-name`, or the path it was started with). */
  model: z.string().min(1),
  /** One or more base URLs ending in /v1; requests go to the least-loaded one that is not resting. */
  base_urls: z.array(z.string().url()).min(1),
  /** Name of the environment variable holding the API key (the key itself never goes in a config). */
  api_key_env: z.string().min(1).optional(),
  /** A file whose first line is the API key (relative to the config file). */
  api_key_file: z.string().min(1).optional(),
  /** Requests in flight at once, per endpoint. */
  max_in_flight: z.number().int().positive().default(8),
  /** Per-request timeout. */
  timeout_ms: z.number().int().positive().default(120_000),
  /** Retries of one request (429, 5xx, timeouts, dropped connections, malformed responses) before it is a failure. */
  max_retries: z.number().int().min(0).default(5),
  /** First backoff delay; it doubles per retry (with full jitter) up to `max_backoff_ms`; a Retry-After header wins when longer. */
  min_backoff_ms: z.number().int().min(0).default(500),
  max_backoff_ms: z.number().int().min(0).default(30_000),
  /** After this many failures in a row an endpoint rests (gets no requests) for `rest_ms`, doubling while it keeps failing. */
  rest_after_failures: z.number().int().positive().default(3),
  rest_ms: z.number().int().positive().default(10_000),
  /**
   * What the server is: vLLM and SGLang get every sampling field (top_k, min_p, repetition_penalty, …) so the model's
   * generation_config.json can't change the decoding; OpenAI's API (and any other server) only standard fields.
   * auto (the default): asked once per base URL (GET /models, /get_model_info, /version).
   */
  server: z.enum(SERVER_KINDS).optional(),
  /**
   * Sent as chat_template_kwargs to vLLM and SGLang, e.g. {"enable_thinking": false} for a reasoning model; unset:
   * none (the labeler then sends {"enable_thinking": false}, so a thinking model's first token is its answer).
   */
  chat_template_kwargs: z.record(z.string(), z.unknown()).optional(),
};

const openaiModel = z.strictObject({
  type: z.literal('openai'),
  ...serverFields,
});

/** The paper's split prompt (REFERENCE §2, Table 12); {question} and {answer} are filled in. */
export const SPLIT_PROMPT = `You are an expert in extracting facts from the given question-answer pair for an image. Your task is to extract and rewrite the facts mentioned in the question-answer pair into self-contained sentences. Exclude opinions or subjective statements.

You should present your result in the following format:
### Facts:
- {Extracted fact 1}
- {Extracted fact 2}
- ...

### Question-answer pair:
Question: {question}
Answer: {answer}`;

/** The paper's convert prompt (REFERENCE §2); {claims} is filled in with one "- claim" line per claim. */
export const CONVERT_PROMPT = `You are an expert at modifying a given declarative sentence into a general question sentence. Your task is to modify the given declarative sentences one by one into a general question form. Do not change tenses or add extra content.
If the given declarative sentence contains not, no or negative meaning words, you need to check the modified general interrogative sentence to make sure that the generated general question sentence retains words with not, no or negative meaning words.

You should present your result in the following format:
### Modified sentences:
- {Modified sentence 1}
- ...

### Declarative sentences:
{claims}`;

const llmDivider = z.strictObject({
  type: z.literal('llm'),
  ...serverFields,
  /** Split template: {question} and {answer} are replaced (the paper's prompt by default). */
  split_prompt: z.string().min(1).default(SPLIT_PROMPT),
  /** Convert template: {claims} is replaced by "- claim" lines (the paper's prompt by default). */
  convert_prompt: z.string().min(1).default(CONVERT_PROMPT),
  temperature: z.number().min(0).max(2).default(0),
  max_tokens: z.number().int().positive().default(1024),
  /** Extra attempts when the output can't be parsed or the converter returns a different number of questions than claims. */
  content_retries: z.number().int().min(0).default(2),
});

/** Where a model runs: in-process from a folder, or on an OpenAI-compatible server. */
export const modelBackend = z.discriminatedUnion('type', [localModel, openaiModel]);

const generate = z.strictObject({
  backend: modelBackend.default({ type: 'local', model: 'models/shapes-policy' }),
  samples: z.number().int().min(1).max(1000).default(10),
  temperature: z.number().min(0).max(5).default(0.7),
  top_p: z.number().gt(0).max(1).default(1.0),
  max_new_tokens: z.number().int().positive().default(512),
});

const divide = z.strictObject({
  backend: z
    .discriminatedUnion('type', [z.strictObject({ type: z.literal('rules') }), llmDivider])
    .default({ type: 'rules' }),
  /** Cut the question-answer text to its first N words before dividing (the released scripts use 300); null = no cut. */
  max_words: z.number().int().positive().nullable().default(null),
});

/** The served VLM tool's fixed prompt (issue 23). */
export const VLM_TOOL_PROMPT = 'List every object with its colour and position.';

/** Knowledge tools (src/tools/): each reads an image, never its metadata; `name` is the verdict source it stores. */
const labelTool = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('shapes-segmenter'),
    name: z.string().min(1).default('shapes-segmenter'),
    /** Guess each object's shape from its mask (else shape is unknown, as with class-free masks). */
    shape_heuristic: z.boolean().default(false),
  }),
  z.strictObject({
    type: z.literal('detector'),
    name: z.string().min(1).default('detector'),
    /** A transformers.js zero-shot-object-detection model folder (OWL-ViT layout). */
    model: z.string().min(1),
    /** A detection counts when its score reaches this. */
    threshold: z.number().min(0).max(1).default(0.1),
  }),
  z.strictObject({
    type: z.literal('vlm'),
    name: z.string().min(1).default('vlm'),
    backend: openaiModel,
    prompt: z.string().min(1).default(VLM_TOOL_PROMPT),
    max_tokens: z.number().int().positive().default(256),
  }),
]);

/** A routing table: claim form -> the verdict source that decides it (a tool's name, or "labeler"). */
export const routingTable = z.partialRecord(z.enum(QUESTION_FORMS), z.string().min(1));

const label = z.strictObject({
  backend: modelBackend.default({ type: 'local', model: 'models/shapes-labeler' }),
  /** Suffix appended to every yes/no question. */
  suffix: z.string().default(' Please answer yes or no.'),
  top_logprobs: z.number().int().min(1).max(20).default(20),
  /** Knowledge tools whose verdicts replace the labeler's on the claim forms `routing` gives them (see README "Tools"). */
  tools: z.array(labelTool).default([]),
  /** Claim form -> verdict source (a tool's name or "labeler"), or the file `rlaifv calibrate-tools` wrote; null: none. */
  routing: z.union([z.string().min(1), routingTable]).nullable().default(null),
});

const score = z.strictObject({
  /** 'scripts': accepted iff p_yes > p_no (tie rejected); 'paper': rejected iff p_no > p_yes. */
  accept_rule: z.enum(['scripts', 'paper']).default('scripts'),
  /** Which score ranks answers for pairing; both are always stored. */
  method: z.enum(['rejc', 'rejp']).default('rejc'),
});

// The editors' names live with the pure editors (feedback/corrections.ts); the schema validates against them.
export { CORRECTION_EDITORS, type CorrectionEditor };

/**
 * The `llm` correction editor's prompt (OPA-DPO's minimal rewrite: keep every accepted sentence verbatim, fix only the
 * listed claims). {question}, {answer} and {claims} (one "- claim" line per rejected claim) are filled in.
 */
export const REWRITE_PROMPT = `You are given an image, a question about it, and an answer to the question. An expert checked the answer against the image and found these statements in it wrong:
{claims}

Rewrite the answer with as few changes as possible: correct or remove only the sentences that make these statements, and copy every other sentence exactly as it is. Do not add anything else. Reply with the rewritten answer only.

Question: {question}
Answer: {answer}`;

/** The `llm` correction editor: a served model rewriting an answer's wrong sentences (pair.corrections "llm"). */
const rewriter = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(REWRITE_PROMPT),
  max_tokens: z.number().int().positive().default(512),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply is empty. */
  content_retries: z.number().int().min(0).default(1),
});

/**
 * FIRE's teacher prompt (its Fig. A15, verbatim but for the placeholders): the question, the reference ("groundtruth")
 * answer and the student's response; the teacher answers "Score: …" and "Feedback: …" without telling the answer.
 * {question}, {reference} and {answer} are filled in.
 */
export const TEACHER_PROMPT = `You are a helpful language and vision assistant. You are able to understand the visual content that the user provides, and assist the user with a variety of tasks using natural language

Question: {question} Groundtruth: {reference}

Please compare my answer with the groundtruth answer and provide helpful, detailed, and polite feedback to help me improve my answer. Formulate the feedback as:

Score: <compare the provided response with the groundtruth answer in terms of accuracy, relevance, helpfulness, and level of detail, and provide an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.>

Feedback: <provide feedback on the response. Do NOT directly tell the groundtruth answer. The feedback should identify which parts of my answer are incorrect, what is missing in the response, and how to improve the response.>

Here is the student response: {answer}, now please provide the feedback:`;

/** A served teacher for the `refine` editor's detailed feedback, on prompts that hold a reference answer. */
const teacher = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(TEACHER_PROMPT),
  max_tokens: z.number().int().positive().default(256),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply holds no "Score: N". */
  content_retries: z.number().int().min(0).default(1),
});

/**
 * The `refine` correction editor: each sampled answer with a rejected claim starts a dialogue in which the teacher's
 * comment (from the labeler's verdicts) is given to the round's policy, which answers again, until no claim is
 * rejected or max_turns revisions.
 */
const refine = z.strictObject({
  /** Revisions per dialogue at most (fewer where the conversation no longer fits the policy's context). */
  max_turns: z.number().int().min(1).max(10).default(3),
  /** What the teacher says: 'detailed' (a score and each rejected claim's correction) or 'simple' ("Your answer has errors."). */
  feedback: z.enum(['simple', 'detailed']).default('detailed'),
  /** The revisions' sampling temperature (0: greedy, as InterFeedback's feedback round); the rest of generate.decoding applies. */
  temperature: z.number().min(0).max(2).default(0),
  /**
   * A served teacher with FIRE's prompt, for the detailed feedback on prompts whose meta holds a reference answer
   * (`reference_field`); other prompts get the labeler's verdicts as their teacher. null: always the verdicts.
   */
  teacher: teacher.nullable().default(null),
  /** The prompt meta field holding a reference answer (JSONL `meta.reference`; a LLaVA conversation's last gpt turn). */
  reference_field: z.string().min(1).default('reference'),
});

const pair = z.strictObject({
  strategy: z.string().default('rlaifv'),
  diff: z.number().positive().default(1),
  max_pairs: z.union([z.number().int().min(0), z.literal('all')]).default(2),
  length_balance: z.boolean().default(true),
  /**
   * An answer whose distinct yes/no questions are fewer than its claims: 'drop' is never paired (the released scripts
   * key verdicts by question text, then find fewer than claims); 'keep' pairs it (rlaifv before this setting).
   */
  repeated_claims: z.enum(['drop', 'keep']).default('drop'),
  /**
   * Correction pairs (src/feedback/corrections.ts): each editor rewrites every answer with rejected claims; a corrected
   * answer is divided, labeled and scored like any answer and becomes the chosen side over its original when it has
   * no rejected claim, or fewer by at least pair.diff. 'drop' removes the rejected sentences; 'overwrite' replaces
   * each with an accepted sentence about the same subject from the prompt's other samples. [] (default): none.
   */
  corrections: z
    .array(z.enum(CORRECTION_EDITORS))
    .default([])
    .refine((l) => new Set(l).size === l.length, 'each editor once'),
  /** Rank pairs (better vs worse sampled answers); false: a round pairs only corrections (needs pair.corrections). */
  rank_pairs: z.boolean().default(true),
  /** The `refine` editor's refinement dialogues (FIRE's student/teacher turns, src/feedback/refine.ts). */
  refine: refine.default(refine.parse({})),
  /** The served rewriter of the 'llm' editor; null: none (then 'llm' cannot be used). */
  rewriter: rewriter.nullable().default(null),
  /**
   * Teacher-force every answer of each paired prompt under the round's policy (generate.backend) and store its
   * log-probs (sum, mean, per token): the pairs' reference log-probs for the trainer, and the siblings the on-policy
   * check ranks a chosen answer among.
   */
  reference_logprobs: z.boolean().default(false),
});

/** Table 13's frame, shared by its two rubrics: the scoring system, a rubric's criteria, the pair, the instructions. */
function table13(criteria: string): string {
  return `Review the user's question and the corresponding response using the additive 3-point scoring system (i.e., the possible scores are 0, 1, 2, 3 exclusively) described below.

Points are accumulated based on the satisfaction of each criterion:

${criteria}

\`\`\`
<user-question>
{question}
</user-question><response>
{answer}
</response>
\`\`\`

After examining the user's instruction and the response:

- First, briefly justify your total score.
- Then, give the score (0 or 1 or 2 or 3) in a single line without any other information.`;
}

/** The Table 13 prompts of the RLAIF-V supplement (self-rewarding feedback), verbatim; {question} and {answer} are filled in. */
export const HOLISTIC_PROMPTS = {
  hallucination: table13(`- Add 1 point if the response does not contain any objects that are not present in the given image.
- Add another point if the attributes and position of each object mentioned in the response match the picture.
- Award a third point if the relation between each mentioned objects mentioned in the response match the picture.`),
  helpfulness: table13(`- Add 1 point if the response is relevant to the user's inquiry and the given image.
- Add another point if the response is detailed and answers the basic elements of the user's question in a useful way.
- Award a third point if the response addresses the user's question directly and comprehensively, and is well-organized and helpful.`),
} as const;

/**
 * The yes/no question a yes/no-only labeler (the tiny local one) is asked about a whole answer: its holistic judgement is
 * p(yes) of this question ({question} and {answer} filled in; the label suffix is appended).
 */
export const HOLISTIC_YES_NO = 'Is this description of the image accurate? {answer}';

const holisticPrompts = z.strictObject({
  hallucination: z.string().min(1).default(HOLISTIC_PROMPTS.hallucination),
  helpfulness: z.string().min(1).default(HOLISTIC_PROMPTS.helpfulness),
});

const holistic = z.strictObject({
  /** Which Table 13 rubrics a generative (remote) labeler applies; the answer's score is their sum. */
  aspects: z.array(z.enum(['hallucination', 'helpfulness'])).min(1).default(['hallucination', 'helpfulness']),
  prompts: holisticPrompts.default(holisticPrompts.parse({})),
  /** The one question a yes/no labeler (the local one) is asked about the whole answer; its p(yes) is the score. */
  yes_no_question: z.string().min(1).default(HOLISTIC_YES_NO),
  max_tokens: z.number().int().positive().default(512),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply's last line is not a score. */
  content_retries: z.number().int().min(0).default(2),
});

const dpoReward = z.strictObject({
  /** The trained checkpoint that scores; null: the round's own policy (generate.backend). */
  policy: modelBackend.nullable().default(null),
  /** Its reference: the checkpoint it was trained from. */
  reference: modelBackend.default({ type: 'local', model: 'models/shapes-policy' }),
  beta: z.number().positive().default(0.1),
  /** sum: β(log π − log π_ref) of the whole answer; mean: of the per-token means (length-averaged). */
  variant: z.enum(['sum', 'mean']).default('sum'),
});

/**
 * Anyprefer's reward-model prompt (its Appendix D.2, "Surrogate reward model"), verbatim: the judge rates a candidate
 * pair 1–10 and writes the score as "score/10". {task_field}, {examples}, {context} (earlier turns of the
 * conversation), {query}, {positive} and {negative} are filled in; the image goes with it.
 */
export const ANYPREFER_PAIR_PROMPT = `**[Task]** Suppose that you are an expert in {task_field}, please rate an RLHF data pair consisting of a query, positive response and negative response.

**[Guideline]** Reference criteria:

1. The positive response should be coherent and correct as possible;

2. The negative response should be worse than the positive one in certain way, but not wander off the topic or diverge in too many aspects. For example, if the positive response is “The capital of France is Paris”, a good negative response should be something like “The capital of France is London”, but not “France is a country in Europe” (diverge too much in topic) or “Capital France London is” (diverge both in knowledge and language).

**[Requirement]** Please provide an integer score between 1 and 10 indicating the quality of the data pair if used in RLHF. The higher the score, the better the data pair. Please first analyze the positive response and the negative response, and then give the score in the format of “score/10”.

{examples}

{context}

Query: {query}

Positive Response: {positive}

Negative Response: {negative}`;

/** The gate's judge model (Anyprefer's reward model): a generative VLM on a server rates each candidate pair 1–10. */
const gateJudge = z.strictObject({
  backend: openaiModel,
  prompt: z.string().min(1).default(ANYPREFER_PAIR_PROMPT),
  /** {task_field} of the prompt. */
  task_field: z.string().min(1).default('vision-language understanding'),
  /** {examples} of the prompt: worked examples of rated pairs, if any. */
  examples: z.string().default(''),
  max_tokens: z.number().int().positive().default(1024),
  temperature: z.number().min(0).max(2).default(0),
  /** Extra attempts when the reply holds no "N/10" score. */
  content_retries: z.number().int().min(0).default(2),
});

/** The pair-quality gate (Anyprefer): pairs judged unsure are dropped (kept in the store), and prompts left without a pair are sampled again. */
const gate = z.strictObject({
  /**
   * Keep a pair when its judged confidence is at least this (0–1); null: no gate. Divide judges by its claims'
   * p(yes)/p(no); with `judge`, any method's pair is judged by the judge model (confidence = score/10).
   */
  threshold: z.number().min(0).max(1).nullable().default(null),
  /** A judge model that rates candidate pairs (needs a threshold); null: divide's own claims judge. */
  judge: gateJudge.nullable().default(null),
  /** A prompt left with no kept pair gets this many more samples (new recorded seeds), once, and is paired again. */
  top_up: z.number().int().min(0).max(1000).default(0),
});

/** The feedback method: how a prompt's answers become scores (src/methods/). */
const feedback = z.strictObject({
  /**
   * divide: claims, yes/no labels, REJ-C/REJ-P (the paper); holistic: the labeler scores whole answers (Table 13);
   * dpo-reward: β·log(π/π_ref) of a trained checkpoint; oracle: the shapes truth checker (studies only).
   */
  method: z.enum(['divide', 'holistic', 'dpo-reward', 'oracle']).default('divide'),
  /**
   * The minimum score gap for a pair; null: the method's own (divide: pair.diff; holistic: 1 rubric point, or 0.05
   * of p(yes) for a yes/no labeler; dpo-reward: 1e-6, any real gap; oracle: 1 false claim).
   */
  min_gap: z.number().positive().nullable().default(null),
  holistic: holistic.default(holistic.parse({})),
  dpo_reward: dpoReward.default(dpoReward.parse({})),
  gate: gate.default(gate.parse({})),
});

const limits = z.strictObject({
  max_image_bytes: z.number().int().positive().default(20 * 1024 * 1024),
  max_image_pixels: z.number().int().positive().default(40_000_000),
  max_question_chars: z.number().int().positive().default(4000),
  /** An http(s) image is fetched once into the store's image folder: time limit per attempt, extra attempts. */
  fetch_timeout_ms: z.number().int().positive().default(30_000),
  fetch_retries: z.number().int().min(0).default(3),
});

/** The shapes DPO trainer, as the loop runs it by default ({root} is rlaifv's own folder). */
export const DEFAULT_TRAINER = 'python3 {root}/scripts/shapes/dpo.py --pairs {pairs} --policy {policy} --out {out} --seed {round} --lr 5e-5 --epochs 2 --sft-weight 1';

/** The shapes online trainer (GRPO), as loop.mode "online" runs it by default; rlaifv serve's URL is {url} and RLAIFV_URL. */
export const DEFAULT_ONLINE_TRAINER =
  'python3 {root}/scripts/shapes/grpo.py --prompts {prompts} --policy {policy} --ref {ref} --out {out} --samples {samples} --seed {seed}';

/** Serving a new checkpoint for a remote policy (the loop's deploy hook). */
const deploy = z.strictObject({
  /**
   * A shell command that serves {checkpoint} (placeholders: {checkpoint}, {round}, {hash}, {model}, {root}, and
   * {base_urls}: the policy's endpoints, comma-separated); run after each training.
   */
  command: z.string().min(1),
  /**
   * The name the server serves the checkpoint as ({round} and {hash}, the checkpoint's content hash, are filled in),
   * e.g. "policy-{hash}" (SGLang: "<served base>:policy-{hash}"): one name per checkpoint, never loaded twice.
   */
  model: z.string().min(1),
  /** The checkpoint folder the server serves at the start (what round 1 trains from). */
  start_checkpoint: z.string().min(1),
  /** How long to wait, after the command, for the server's GET /models to list the model. */
  ready_timeout_ms: z.number().int().positive().default(600_000),
});

/** `rlaifv loop`: iterative rounds of generate → feedback → train → evaluate. */
const loop = z.strictObject({
  /**
   * dpo: each round samples, labels, pairs and runs loop.trainer (iterative DPO); online: rlaifv serve runs on the
   * loop's store and loop.online_trainer trains against it, one DPO round's samples per budget point.
   */
  mode: z.enum(['dpo', 'online']).default('dpo'),
  /**
   * The online trainer (loop.mode "online"): a shell command template with {url} (rlaifv serve, also in RLAIFV_URL),
   * {prompts} (the train prompts as JSONL with absolute image paths), {samples} (the budget point's policy samples),
   * {policy} (the checkpoint to start from), {ref} (the loop's start checkpoint), {out}, {round}, {seed}, {root}.
   * Not part of the loop's identity.
   */
  online_trainer: z.string().min(1).default(DEFAULT_ONLINE_TRAINER),
  /** The prompts each round's policy answers to make pairs. */
  train_prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  /**
   * Held-out prompts each checkpoint is evaluated on (the truth-free figures always; the truth's too where the prompts
   * carry meta.truth); no pair on their images is ever delivered.
   */
  eval_prompts: z.string().min(1).default('data/shapes/test/prompts.jsonl'),
  /** The format each round's pairs are pulled in for the trainer (as `rlaifv pull --format`). */
  pairs_format: z.enum(['trl', 'llamafactory', 'openrlhf', 'rlaifv']).default('trl'),
  /**
   * Pull each round's pairs with their claim spans (chosen_spans, rejected_spans), for a trainer that weighs tokens
   * (the shapes trainer's --token-weight); JSON pairs files only. Not part of the loop's identity.
   */
  pairs_spans: z.boolean().default(false),
  /** The pairs file's name in the round's pairs folder; `.parquet` gives Parquet with image bytes (TRL's datasets). */
  pairs_file: z.string().regex(/^[A-Za-z0-9._-]+$/, 'a file name (letters, digits, . _ -), no folder').default('pairs.jsonl'),
  /**
   * The trainer: a shell command template with {pairs} (the file), {pairs_dir} (the folder holding only it),
   * {policy} (the checkpoint folder to start from), {out} (where the new checkpoint must be), {round}, {root} (rlaifv's folder).
   */
  trainer: z.string().min(1).default(DEFAULT_TRAINER),
  /** Where checkpoints and pair files go; null: beside the store (db/rlaifv.sqlite -> db/rlaifv.checkpoints/). */
  checkpoints: z.string().min(1).nullable().default(null),
  /** For a remote policy: how each new checkpoint gets served; null for a local policy. */
  deploy: deploy.nullable().default(null),
  /** Held-out evaluation: samples per prompt and their temperature (the round's decoding), plus one greedy answer. */
  eval_samples: z.number().int().min(1).max(1000).default(10),
  eval_temperature: z.number().min(0).max(5).default(0.7),
  eval_greedy: z.boolean().default(true),
  /** Evaluate on the first N held-out prompts only; null: all (or --limit when given). */
  eval_limit: z.number().int().positive().nullable().default(null),
  /**
   * The judge of each checkpoint's held-out win rates against the previous round and the start (as `rlaifv compare
   * --judge`): claims (rlaifv's own divider and labeler, no truth needed), truth (shapes prompts only) or MODEL@URL (a
   * served VLM with ConvBench's pairwise prompt). Not part of the loop's identity.
   */
  judge: z.string().min(1).default('claims'),
  /** The environment variable holding a served judge's API key. */
  judge_api_key_env: z.string().min(1).optional(),
  /**
   * Checkpoint selection: last keeps the trainer's {out}; best evaluates {out} and every {out}/checkpoint-* the trainer
   * left (per epoch, as Hugging Face trainers save them) on select_prompts with the truth-free rejected-claim rate,
   * and the next round samples from the lowest. Local policies only.
   */
  select: z.enum(['last', 'best']).default('last'),
  /** The validation prompts checkpoint selection reads (never the held-out eval_prompts). */
  select_prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  /** Checkpoint selection on the first N validation prompts only; null: all. */
  select_limit: z.number().int().positive().nullable().default(null),
  /**
   * Multi-turn prompts for ConvBench's ablation of every checkpoint (the final turn with no history, the true earlier
   * turns, its own earlier answers), e.g. data/shapes/multiturn/prompts.jsonl; null: none. Not part of the loop's identity.
   */
  ablation_prompts: z.string().min(1).nullable().default(null),
  /**
   * FIRE's student training in the loop: a command run on each round's refinement dialogues (pair.corrections
   * "refine"; `rlaifv export --format fire` writes them to {dialogues}) before the DPO trainer, which then starts from
   * the checkpoint it wrote at {out}. Placeholders {dialogues}, {policy}, {out}, {round}, {root}. null: no SFT step.
   */
  sft_trainer: z.string().min(1).nullable().default(null),
  /**
   * The correction rate after feedback (rlaifv eval --policy P --feedback L --provider labeler, 3 turns) of the start
   * and every checkpoint on eval_prompts (shapes prompts: it needs the truth); null: not measured. Not part of the
   * loop's identity.
   */
  eval_feedback: z.enum(['simple', 'detailed']).nullable().default(null),
  /** The trainer is stopped (and the step recorded as failed) after this long; null: no limit. */
  trainer_timeout_ms: z.number().int().positive().nullable().default(null),
});

/** The whole config file. */
export const configSchema = z.strictObject({
  prompts: z.string().min(1).default('data/shapes/dev/prompts.jsonl'),
  db: z.string().min(1).default('db/rlaifv.sqlite'),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  workers: z.number().int().positive().nullable().default(null),
  /** `run` streams prompts through the stages this many at a time (operational: not in the config hash). */
  chunk_prompts: z.number().int().positive().default(32),
  on_error: z.enum(['stop', 'skip']).default('skip'),
  /** How the prompts file is read: 'auto' goes by its extension (src/input/formats.ts). */
  input_format: z.enum(INPUT_FORMATS).default('auto'),
  /** Column names of a data-set prompts file (Parquet, RLAIF-V rows) where they differ from image / question / id. */
  input_columns: z
    .strictObject({ image: z.string().min(1).optional(), question: z.string().min(1).optional(), id: z.string().min(1).optional() })
    .default({}),
  limits: limits.default(limits.parse({})),
  generate: generate.default(generate.parse({})),
  divide: divide.default(divide.parse({})),
  label: label.default(label.parse({})),
  score: score.default(score.parse({})),
  feedback: feedback.default(feedback.parse({})),
  pair: pair.default(pair.parse({})),
  loop: loop.default(loop.parse({})),
  /** `rlaifv serve`'s reward definition (not in the config hash: it changes no stored result). */
  reward: rewardSchema.default(rewardSchema.parse({})),
  /** `rlaifv serve`: where it listens and what it reads (not in the config hash). */
  serve: serveSchema.default(serveSchema.parse({})),
});

/** A resolved config: every default filled in. */
export type Config = z.infer<typeof configSchema>;
/** An OpenAI-compatible server backend (policy or labeler). */
export type OpenAIBackend = z.infer<typeof openaiModel>;
/** The LLM divider backend. */
export type LlmDividerBackend = z.infer<typeof llmDivider>;
/** The feedback method's settings. */
export type FeedbackConfig = z.infer<typeof feedback>;
/** The quality gate's judge model settings. */
export type GateJudgeConfig = z.infer<typeof gateJudge>;
/** A feedback method's name. */
export type FeedbackMethodName = FeedbackConfig['method'];
/** The `refine` editor's served teacher settings. */
export type TeacherConfig = z.infer<typeof teacher>;

/** The `llm` correction editor's rewriter settings. */
export type RewriterConfig = z.infer<typeof rewriter>;
/** The loop's settings. */
export type LoopConfig = z.infer<typeof loop>;
/** One knowledge tool's settings (label.tools). */
export type ToolConfig = z.infer<typeof labelTool>;
/** A model backend choice. */
export type ModelBackend = z.infer<typeof modelBackend>;
