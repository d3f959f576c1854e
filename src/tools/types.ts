// A knowledge tool reads an image (never its metadata) and returns what it knows of the image's objects.
import type { Knowledge } from '../shapes/knowledge.js';
import type { Routing } from './route.js';

/**
 * A knowledge tool (Anyprefer's M_i): one image in, one knowledge record out. `id` names the tool and every setting
 * that changes its output; the store caches records per (id, image hash), so a record is made once per image.
 */
export interface Tool {
  /** The verdict source name stored with each verdict the tool decides (config `label.tools[].name`). */
  readonly name: string;
  /** The cache key: name and settings. */
  readonly id: string;
  /** What the tool sees in the image file at `imagePath`. Throws on an image it cannot read (a per-item failure). */
  know(imagePath: string): Promise<Knowledge>;
  close?(): Promise<void>;
}

/** The tools, routing table and verdict-set id of a round with label.tools. */
export interface ToolVerdicts {
  tools: readonly Tool[];
  routing: Routing;
  /** The round's labeler id (rounds.labeler_model): where these verdicts are stored. */
  verdictSet: string;
  /** The labeler's own id. */
  labeler: string;
}
