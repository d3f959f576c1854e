// The served VLM tool's prompt (tools/vlm.ts sends it; label.tools[].prompt's default).

/** The served VLM tool's fixed prompt (issue 23). */
export const VLM_TOOL_PROMPT = 'List every object with its colour and position.';
