// The truth of an image: which objects it holds. Validated with zod.
import { z } from 'zod';
import { COLORS, POSITIONS, SHAPES, SIZES, type Color, type Position, type Shape, type Size } from './vocabulary.js';

/** One object drawn in an image. */
export interface ShapeObject {
  shape: Shape;
  color: Color;
  size: Size;
  position: Position;
}

/** Everything that is in an image: 1–4 objects, at most one per grid cell. */
export interface Truth {
  objects: ShapeObject[];
}

const objectSchema = z.object({
  shape: z.enum(SHAPES),
  color: z.enum(COLORS),
  size: z.enum(SIZES),
  position: z.enum(POSITIONS),
});

/** The zod schema of a Truth (1–4 objects, distinct positions). */
export const truthSchema = z
  .object({ objects: z.array(objectSchema).min(1).max(4) })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.objects.forEach((o, i) => {
      if (seen.has(o.position)) {
        ctx.addIssue({
          code: 'custom',
          path: ['objects', i, 'position'],
          message: `two objects in the same cell "${o.position}"`,
        });
      }
      seen.add(o.position);
    });
  });

/** Validates an unknown value as a Truth; throws an Error naming the first bad field. */
export function parseTruth(x: unknown): Truth {
  const r = truthSchema.safeParse(x);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  throw new Error(`invalid truth at ${path}: ${issue?.message ?? 'invalid value'}`);
}
