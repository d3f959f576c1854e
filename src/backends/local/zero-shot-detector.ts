// transformers.js's zero-shot-object-detection pipeline over a detector folder on disk (OWL-ViT layout), so the
// detector tool (tools/detector.ts) runs a model without importing the runtime itself: transformers.js stays behind
// backends/local/.

/** One detection as the pipeline returns it (ZeroShotObjectDetectionOutputSingle: integer pixel box by default). */
export interface Detection {
  score: number;
  label: string;
  box: { xmin: number; ymin: number; xmax: number; ymax: number };
}

/** An image's detections and its size in pixels. */
export interface DetectedImage {
  detections: Detection[];
  width: number;
  height: number;
}

/**
 * A detector loaded on first use, offline, from `model` (a folder); a folder that fails to load fails every call
 * with the same error.
 */
export function zeroShotDetector(model: string, dtype: 'fp32' | 'q8'): (imagePath: string, labels: string[], threshold: number) => Promise<DetectedImage> {
  let detector: Promise<(image: unknown, labels: string[], o: { threshold: number }) => Promise<Detection[]>> | null = null;
  return async (imagePath, labels, threshold) => {
    const { env, pipeline, RawImage } = await import('@huggingface/transformers');
    // Folders on disk only: rlaifv never downloads weights at run time.
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    detector ??= pipeline('zero-shot-object-detection', model, { local_files_only: true, dtype, device: 'cpu' }).catch((e: Error) => {
      throw new Error(`Could not load detector folder ${model}: ${e.message}`);
    }) as never;
    const detect = await detector!;
    const image = await RawImage.read(imagePath);
    const detections = await detect(image, labels, { threshold });
    return { detections, width: image.width, height: image.height };
  };
}
