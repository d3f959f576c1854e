// The shapes trainer reads rlaifv's claim spans, which count UTF-16 code units (JavaScript string indices), while
// Python's strings count code points: after an emoji the two differ, and a span must still cut the same text.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonSync } from '../helpers/python.js';

const SHAPES = path.resolve(import.meta.dirname, '../../scripts/shapes');

function py(code: string): string {
  return pythonSync(['-c', code], { cwd: SHAPES }).trim();
}

describe('dpo.py claim spans', () => {
  it('maps a JavaScript span to the same text in Python after a character outside the BMP', () => {
    const answer = 'A 🌋 is red. The sky is blue.';
    const start = answer.indexOf('The sky');
    const end = answer.length;
    const out = py(`import json; from dpo import utf16_offsets
t = ${JSON.stringify(answer)}; at = utf16_offsets(t)
print(json.dumps([t[at[${start}]:at[${end}]], ${start} in at, 3 in at, 4 in at]))`);
    expect(JSON.parse(out)).toEqual([answer.slice(start, end), true, false, true]);
  });
});
