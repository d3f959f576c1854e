// The oracle (studies only): the shapes world's truth checker scores an answer by its false statements, as a perfect
// divide-and-conquer labeler would with REJ-C. It needs the prompt's meta.truth; it reads the answer itself.
import { checkAnswer } from '../shapes/check.js';
import { parseTruth } from '../shapes/truth.js';
import type { FeedbackMethod, MethodAnswer, MethodPrompt, MethodScore } from './types.js';

/** Scores: −(false statements); null when the checker can judge none of the answer's sentences. */
export class OracleMethod implements FeedbackMethod {
  readonly name = 'oracle' as const;
  readonly scorer = 'shapes-truth';
  readonly promptsPerCall = 64;
  readonly concurrency = 1;

  async score(items: { prompt: MethodPrompt; answers: MethodAnswer[] }[]): Promise<MethodScore[][]> {
    return items.map(({ prompt, answers }) => {
      const raw = prompt.meta !== null && typeof prompt.meta === 'object' ? (prompt.meta as { truth?: unknown }).truth : undefined;
      let truth;
      try {
        truth = parseTruth(raw);
      } catch (e) {
        return answers.map((a) => ({ candidateId: a.id, error: `oracle: prompt ${prompt.id} has no shapes truth (meta.truth): ${(e as Error).message}` }));
      }
      return answers.map((a): MethodScore => {
        const verdicts = checkAnswer(truth, a.text);
        const nFalse = verdicts.filter((v) => v.verdict === 'false').length;
        const judged = verdicts.filter((v) => v.verdict !== 'unknown').length;
        return { candidateId: a.id, value: judged === 0 ? null : 0 - nFalse, evidence: { false: nFalse, judged, statements: verdicts } };
      });
    });
  }

  async close(): Promise<void> {}
}
