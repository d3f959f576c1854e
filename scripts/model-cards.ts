// Writes models/shapes-*/README.md (the model cards) from each folder's build.json and the measurements that
// scripts/measure-models.ts wrote to models/measurements.json, so no figure in a card is typed by hand.
// Usage: npx tsx scripts/model-cards.ts
import { readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const meas = JSON.parse(readFileSync(path.join(ROOT, 'models', 'measurements.json'), 'utf8'));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function size(dir: string): string {
  const onnx = readdirSync(path.join(dir, 'onnx')).map((f) => statSync(path.join(dir, 'onnx', f)).size);
  return `${(onnx.reduce((a, b) => a + b, 0) / 1e6).toFixed(2)} MB`;
}

function common(name: string, b: any): string {
  const hp = b.hyperparameters;
  return `# rlaifv/shapes-${name}

A tiny LLaVA-layout vision-language model trained from scratch on rlaifv's synthetic shapes world
(\`scripts/shapes/\`), so that rlaifv runs its whole job offline with real models that really see images.
Loaded by transformers.js 4.x as \`LlavaForConditionalGeneration\` + \`LlavaProcessor\` from this folder.

## Architecture (${b.params.toLocaleString('en')} parameters, ${size(path.join(ROOT, 'models', `shapes-${name}`))} of ONNX, fp32, opset 17)
- **Vision tower** (\`onnx/vision_encoder.onnx\`, \`pixel_values\` [batch, 3, 64, 64] → \`image_features\` [batch, 9, ${hp.hidden}]):
  the 64×64 image is cut into its 3×3 grid cells (21 px); a 3-layer CNN shared by the cells turns each into one
  image token (the processor's \`patch_size\` 21 gives floor(64/21)² = 9 \`<image>\` tokens). ${hp.concepts === 'only'
    ? `Each image token is a linear
  probe's soft reading of its cell (shape, colour, size) written in the decoder's own word embeddings, plus the
  embeddings of the cell's position words, plus LLaVA-1.5's two-layer GELU projector behind a learned gate that
  starts at 0: the decoder reads the cells in its own words.`
    : `A learned position per cell and
  LLaVA-1.5's two-layer GELU projector; a concept bottleneck adds to each token a linear probe's soft reading of its
  cell (shape, colour, size) written in the decoder's own word embeddings, plus the embeddings of the cell's position
  words.`}
- **Embeddings** (\`onnx/embed_tokens.onnx\`): ${hp.hidden}-dim word embeddings; the tokenizer is word-level
  (WordPiece over whole words, ${72} tokens) with \`Yes\`/\`yes\`/\`No\`/\`no\` as separate tokens.
- **Decoder** (\`onnx/decoder_model_merged.onnx\`): ${hp.layers} pre-LayerNorm transformer blocks, ${hp.heads} heads,
  hidden ${hp.hidden}, MLP ${hp.ffn}, ${hp.rope ? 'rotary positions (as Llama; context 160)' : 'learned absolute positions (up to 160)'}, KV cache inputs/outputs
  \`past_key_values.{i}.key/value\` → \`present.{i}.key/value\`.
- Chat template (LLaVA-1.5): \`USER: <image>\\n{question} ASSISTANT:\`.

## Training
Built by \`python3 scripts/shapes/build.py\` (torch ${b.torch}, CPU, deterministic seeds): ${hp.pool.toLocaleString('en')} rendered
images (seed ${hp.seed}), ${hp.per_image} examples per image, ${hp.steps} AdamW steps of ${hp.bs} examples
(${hp.bs / hp.group} images × ${hp.group}), lr ${hp.lr} with warm-up and cosine decay, plus an auxiliary loss (weight 0.5) on
a linear probe of each cell token predicting the cell's shape, colour and size (the probe is not exported).
`;
}

function policyCard(b: any, m: any): string {
  return `${common('policy', b)}
Data: per image, ${b.hyperparameters.per_image} instructions of the five kinds (detailed description 40%, listing, attribute,
position, counting 15% each) with answers in plain English sentences. To make it a realistic weak model, 85% of
the answers are written from a *misperceived* scene (\`world.perceive\`, p = ${b.hyperparameters.noise}: each attribute misread
with probability p, objects missed or invented), so sampling reproduces hallucinations while the most likely token
stays the true one.

## Measured (\`npx tsx scripts/measure-models.ts\`, through rlaifv's own loading code and rules divider, judged by the truth checker)
On the ${m.prompts} prompts of the test split, ${m.samples_per_prompt} samples each at temperature 0.7 (top_p 1), and greedy:
- false claims when sampled at T 0.7: **${pct(m.sampled_t07.false_share)}** of ${m.sampled_t07.claims} claims
  (${m.sampled_t07.claims_per_answer.toFixed(2)} claims per answer; ${m.sampled_t07.unknown} claims the checker could not judge; ${m.sampled_t07.skipped} sentences the divider skipped)
- false claims with greedy decoding: **${pct(m.greedy.false_share)}** of ${m.greedy.claims} claims
- prompts whose ${m.samples_per_prompt} samples differ in their number of false claims: ${pct(m.prompts_whose_samples_differ_in_false_claims)}
- answers ended by \`</s>\`: ${pct(m.finished_with_eos)}
`;
}

function fireCard(b: any, m: any): string {
  const hp = b.hyperparameters;
  const pm = b.python_metrics;
  const dir = path.join(ROOT, 'models', 'shapes-policy-fire');
  const cfg = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).text_config;
  const base = meas.policy;
  const fb = (level: string, provider: string, noise: number) => m.feedback.find((f: any) => f.level === level && f.provider === provider && f.noise === noise);
  const row = (f: any) =>
    `| ${f.level} | ${f.provider} | ${f.noise} | ${f.n_wrong} | ${f.n_e} | ${f.n_c} | **${pct(f.correction_rate)}** | ${f.correct_after_turn.map(pct).join(' / ')} | ${pct(f.harm_rate)} | ${f.n_c_on_subject} (${pct(f.correction_rate_on_subject)}) | ${f.cut} | ${f.told_correct} |`;
  const head = '| feedback | provider | noise | wrong | N_e | N_c | correction | correct after 1 / 2 / 3 | harm | on subject | cut | told correct |\n|---|---|---|---|---|---|---|---|---|---|---|---|';
  const noisy = [0, 0.1, 0.2, 0.3];
  return `# rlaifv/shapes-policy-fire

The shipped tiny policy (\`models/shapes-policy\`) fine-tuned on FIRE-style feedback conversations: a second policy
that, shown its wrong answer and a teacher's turn (\`rlaifv eval --policy P --feedback simple|detailed\`), answers
again. It corrects more of its wrong answers than the shipped policy (never trained on a feedback turn) does, and
falls far short of issue 22's targets (below). Same architecture as \`shapes-policy\`, with a vocabulary that holds every word of the
teacher's turns and a context that holds three of them. Loaded by transformers.js 4.x as
\`LlavaForConditionalGeneration\` + \`LlavaProcessor\` from this folder.

## Architecture (${b.params.toLocaleString('en')} parameters, ${size(dir)} of ONNX, fp32, opset 17)
As \`shapes-policy\` (a 3×3-cell CNN vision tower whose 9 image tokens are its concept probe's readings in the
decoder's own words; ${hp.layers} pre-LayerNorm blocks, ${hp.heads} heads, hidden ${hp.hidden}, MLP ${hp.ffn}, rotary positions), except:
- **Vocabulary** ${pm.vocab} words (word-level, as \`shapes-policy\`'s ${pm.vocab - pm.new_words} plus ${pm.new_words}): the world's words and every
  word of the teacher's turn and the student prompt ("Score", 0–10, "Feedback", "Your answer has errors.",
  "Your answer is correct.", "Your answer does not answer the question.", "It is not true that …", "Based on the
  feedback, answer the question again:").
- **Context ${cfg.max_position_embeddings} tokens** (\`max_position_embeddings\`, the tokenizer's \`model_max_length\`; \`shapes-policy\`: 160):
  the longest conversation three feedback turns can make on the world's answers, a four-object description wrong in
  every claim three times over and then the answer, is 438 tokens (the longest training dialogue: ${pm.longest_dialogue_tokens}).
- Chat template (LLaVA-1.5, as \`shapes-policy\`): \`USER: <image>\\n{question} ASSISTANT: {answer}</s> USER: {teacher}\\nBased on
  the feedback, answer the question again: ASSISTANT:\`, the image in the first user turn.

## Training
Built by \`python3 scripts/shapes/build.py --only fire\` (torch ${b.torch}, CPU, deterministic seeds), starting from
\`models/${hp.init}\`'s weights (word embeddings and output rows carried over word by word; the ${pm.new_words} new words start
fresh). ${hp.steps} AdamW steps, lr ${hp.lr} with warm-up and cosine decay, each of:
- ${hp.bs} ordinary policy examples (${hp.bs / hp.group} images × ${hp.group}; ${hp.pool.toLocaleString('en')} rendered images, seed ${hp.seed}, ${hp.per_image} per image): \`shapes-policy\`'s
  own data, 85% of answers written from a misperceived scene (p = ${hp.noise}), so first answers stay the shipped policy's;
  plus the vision probe's auxiliary loss (weight 0.5);
- ${hp.dialogue_bs} FIRE conversations (weight ${hp.dialogue_weight}; one per image of the first ${hp.dialogue_images.toLocaleString('en')}; ${pm.dialogues.detailed.toLocaleString('en')} with detailed feedback,
  ${pm.dialogues.simple.toLocaleString('en')} with simple; ${pm.dialogues.turns.map((n: number) => n.toLocaleString('en')).join(' / ')} with 1 / 2 / 3 teacher turns). The instruction, a wrong first answer
  (\`shapes-policy\`'s own greedy answer where it is wrong: ${pm.dialogues.first.greedy.toLocaleString('en')}; else its answer sampled at T ${hp.first_t} where that is
  wrong: ${pm.dialogues.first.sampled.toLocaleString('en')}; else one written from a misperception at p ${hp.first_noise}: ${pm.dialogues.first.perceived.toLocaleString('en')}), the teacher's turn
  from the truth exactly as \`rlaifv eval --feedback\` words it (\`scripts/shapes/fire.py\`, checked against the
  TypeScript by \`tests/eval/fire-port.test.ts\`), then, in 2- and 3-turn conversations, revisions still partly wrong
  (misperceptions at p ${hp.revision_noise} that repeat no corrected claim) with their turns. The learned answer ${hp.target === 'edit'
    ? `after detailed feedback is the last answer with the
  claims the teacher named taken out, every other claim kept word for word (a list keeps its true items), or the
  truthful answer when nothing true is left; after simple feedback (nothing named) the truthful answer`
    : 'is the truthful one'}. The loss is on that answer
  only, never on the wrong ones.

## Measured (\`npx tsx scripts/measure-models.ts --only policy-fire\`, through rlaifv's own loading code)
First answers, as \`shapes-policy\`'s card measures them (the ${m.prompts} test prompts, ${m.samples_per_prompt} samples each at T 0.7, and greedy; \`shapes-policy\` in brackets):
- false claims when sampled at T 0.7: **${pct(m.sampled_t07.false_share)}** of ${m.sampled_t07.claims} claims (${pct(base.sampled_t07.false_share)})
- false claims with greedy decoding: **${pct(m.greedy.false_share)}** of ${m.greedy.claims} claims (${pct(base.greedy.false_share)})
- answers ended by \`</s>\`: ${pct(m.finished_with_eos)} (${pct(base.finished_with_eos)})

After feedback (\`rlaifv eval --policy models/shapes-policy-fire --feedback L --provider P --feedback-noise R
--max-turns 3\` on the test split; see the README's "The policy's correction rate after feedback" for the figures'
definitions):

${head}
${['truth', 'labeler'].flatMap((p) => ['detailed', 'simple'].map((l) => row(fb(l, p, 0)))).join('\n')}

Against issue 22's targets (detailed feedback from the labeler): corrected after one turn **${pct(fb('detailed', 'labeler', 0).correction_rate)}** of N_e
(target ≥ 60%: ${fb('detailed', 'labeler', 0).correction_rate >= 0.6 ? 'met' : 'missed'}), within 3 turns **${pct(fb('detailed', 'labeler', 0).correct_after_turn[2])}** (≥ 75%: ${fb('detailed', 'labeler', 0).correct_after_turn[2] >= 0.75 ? 'met' : 'missed'}), harm
**${pct(fb('detailed', 'labeler', 0).harm_rate)}** (≤ 5%: ${fb('detailed', 'labeler', 0).harm_rate <= 0.05 ? 'met' : 'missed'}), detailed − simple **${(100 * (fb('detailed', 'labeler', 0).correction_rate - fb('simple', 'labeler', 0).correction_rate)).toFixed(1)}** points (≥ 20: ${fb('detailed', 'labeler', 0).correction_rate - fb('simple', 'labeler', 0).correction_rate >= 0.2 ? 'met' : 'missed'}).
Its revisions change the answer whatever the teacher says (noise and "Your answer is correct." barely move the
figures), often repeating a claim the teacher denied: it learned to answer again from the image, not to use what
the feedback says.

Noise (each of the truth provider's verdicts flipped with probability R):

${head}
${noisy.flatMap((r) => ['detailed', 'simple'].map((l) => row(fb(l, 'truth', r)))).join('\n')}
`;
}

// The labeler's card is written by hand since its build added the circuit probes (models/shapes-labeler/README.md).
for (const [name, card] of [['policy', policyCard], ['policy-fire', fireCard]] as const) {
  const dir = path.join(ROOT, 'models', `shapes-${name}`);
  const b = JSON.parse(readFileSync(path.join(dir, 'build.json'), 'utf8'));
  writeFileSync(path.join(dir, 'README.md'), card(b, meas[name]));
  process.stdout.write(`wrote ${path.relative(ROOT, path.join(dir, 'README.md'))}\n`);
}
