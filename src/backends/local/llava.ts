// One LLaVA-layout model folder run in-process through transformers.js (onnxruntime-node underneath).
//
// Two ways to run it: the plain path (`firstTokenLogits`, `sample`: one transformers.js forward over image and prompt,
// as a per-question script would) and the batched path rlaifv uses (`questionLogits`, `sampleMany`): the image is
// encoded once, the prompt prefix it shares with its other prompts is run once, and the questions or samples continue
// from that prefix's key/value cache in batches. `imagesQuestionLogits` does the same for several images at once,
// batched across them (one encoder run, one prefix run with a row per image, continuations of different images side
// by side). All give the same numbers (tests/backends/batched*.test.ts).
//
// The model lives in llava/, one file per job after transformers.js's models/llava/ layout: modeling.ts (loading and
// the model's methods), processing.ts (chat template and tokenizer), image-processing.ts (reading and preprocessing
// images), encoding.ts (the image encoder), prefix-cache.ts, first-token.ts (labels), generation.ts (sampling) and
// sequence-scoring.ts. This file is the public entry.
export { decodePlainPng } from '../../image/png.js';
export { LlavaModel, type LoadOptions } from './llava/modeling.js';
export { readImage } from './llava/image-processing.js';
export type { RenderOptions } from './llava/processing.js';
export type { EncodedImage } from './llava/encoding.js';
export type { ImageQuestions } from './llava/first-token.js';
export type { FinishReason, Sample } from './llava/generation.js';
export type { ImageAnswers } from './llava/sequence-scoring.js';
