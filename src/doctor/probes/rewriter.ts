// The `llm` editor's rewriter probe (pair.rewriter).
import type { RewriterConfig } from '../../config/schema.js';
import { Rewriter } from '../../methods/rewriter.js';
import { fail, ok, type Check } from '../types.js';
import { noVerdict, probeEachEndpoint, probeImage, PROBE_REWRITE, PROBE_REWRITE_CLAIM, secondsSince } from './shared.js';

/**
 * Whether each endpoint of the `llm` editor's rewriter (pair.rewriter) rewrites: one probe answer with one claim to
 * fix, through the same code a round uses, no retries. ok with what came back; fail with the reason and what to change.
 */
export async function checkRewriter(r: RewriterConfig): Promise<Check[]> {
  const image = await probeImage();
  return probeEachEndpoint(r.backend, 'pair.rewriter', 'rewriter', 'check pair.rewriter.backend (its base_urls, model and api key)', async ({ url, shown, hide }) => {
    const rewriter = new Rewriter({ ...r, content_retries: 0, backend: { ...r.backend, base_urls: [url], max_retries: 0 } });
    const t0 = performance.now();
    const v = await rewriter.rewrite(image, 'Describe the image.', PROBE_REWRITE, [PROBE_REWRITE_CLAIM]);
    const secs = secondsSince(t0);
    if ('error' in v) {
      return fail('rewriter', shown, hide(noVerdict('a probe answer was not rewritten', v.error, v.raw)),
        'pair.rewriter.backend.model must be a generative VLM that follows pair.rewriter.prompt and replies with the rewritten answer only');
    }
    return ok('rewriter', shown, `rewrote a probe answer to "${v.text.slice(0, 80)}" (${secs} s)`);
  });
}
