// --spans: a claim's stored span is exported as it is; a claim stored before spans (NULL) falls back to its sentence
// located in the answer, as exports did before.
import { describe, expect, it } from 'vitest';
import { answerSpans } from '../../src/export/spans.js';

const TEXT = 'A red circle and a blue square. It is big.';
const claim = (over: object) => ({ sentence: 'A red circle and a blue square.', claim: 'There is a red circle.', p_yes: 0.9, p_no: 0.1, ...over });

describe('answerSpans', () => {
  it("exports each claim's stored span, a part of its sentence, with the labeler's verdict", () => {
    const spans = answerSpans(
      TEXT,
      [claim({ span_start: 0, span_end: 12 }), claim({ claim: 'There is a blue square.', p_yes: 0.2, p_no: 0.8, span_start: 17, span_end: 30 })],
      'scripts',
    );
    expect(spans).toEqual([
      { start: 0, end: 12, claim: 'There is a red circle.', verdict: 'accepted', p_no: 0.1 },
      { start: 17, end: 30, claim: 'There is a blue square.', verdict: 'rejected', p_no: 0.8 },
    ]);
  });

  it('locates the sentence of a claim stored without a span, and gives none for a sentence not in the text', () => {
    const spans = answerSpans(
      TEXT,
      [claim({ span_start: null, span_end: null }), claim({ sentence: 'It is big.', claim: 'It is big.', p_yes: null, p_no: null }), claim({ sentence: 'Not there.' })],
      'scripts',
      new Set(['It is big.']),
    );
    expect(spans).toEqual([
      { start: 0, end: 31, claim: 'There is a red circle.', verdict: 'accepted', p_no: 0.1 },
      { start: 32, end: 42, claim: 'It is big.', verdict: 'unjudged', p_no: null, edited: true },
    ]);
  });
});
