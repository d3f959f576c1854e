// The `refine` editor's served teacher probe (pair.refine.teacher).
import type { TeacherConfig } from '../../config/schema.js';
import { Teacher } from '../../methods/teacher.js';
import { fail, ok, type Check } from '../types.js';
import { noVerdict, probeEachEndpoint, probeImage, PROBE_REWRITE, secondsSince } from './shared.js';

/**
 * Whether each endpoint of the `refine` editor's served teacher (pair.refine.teacher) comments in FIRE's format: one
 * probe response with a reference answer, through the code a round uses, no retries.
 */
export async function checkTeacher(t: TeacherConfig): Promise<Check[]> {
  const image = await probeImage();
  return probeEachEndpoint(t.backend, 'pair.refine.teacher', 'teacher', 'check pair.refine.teacher.backend (its base_urls, model and api key)', async ({ url, shown, hide }) => {
    const teacher = new Teacher({ ...t, content_retries: 0, backend: { ...t.backend, base_urls: [url], max_retries: 0 } });
    const t0 = performance.now();
    const v = await teacher.comment(image, 'Describe the image.', 'There is a red circle.', PROBE_REWRITE);
    const secs = secondsSince(t0);
    if ('error' in v) {
      return fail('teacher', shown, hide(noVerdict("a probe response got no teacher's turn", v.error, v.raw)),
        'pair.refine.teacher.backend.model must be a generative VLM that follows FIRE\'s teacher prompt (pair.refine.teacher.prompt) and answers "Score: N" and "Feedback: …"');
    }
    return ok('teacher', shown, `commented on a probe response: "${v.turn.replace(/\n/g, ' ').slice(0, 80)}" (${secs} s)`);
  });
}
