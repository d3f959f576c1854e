// Knowledge tools (issue 23): a declarative registry from label.tools to Tool instances, and a round's tool verdicts.
import type { Config, ToolConfig } from '../config/schema.js';
import type { ToolVerdicts } from './types.js';
import { routedTools, verdictSetId, type Routing } from './route.js';
import { ShapesSegmenter } from './shapes-segmenter.js';
import type { Tool } from './types.js';
import { VlmTool } from './vlm.js';
import { DetectorTool } from './detector.js';

export { decide, LABELER, routedTools, verdictSetId, type Routing, type ToolDecision } from './route.js';
export { ShapesSegmenter, readPixels } from './shapes-segmenter.js';
export { segmentKnowledge, segments, type Pixels, type Segment } from './segment.js';
export type { Tool } from './types.js';
export { VlmTool } from './vlm.js';
export { DETECTOR_LABELS, DetectorTool, detectionsToKnowledge, inspectDetectorFolder, type Detection } from './detector.js';
export { knowledgeFromText } from './listing.js';

/** The tool types label.tools accepts. */
export const TOOL_TYPES = ['shapes-segmenter', 'detector', 'vlm'] as const;

/** Makes one tool from its config. */
export function createTool(c: ToolConfig): Tool {
  switch (c.type) {
    case 'shapes-segmenter':
      return new ShapesSegmenter({ name: c.name, shapeHeuristic: c.shape_heuristic });
    case 'vlm':
      return new VlmTool({ name: c.name, backend: c.backend, prompt: c.prompt, maxTokens: c.max_tokens });
    case 'detector':
      return new DetectorTool({ name: c.name, model: c.model, threshold: c.threshold });
  }
}

/** The tools of label.tools, in order. */
export function createTools(config: Config): Tool[] {
  return config.label.tools.map(createTool);
}

/**
 * A round's tool verdicts (null without label.tools): the tools, the routing table and the verdict-set id the round
 * stores its verdicts under. A round with tools needs a routing table (from `rlaifv calibrate-tools`).
 */
export function createToolVerdicts(config: Config, labelerId: string, all: readonly Tool[] = createTools(config)): ToolVerdicts | null {
  if (config.label.tools.length === 0) return null;
  const routing = config.label.routing;
  // Tools without a routing table may serve only as a served judge's {context} (the gate's judge, a holistic rubric).
  const judged = config.feedback.gate.judge !== null || (config.feedback.method === 'holistic' && config.label.backend.type === 'openai');
  if (routing === null && judged) return null;
  if (routing === null || typeof routing === 'string') {
    throw new Error('a divide round with tools needs label.routing: a claim-form table calibrated on dev (rlaifv calibrate-tools --round N --out routing.json); without one, tools only fill a served judge\'s {context} (feedback.gate.judge, a served holistic rubric).');
  }
  const tools = all.filter((t) => routedTools(routing as Routing).includes(t.name));
  return { tools, routing: routing as Routing, verdictSet: verdictSetId(labelerId, tools, routing as Routing), labeler: labelerId };
}
