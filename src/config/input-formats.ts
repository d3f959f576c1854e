// The input formats' names: config validates `input_format` against them and input/ dispatches on them, so they
// sit in config/, below both.

/** The input formats, as `--input-format` and config `input_format` name them ('auto': from the extension). */
export const INPUT_FORMATS = ['auto', 'jsonl', 'parquet', 'rlaifv', 'llava'] as const;
