// The `refine` editor's refinement dialogues on a real round (tiny models, worker pool, SQLite file): each sampled
// answer with a rejected claim gets the teacher's comment from the labeler's verdicts, the real policy answers again
// in FIRE's student layout, and the revision goes through divide, label and score; the dialogue ends clean, at
// max_turns, at the context's end or unjudged; its chosen revision is paired over the sampled answer.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDemoRound } from '../helpers/round.js';
import { TEXTS } from '../../scripts/mimic/mimic.js';
import { runRound } from '../../src/pipeline/round.js';
import { STAGES } from '../../src/domain.js';
import { dialogueStates, roundDialogues, roundStats, type Db, type RoundRow } from '../../src/store/index.js';
import { answerVerdicts, chosenRevision, isContextError, nextStep } from '../../src/stages/refine.js';
import { studentPrompt, teacherTurn } from '../../src/feedback/teacher.js';
import { correctionSampleIndex } from '../../src/feedback/corrections.js';
import { exportDialogues } from '../../src/export/fire.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/paths.js';
import { filePool } from '../helpers/file-pool.js';
import type { Config } from '../../src/config/schema.js';

const LIMIT = 40;
// One worker pool for the file's two rounds and the resumed one (a pool each before: about 1.3 s of CPU a pool).
const pool = filePool();
let run: { db: Db; round: RoundRow; config: Config; file: string };
let plain: { db: Db; round: RoundRow };

beforeAll(async () => {
  plain = await runDemoRound({ limit: LIMIT, pool: pool() });
  run = await runDemoRound({ limit: LIMIT, edit: (c) => (c.pair.corrections = ['refine']), pool: pool() });
});

afterAll(() => {
  plain?.db.close();
  run?.db.close();
});

const all = <T>(db: Db, sql: string, ...args: unknown[]) => db.prepare(sql).all(...args) as T[];

describe('refinement dialogues in a round', () => {
  test('every sampled answer with a rejected claim (and every claim judged) starts a dialogue, and no other does', () => {
    const rule = run.round.accept_rule;
    const states = [...dialogueStates(run.db, run.round.id, run.round.labeler_model, all<{ id: string }>(run.db, 'SELECT prompt_id AS id FROM round_prompts').map((r) => r.id)).values()].flat();
    expect(states.length).toBe(LIMIT * 10);
    let started = 0;
    for (const s of states) {
      const v = answerVerdicts(s.source, rule);
      const wants = v !== null && v.includes('false');
      expect(s.ended !== null).toBe(wants);
      if (wants) {
        started++;
        expect(s.turns.length).toBeGreaterThan(0);
        expect(s.turns.map((t) => t.turn)).toEqual(s.turns.map((_, i) => i + 1));
      } else expect(s.turns).toEqual([]);
    }
    expect(started).toBeGreaterThan(50);
  });

  test("each turn's stored comment is the teacher's turn on the answer before it, from that answer's stored verdicts", () => {
    const rule = run.round.accept_rule;
    const states = [...dialogueStates(run.db, run.round.id, run.round.labeler_model, all<{ id: string }>(run.db, 'SELECT prompt_id AS id FROM round_prompts').map((r) => r.id)).values()].flat();
    let turns = 0;
    for (const s of states) {
      const answers = [s.source, ...s.turns];
      s.turns.forEach((t, i) => {
        const before = answers[i]!;
        const v = answerVerdicts(before, rule)!;
        expect(v).not.toBeNull();
        expect(v).toContain('false'); // a turn is only asked for an answer with a rejected claim
        expect(t.feedback).toBe(teacherTurn('detailed', before.claims.map((c) => c.claim), v));
        expect(t.feedback).toMatch(/^Score: \d+\nFeedback: /);
        expect(t.sample_index).toBe(correctionSampleIndex('refine', s.source.sample_index, t.turn));
        turns++;
      });
    }
    expect(turns).toBeGreaterThan(80);
  });

  test('a dialogue ends for the reason its last answer gives, and its chosen revision follows the rule', () => {
    const rule = run.round.accept_rule;
    const states = [...dialogueStates(run.db, run.round.id, run.round.labeler_model, all<{ id: string }>(run.db, 'SELECT prompt_id AS id FROM round_prompts').map((r) => r.id)).values()].flat();
    const reasons = new Map<string, number>();
    for (const s of states.filter((x) => x.ended)) {
      const reason = s.ended!.end_reason;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      const last = s.turns.at(-1)!;
      const v = answerVerdicts(last, rule);
      if (reason === 'clean') expect(v !== null && !v.includes('false')).toBe(true);
      if (reason === 'unjudged') expect(v).toBeNull();
      if (reason === 'max_turns') {
        expect(s.turns.length).toBe(3);
        expect(v).toContain('false');
      }
      if (reason === 'context') {
        // The next student prompt did not fit the shipped policy's 160 positions: the last answer still wanted a turn.
        expect(s.turns.length).toBeLessThan(3);
        expect(nextStep({ ...s, ended: null }, rule, 'detailed', 3).kind).toBe('revise');
      }
      expect(s.ended!.chosen_id).toBe(chosenRevision(s, rule, 1));
      if (reason === 'clean') expect(s.ended!.chosen_id).toBe(last.id);
    }
    // The shipped policy never saw a feedback turn: some dialogues end clean, others at the context or unjudged.
    expect(reasons.get('clean')).toBeGreaterThan(10);
    expect((reasons.get('context') ?? 0) + (reasons.get('unjudged') ?? 0) + (reasons.get('max_turns') ?? 0)).toBeGreaterThan(10);
  });

  test('stats count the dialogues by how they ended (null for a round without any)', () => {
    const st = roundStats(run.db, run.round.id).dialogues!;
    const rows = all<{ end_reason: string; n: number; t: number }>(run.db, 'SELECT end_reason, COUNT(*) n, SUM(turns) t FROM dialogues GROUP BY end_reason');
    expect(st.dialogues).toBe(rows.reduce((a, r) => a + r.n, 0));
    expect(st.revisions).toBe(all(run.db, 'SELECT 1 FROM dialogue_turns').length);
    expect(st.by_end).toEqual(Object.fromEntries(rows.map((r) => [r.end_reason, r.n])));
    expect(roundStats(plain.db, plain.round.id).dialogues).toBeNull();
  });

  test("refine pairs put a dialogue's chosen revision over its sampled answer, and the rank pairs are the plain round's", () => {
    const pairs = all<{ chosen_id: string; rejected_id: string; editor: string }>(run.db, "SELECT chosen_id, rejected_id, editor FROM pairs WHERE kind = 'correction'");
    expect(pairs.length).toBeGreaterThan(10);
    const chosen = new Map(all<{ source_id: string; chosen_id: string }>(run.db, 'SELECT source_id, chosen_id FROM dialogues WHERE chosen_id IS NOT NULL').map((r) => [r.source_id, r.chosen_id]));
    for (const p of pairs) {
      expect(p.editor).toBe('refine');
      expect(chosen.get(p.rejected_id)).toBe(p.chosen_id);
    }
    const rank = (db: Db) => all<{ id: string }>(db, "SELECT id, chosen_id, rejected_id, balance_kept FROM pairs WHERE kind = 'rank' ORDER BY id");
    expect(rank(run.db)).toEqual(rank(plain.db));
    // Nothing the policy sampled counts the revisions: the round's answers are the plain round's.
    expect(all(run.db, 'SELECT answer_id, text FROM v_answers ORDER BY answer_id')).toEqual(all(plain.db, 'SELECT answer_id, text FROM v_answers ORDER BY answer_id'));
  });

  test('the FIRE export refuses an output it cannot write as JSON, naming it', () => {
    expect(() => exportDialogues(run.db, { round: run.round.id, out: path.join(tempDir(), 'fire.parquet') })).toThrow(/--out must end in \.json.*fire\.parquet/);
  });

  test('a round stopped before its dialogues ended resumes them without generating a stored revision again', async () => {
    const before = all<{ id: string; text: string }>(run.db, "SELECT id, text FROM candidates WHERE editor = 'refine' ORDER BY id");
    const dialogues = all(run.db, 'SELECT source_id, turns, end_reason, chosen_id FROM dialogues ORDER BY source_id');
    const pairs = all(run.db, 'SELECT id, chosen_id, rejected_id FROM pairs ORDER BY id');
    // As if the process died mid-dialogue: the last turn of every 3-turn dialogue never written, no dialogue ended,
    // nothing paired.
    run.db.transaction(() => {
      for (const t of ['dialogues', 'pairs', 'pairings', 'balances']) run.db.prepare(`DELETE FROM ${t}`).run();
      for (const { revision_id: id } of all<{ revision_id: string }>(run.db, 'SELECT revision_id FROM dialogue_turns WHERE turn = 3')) {
        for (const t of ['claims', 'divisions', 'scores']) run.db.prepare(`DELETE FROM ${t} WHERE candidate_id = ?`).run(id);
        run.db.prepare('DELETE FROM dialogue_turns WHERE revision_id = ?').run(id);
        run.db.prepare('DELETE FROM candidates WHERE id = ?').run(id);
      }
    })();
    expect(all(run.db, "SELECT id FROM candidates WHERE editor = 'refine'").length).toBeLessThan(before.length);
    const { round } = await runRound(run.config, { choice: run.round.id, stages: STAGES, limit: LIMIT, pool: pool() });
    expect(round.id).toBe(run.round.id);
    expect(all(run.db, "SELECT id, text FROM candidates WHERE editor = 'refine' ORDER BY id")).toEqual(before);
    expect(all(run.db, 'SELECT source_id, turns, end_reason, chosen_id FROM dialogues ORDER BY source_id')).toEqual(dialogues);
    expect(all(run.db, 'SELECT id, chosen_id, rejected_id FROM pairs ORDER BY id')).toEqual(pairs);
  });
});

describe('the FIRE export', () => {
  test('each dialogue is a LLaVA conversation in FIRE\'s student layout with the teacher\'s scores', async () => {
    const rows = roundDialogues(run.db, run.round.id);
    expect(rows.length).toBeGreaterThan(50);
    const file = path.join(tempDir(), 'fire.json');
    const w = exportDialogues(run.db, { round: run.round.id, out: file });
    expect(w.dialogues).toBe(rows.length);
    const items = JSON.parse(readFileSync(file, 'utf8')) as { id: string; image: string; conversations: { from: string; value: string }[]; scores: number[]; turns: number; end: string; level: string; final_clean: boolean }[];
    expect(items.length).toBe(rows.length);
    const byId = new Map(rows.map((d) => [d.source_id, d]));
    for (const it of items) {
      const d = byId.get(it.id)!;
      expect(d).toBeDefined();
      const c = it.conversations;
      expect(c[0]!.from).toBe('human');
      expect(c[0]!.value.startsWith('<image>\n')).toBe(true);
      expect(c.map((x) => x.from)).toEqual(c.map((_, i) => (i % 2 === 0 ? 'human' : 'gpt')));
      expect(c.length).toBe(2 * d.answers.length);
      const answers = d.answers.map((a) => a.text);
      const teacher = d.answers.slice(0, -1).map((a) => a.feedback!);
      const sp = studentPrompt(c[0]!.value.slice('<image>\n'.length), answers.slice(0, -1), teacher);
      // The conversation is exactly what the policy was given, then its last revision.
      expect(c.slice(1).map((x) => x.value)).toEqual([...sp.history.slice(1).map((t) => t.content), sp.question, answers.at(-1)]);
      expect(it.scores).toEqual(d.answers.slice(0, -1).map((a) => a.score));
      expect(it.end).toBe(d.end_reason);
      expect(it.turns).toBe(d.answers.length - 1);
      expect(it.final_clean).toBe(d.end_reason === 'clean');
    }
  });
});

describe('refine pieces', () => {
  test('context errors of the local backend, vLLM and SGLang are recognised; other errors are not', () => {
    expect(isContextError("prompt is 171 tokens, the model's context is 160")).toBe(true);
    expect(isContextError("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens")).toBe(true);
    expect(isContextError('The input (5000 tokens) is longer than the model\'s context length (4096 tokens).')).toBe(true);
    expect(isContextError("Requested token count exceeds the model's maximum context length of 4096 tokens. You requested a total of 5000 tokens")).toBe(true);
    // The test server's mimics say what vLLM and SGLang say (scripts/mimic/mimic.ts TEXTS.contextLength).
    expect(isContextError(TEXTS.contextLength('vllm', 209, 160))).toBe(true);
    expect(isContextError(TEXTS.contextLength('sglang', 209, 160))).toBe(true);
    expect(isContextError('503 Service Unavailable')).toBe(false);
    expect(isContextError('400 image could not be decoded')).toBe(false);
    expect(isContextError('generate: timeout after 30000 ms')).toBe(false);
  });
});
