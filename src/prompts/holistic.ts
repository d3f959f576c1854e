// The holistic method's prompts (methods/holistic.ts fills them; feedback.holistic.prompts and yes_no_question's
// defaults): the RLAIF-V supplement's Table 13 rubrics, verbatim, and the one question a yes/no labeler is asked.

/** Table 13's frame, shared by its two rubrics: the scoring system, a rubric's criteria, the pair, the instructions. */
function table13(criteria: string): string {
  return `Review the user's question and the corresponding response using the additive 3-point scoring system (i.e., the possible scores are 0, 1, 2, 3 exclusively) described below.

Points are accumulated based on the satisfaction of each criterion:

${criteria}

\`\`\`
<user-question>
{question}
</user-question><response>
{answer}
</response>
\`\`\`

After examining the user's instruction and the response:

- First, briefly justify your total score.
- Then, give the score (0 or 1 or 2 or 3) in a single line without any other information.`;
}

/** The Table 13 prompts of the RLAIF-V supplement (self-rewarding feedback), verbatim; {question} and {answer} are filled in. */
export const HOLISTIC_PROMPTS = {
  hallucination: table13(`- Add 1 point if the response does not contain any objects that are not present in the given image.
- Add another point if the attributes and position of each object mentioned in the response match the picture.
- Award a third point if the relation between each mentioned objects mentioned in the response match the picture.`),
  helpfulness: table13(`- Add 1 point if the response is relevant to the user's inquiry and the given image.
- Add another point if the response is detailed and answers the basic elements of the user's question in a useful way.
- Award a third point if the response addresses the user's question directly and comprehensively, and is well-organized and helpful.`),
} as const;

/**
 * The yes/no question a yes/no-only labeler (the tiny local one) is asked about a whole answer: its holistic judgement is
 * p(yes) of this question ({question} and {answer} filled in; the label suffix is appended).
 */
export const HOLISTIC_YES_NO = 'Is this description of the image accurate? {answer}';
