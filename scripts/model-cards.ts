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

// The labeler's card is written by hand since its build added the circuit probes (models/shapes-labeler/README.md).
for (const [name, card] of [['policy', policyCard]] as const) {
  const dir = path.join(ROOT, 'models', `shapes-${name}`);
  const b = JSON.parse(readFileSync(path.join(dir, 'build.json'), 'utf8'));
  writeFileSync(path.join(dir, 'README.md'), card(b, meas[name]));
  process.stdout.write(`wrote ${path.relative(ROOT, path.join(dir, 'README.md'))}\n`);
}
