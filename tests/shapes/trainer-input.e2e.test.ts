// The shapes trainers (scripts/shapes/grpo.py, dpo.py) refuse unusable input before they import torch: exit 2 with a
// message naming the file and line, in a fraction of a second instead of after torch's import (about 1.5 s of CPU).
// Python's own import log (PYTHONPROFILEIMPORTTIME, which survives the trainers' re-exec under Debian's python3)
// shows whether torch was imported.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { POLICY, TEST, tempDir } from '../helpers/paths.js';
import { DPO, GRPO, python } from '../helpers/python.js';

const IMPORTS = { PYTHONPROFILEIMPORTTIME: '1' };
const TORCH = /\|\s*torch$/m;
const TEST_IMAGE = path.join(TEST, 'images', 'test-0000.png');

/** A file of `lines` in a fresh folder. */
function file(name: string, lines: string[]): string {
  const f = path.join(tempDir('rlaifv-trainer-input-'), name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** The trainer's own messages, without Python's import log. */
const messages = (stderr: string) => stderr.split('\n').filter((l) => !l.startsWith('import time:')).join('\n');

describe('the shapes trainers check their input before importing torch', () => {
  test('the import log names torch when a script imports it (the check below can fail)', async () => {
    const dir = tempDir('rlaifv-trainer-input-');
    const script = path.join(dir, 'imports-torch.py');
    // As the trainers start: under Debian's python3 (re-executed when this python3 has no torch), then torch.
    const shapes = path.dirname(GRPO);
    writeFileSync(script, `import sys\nsys.path.insert(0, ${JSON.stringify(shapes)})\nfrom debian_python import use_debian_python\nuse_debian_python()\nimport torch\n`);
    const r = await python(script, [], IMPORTS);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(TORCH);
  });

  const prompt = JSON.stringify({ image: TEST_IMAGE, question: 'Where is the triangle?' });
  const grpoCases: [string, () => string, (f: string) => string][] = [
    ['a missing prompts file', () => path.join(tempDir('rlaifv-trainer-input-'), 'none.jsonl'), (f) => `${f}: no such prompts file`],
    ['a line that is not JSON', () => file('p.jsonl', [prompt, '', '{"image": "a.png",']), (f) => `${f}:3: not JSON`],
    ['a line without its question', () => file('p.jsonl', [prompt, JSON.stringify({ image: TEST_IMAGE })]), (f) => `${f}:2: needs "image" (a path) and "question" (text)`],
    ['a line that is not an object', () => file('p.jsonl', ['[1, 2]']), (f) => `${f}:1: needs "image" (a path) and "question" (text)`],
    ['an image that does not exist', () => file('p.jsonl', [prompt, JSON.stringify({ image: 'nowhere.png', question: 'q' })]), (f) => `${f}:2: field image: no such file ${path.join(path.dirname(f), 'nowhere.png')}`],
    ['an empty file', () => file('p.jsonl', ['']), (f) => `${f}: no prompts`],
  ];

  test.each(grpoCases)('grpo.py: %s exits 2 naming the file and line, without torch; nothing is written', async (_name, make, message) => {
    const f = make();
    const out = path.join(path.dirname(f), 'out');
    const r = await python(GRPO, ['--prompts', f, '--policy', POLICY, '--out', out, '--samples', '8'], { ...IMPORTS, RLAIFV_URL: 'http://127.0.0.1:9' });
    expect(r.code, r.stderr).toBe(2);
    expect(messages(r.stderr)).toContain(`grpo.py: ${message(f)}`);
    expect(r.stderr).not.toMatch(TORCH);
    expect(existsSync(out)).toBe(false);
  });

  const pair = { images: [TEST_IMAGE], prompt: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'Where?' }] }] };
  const dpoCases: [string, () => string, (f: string) => string][] = [
    ['a missing pairs file', () => path.join(tempDir('rlaifv-trainer-input-'), 'none.jsonl'), (f) => `${f}: no such pairs file`],
    ['a line that is not JSON', () => file('pairs.jsonl', ['{"images": ']), (f) => `${f}:1: not JSON`],
    ['a line without its rejected answer', () => file('pairs.jsonl', [JSON.stringify({ ...pair, chosen: [{ role: 'assistant', content: 'A.' }] })]), (f) => `${f}:1: field rejected: missing`],
  ];

  test.each(dpoCases)('dpo.py: %s exits 2 naming the file and line, without torch', async (_name, make, message) => {
    const f = make();
    const r = await python(DPO, ['--pairs', f, '--policy', POLICY, '--out', path.join(path.dirname(f), 'out')], IMPORTS);
    expect(r.code, r.stderr).toBe(2);
    expect(messages(r.stderr)).toContain(`dpo.py: ${message(f)}`);
    expect(r.stderr).not.toMatch(TORCH);
  });
});
