// The LLM divider's prompts (backends/openai's divider fills them): the paper's split and convert templates, verbatim.
// They are config defaults (divide.backend.split_prompt, convert_prompt), so they sit in a leaf that config/ can import.

/** The paper's split prompt (REFERENCE §2, Table 12); {question} and {answer} are filled in. */
export const SPLIT_PROMPT = `You are an expert in extracting facts from the given question-answer pair for an image. Your task is to extract and rewrite the facts mentioned in the question-answer pair into self-contained sentences. Exclude opinions or subjective statements.

You should present your result in the following format:
### Facts:
- {Extracted fact 1}
- {Extracted fact 2}
- ...

### Question-answer pair:
Question: {question}
Answer: {answer}`;

/** The paper's convert prompt (REFERENCE §2); {claims} is filled in with one "- claim" line per claim. */
export const CONVERT_PROMPT = `You are an expert at modifying a given declarative sentence into a general question sentence. Your task is to modify the given declarative sentences one by one into a general question form. Do not change tenses or add extra content.
If the given declarative sentence contains not, no or negative meaning words, you need to check the modified general interrogative sentence to make sure that the generated general question sentence retains words with not, no or negative meaning words.

You should present your result in the following format:
### Modified sentences:
- {Modified sentence 1}
- ...

### Declarative sentences:
{claims}`;
