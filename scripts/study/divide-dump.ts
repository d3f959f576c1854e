// The rules divider's full output over the real dev sets, the third set and the shapes world fixture, one JSON line
// per answer: a speed change must leave it byte-identical (issue 29). Compare two dumps with `cmp`.
//
//   npx tsx scripts/study/divide-dump.ts > /tmp/before.jsonl   # then again after the change, and cmp the two
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { divideRules } from '../../src/divide/rules.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function files(): string[] {
  const shared = path.resolve(ROOT, '..', 'shared', 'real-claims');
  const out = ['vlm-answers-dev', 'text-bios-dev'].map((n) => path.join(shared, `${n}.jsonl`));
  const extra = path.join(ROOT, 'data', 'real-claims');
  if (existsSync(extra)) out.push(...readdirSync(extra).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(extra, f)));
  return out.filter((f) => existsSync(f));
}

function main(): void {
  const items: { answer: string; question?: string }[] = [];
  for (const f of files()) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const o = JSON.parse(line) as { answer: string; question?: string };
      items.push({ answer: o.answer, ...(typeof o.question === 'string' ? { question: o.question } : {}) });
    }
  }
  const world = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'divide', 'fixtures', 'world-answers.json'), 'utf8')) as {
    items: { answer: string; instruction: string }[];
  };
  for (const w of world.items) items.push({ answer: w.answer }, { answer: w.answer, question: w.instruction });
  for (const it of items) {
    const d = divideRules(it.answer, it.question === undefined ? undefined : { question: it.question });
    process.stdout.write(`${JSON.stringify(d)}\n`);
  }
}

main();
