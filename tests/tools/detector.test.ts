// The detector tool: its folder check, the real transformers.js pipeline refusing a broken folder, and the mapping
// from the pipeline's output (ZeroShotObjectDetectionPipeline._call: {score, label, box: {xmin, ymin, xmax, ymax}},
// integer pixels, sorted by score) to knowledge. No zero-shot detector ships, so no detection runs here.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DetectorTool, detectionsToKnowledge, inspectDetectorFolder, type Detection } from '../../src/tools/index.js';
import { checkKnown } from '../../src/shapes/index.js';
import { createBackends } from '../../src/pipeline/round.js';
import { loadConfig } from '../../src/config/load.js';
import { DEV, LABELER, tempDir } from '../helpers/paths.js';

describe('detector folder', () => {
  it('names the folder and everything the pipeline would miss', () => {
    const empty = tempDir();
    expect(() => inspectDetectorFolder(empty)).toThrow(
      new RegExp(`detector folder ${empty} lacks what transformers.js's zero-shot-object-detection pipeline needs: config.json, preprocessor_config.json, tokenizer.json, onnx/model.onnx \\(or onnx/model_quantized.onnx\\)`),
    );
    // A LLaVA folder is a model, but not a zero-shot detector.
    expect(() => inspectDetectorFolder(LABELER)).toThrow(/a zero-shot detection model_type in config.json \(got "llava"; allowed: owlvit, owlv2, grounding-dino\), onnx\/model.onnx/);
    expect(() => inspectDetectorFolder(path.join(empty, 'nope'))).toThrow(/detector folder .*nope does not exist/);
  });

  it('is a config error naming label.tools when a round is set up with such a folder', () => {
    const { config } = loadConfig(undefined, { db: path.join(tempDir(), 'x.sqlite') });
    config.label.tools = [{ type: 'detector', name: 'owl', model: tempDir(), threshold: 0.1 }];
    config.label.routing = { count: 'owl' };
    expect(() => createBackends(config)).toThrow(/^label\.tools: detector folder .* lacks what/);
  });

  it('loads through the real pipeline, which refuses a folder with every file but a broken model', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'onnx'));
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'owlvit' }));
    writeFileSync(path.join(dir, 'preprocessor_config.json'), JSON.stringify({ image_processor_type: 'OwlViTImageProcessor' }));
    copyFileSync(path.join(LABELER, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
    writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'not an onnx graph');
    const tool = new DetectorTool({ name: 'owl', model: dir, threshold: 0.1 });
    expect(tool.id).toBe(`detector:${path.basename(dir)}@0.1`);
    await expect(tool.know(path.join(DEV, 'images', 'dev-0000.png'))).rejects.toThrow(new RegExp(`Could not load detector folder ${dir}`));
  });
});

describe('detections to knowledge', () => {
  // dev-0000: a small red circle top left, a large blue circle middle left, a large red circle center, a small red
  // circle middle right (64×64, 21-px cells). Boxes as an OWL-ViT would draw them, sorted by score as the pipeline does.
  const dets: Detection[] = [
    { score: 0.61, label: 'blue circle', box: { xmin: 2, ymin: 23, xmax: 19, ymax: 40 } },
    { score: 0.55, label: 'red circle', box: { xmin: 24, ymin: 24, xmax: 41, ymax: 41 } },
    { score: 0.41, label: 'red circle', box: { xmin: 6, ymin: 6, xmax: 15, ymax: 15 } },
    { score: 0.33, label: 'red circle', box: { xmin: 48, ymin: 27, xmax: 58, ymax: 37 } },
    // The same blue circle under another query, and a box below the threshold.
    { score: 0.2, label: 'purple circle', box: { xmin: 3, ymin: 23, xmax: 19, ymax: 41 } },
    { score: 0.05, label: 'green star', box: { xmin: 44, ymin: 44, xmax: 60, ymax: 60 } },
  ];

  it('keeps one object per box, its colour and shape from the label, its cell and size from the box', () => {
    const k = detectionsToKnowledge(dets, 64, 64, 0.1);
    expect(k.objects).toEqual([
      { shape: 'circle', color: 'blue', size: 'large', position: 'middle left' },
      { shape: 'circle', color: 'red', size: 'large', position: 'center' },
      { shape: 'circle', color: 'red', size: 'small', position: 'top left' },
      { shape: 'circle', color: 'red', size: 'small', position: 'middle right' },
    ]);
    expect(checkKnown(k, 'There are three red circles.')).toBe('true');
    expect(checkKnown(k, 'Is there a green star?')).toBe('false');
  });

  it('leaves unknown what a label does not name, and scales with the image', () => {
    const k = detectionsToKnowledge([{ score: 0.9, label: 'shape', box: { xmin: 0, ymin: 0, xmax: 60, ymax: 60 } }], 256, 256, 0.1);
    expect(k.objects).toEqual([{ shape: null, color: null, size: 'large', position: 'top left' }]);
    expect(checkKnown(k, 'There is one shape.')).toBe('true');
    expect(checkKnown(k, 'There is a circle.')).toBe('unknown');
  });
});
