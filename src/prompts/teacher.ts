// FIRE's teacher prompt (methods/teacher.ts fills it; pair.refine.teacher.prompt's default).

/**
 * FIRE's teacher prompt (its Fig. A15, verbatim but for the placeholders): the question, the reference ("groundtruth")
 * answer and the student's response; the teacher answers "Score: …" and "Feedback: …" without telling the answer.
 * {question}, {reference} and {answer} are filled in.
 */
export const TEACHER_PROMPT = `You are a helpful language and vision assistant. You are able to understand the visual content that the user provides, and assist the user with a variety of tasks using natural language

Question: {question} Groundtruth: {reference}

Please compare my answer with the groundtruth answer and provide helpful, detailed, and polite feedback to help me improve my answer. Formulate the feedback as:

Score: <compare the provided response with the groundtruth answer in terms of accuracy, relevance, helpfulness, and level of detail, and provide an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.>

Feedback: <provide feedback on the response. Do NOT directly tell the groundtruth answer. The feedback should identify which parts of my answer are incorrect, what is missing in the response, and how to improve the response.>

Here is the student response: {answer}, now please provide the feedback:`;
