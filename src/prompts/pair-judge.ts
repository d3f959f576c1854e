// Anyprefer's reward-model prompt (methods/pair-judge.ts fills it; feedback.gate.judge.prompt's default).

/**
 * Anyprefer's reward-model prompt (its Appendix D.2, "Surrogate reward model"), verbatim: the judge rates a candidate
 * pair 1–10 and writes the score as "score/10". {task_field}, {examples}, {context} (earlier turns of the
 * conversation), {query}, {positive} and {negative} are filled in; the image goes with it.
 */
export const ANYPREFER_PAIR_PROMPT = `**[Task]** Suppose that you are an expert in {task_field}, please rate an RLHF data pair consisting of a query, positive response and negative response.

**[Guideline]** Reference criteria:

1. The positive response should be coherent and correct as possible;

2. The negative response should be worse than the positive one in certain way, but not wander off the topic or diverge in too many aspects. For example, if the positive response is “The capital of France is Paris”, a good negative response should be something like “The capital of France is London”, but not “France is a country in Europe” (diverge too much in topic) or “Capital France London is” (diverge both in knowledge and language).

**[Requirement]** Please provide an integer score between 1 and 10 indicating the quality of the data pair if used in RLHF. The higher the score, the better the data pair. Please first analyze the positive response and the negative response, and then give the score in the format of “score/10”.

{examples}

{context}

Query: {query}

Positive Response: {positive}

Negative Response: {negative}`;
