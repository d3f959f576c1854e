// The `llm` correction editor's prompt (methods/rewriter.ts fills it; pair.rewriter.prompt's default).

/**
 * The `llm` correction editor's prompt (OPA-DPO's minimal rewrite: keep every accepted sentence verbatim, fix only the
 * listed claims). {question}, {answer} and {claims} (one "- claim" line per rejected claim) are filled in.
 */
export const REWRITE_PROMPT = `You are given an image, a question about it, and an answer to the question. An expert checked the answer against the image and found these statements in it wrong:
{claims}

Rewrite the answer with as few changes as possible: correct or remove only the sentences that make these statements, and copy every other sentence exactly as it is. Do not add anything else. Reply with the rewritten answer only.

Question: {question}
Answer: {answer}`;
