// Rebuilds data/real-claims/llava-bench-wild-*.jsonl (real LVLM answers to LLaVA-Bench in-the-wild, for the division
// study of issue 29) from fetched git copies of the source repositories; see data/real-claims/README.md.
//   npx tsx scripts/study/real-claims-llava-bench-wild.ts --heron GIT_DIR --llava GIT_DIR [--dev FILE...] [--out DIR]
// GIT_DIR: a clone or bare mirror holding the pinned commits below. --dev: JSONL files whose answers must not recur.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const HERON = { repo: 'turingmotors/heron', commit: '883cd7c6e99d6d22343d6d62bb35520daf8ac92a', dir: 'playground/data/llava-bench-in-the-wild/en' };
// haotian-liu/LLaVA pull request #1199 (unmerged): LLaVA-1.5's own prediction files, as in the eval.zip LLaVA's docs link.
const LLAVA = { repo: 'haotian-liu/LLaVA', commit: '32cebc3809441cc40d8ac7b2855d148308741f2a', dir: 'playground/data/eval/llava-bench-in-the-wild/answers' };

interface Row {
  source: string;
  model: string;
  question: string;
  answer: string;
  image: string;
  question_category: string;
  question_id: number;
}

const { values } = parseArgs({
  options: { heron: { type: 'string' }, llava: { type: 'string' }, dev: { type: 'string', multiple: true }, out: { type: 'string', default: 'data/real-claims' } },
});
if (!values.heron || !values.llava) throw new Error('give --heron and --llava: git directories of turingmotors/heron and haotian-liu/LLaVA');

const show = (gitDir: string, commit: string, file: string): string[] =>
  execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n').filter((l) => l.trim());

// The benchmark's questions (image, category) by question id; every answer's prompt is checked against them.
const questions = new Map(
  show(values.heron, HERON.commit, `${HERON.dir}/questions.jsonl`).map((l) => {
    const q = JSON.parse(l) as { question_id: number; image: string; text: string; category: string };
    return [q.question_id, q];
  }),
);

function answers(gitDir: string, src: { repo: string; commit: string; dir: string }, file: string, model: string): Row[] {
  const at = `${src.dir}/${file}`;
  return show(gitDir, src.commit, at).map((l, i) => {
    const a = JSON.parse(l) as { question_id: number; prompt: string; text: string; model_id: string };
    const q = questions.get(a.question_id);
    if (!q || q.text !== a.prompt) throw new Error(`${src.repo}:${at} line ${i + 1}: question ${a.question_id} is not the benchmark's`);
    if (typeof a.text !== 'string' || !a.text.trim()) throw new Error(`${src.repo}:${at} line ${i + 1}: no answer text`);
    return { source: `${src.repo}@${src.commit}:${at}#line${i + 1}`, model, question: a.prompt, answer: a.text, image: q.image, question_category: q.category, question_id: a.question_id };
  });
}

const sets: Record<string, Row[]> = {
  'llava-bench-wild-bard-bing': [
    ...answers(values.heron, HERON, 'bard_0718.jsonl', 'Bard (2023-07-18)'),
    ...answers(values.heron, HERON, 'bing_chat_0629.jsonl', 'Bing Chat (2023-06-29)'),
  ],
  'llava-bench-wild-llava15': [
    ...answers(values.llava, LLAVA, 'llava-v1.5-7b.jsonl', 'llava-v1.5-7b'),
    ...answers(values.llava, LLAVA, 'llava-v1.5-13b.jsonl', 'llava-v1.5-13b'),
  ],
};

// No answer may recur in the development sets (compared with spacing and case folded).
const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const dev = new Set((values.dev ?? []).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => fold((JSON.parse(l) as { answer: string }).answer))));
for (const [name, rows] of Object.entries(sets)) {
  const clash = rows.filter((r) => dev.has(fold(r.answer)));
  if (clash.length) throw new Error(`${name}: ${clash.length} answers recur in the dev sets, e.g. ${clash[0]!.source}`);
  const file = path.join(values.out!, `${name}.jsonl`);
  const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  if (Buffer.byteLength(text) >= 1 << 20) throw new Error(`${file} would be ${Buffer.byteLength(text)} bytes; keep each file under 1 MB`);
  writeFileSync(file, text);
  const models = [...new Set(rows.map((r) => r.model))].join(', ');
  process.stdout.write(`${file}: ${rows.length} answers (${models}), ${Buffer.byteLength(text)} bytes; checked against ${dev.size} dev answers\n`);
}
