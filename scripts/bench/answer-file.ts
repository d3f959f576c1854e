// Answers to divide, from a real-claims JSONL file ({"answer", "question"?} per line) or the shapes world fixture (JSON
// with items of {"answer", "instruction"}): what the divide bench's children and scripts/study/divide-ab.ts read.
import { readFileSync } from 'node:fs';

export interface AnswerItem { answer: string; question?: string }

export function readAnswerFile(file: string): AnswerItem[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.json')) {
    const world = JSON.parse(text) as { items: { answer: string; instruction: string }[] };
    return world.items.map((w) => ({ answer: w.answer, question: w.instruction }));
  }
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => {
    const o = JSON.parse(l) as { answer: string; question?: string };
    return { answer: o.answer, ...(typeof o.question === 'string' ? { question: o.question } : {}) };
  });
}
