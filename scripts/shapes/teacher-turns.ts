// The teacher turns rlaifv's eval would say, for build.py's check of its Python port (scripts/shapes/fire.py): reads
// JSON lines {question, answer, truth, verdicts?} on stdin and writes, per line, the rules divider's claims, the
// truth provider's verdicts (a claim the checker cannot judge counts as false, as in src/eval/correction.ts) unless
// `verdicts` is given, and both levels' teacher turns (src/feedback/teacher.ts).
//   npx tsx scripts/shapes/teacher-turns.ts < cases.jsonl
import { createInterface } from 'node:readline';
import { divideRules } from '../../src/divide/rules.js';
import { checkStatement, parseTruth } from '../../src/shapes/index.js';
import { teacherTurn, type ClaimVerdict } from '../../src/feedback/teacher.js';

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const x = JSON.parse(line) as { question: string; answer: string; truth: unknown; verdicts?: ClaimVerdict[] };
  const truth = parseTruth(x.truth);
  const claims = divideRules(x.answer, { question: x.question }).claims.map((c) => c.claim);
  const verdicts: ClaimVerdict[] = x.verdicts ?? claims.map((c) => {
    const v = checkStatement(truth, c);
    return v === 'true' ? 'true' : 'false';
  });
  process.stdout.write(JSON.stringify({ claims, verdicts, detailed: teacherTurn('detailed', claims, verdicts), simple: teacherTurn('simple', claims, verdicts) }) + '\n');
}
