// The plain-text rendering of an evaluation: a few labelled lines and one table of pairs.
import type { PairDifficulty } from './difficulty.js';
import type { ByForm, PairQuality } from './metrics.js';
import type { EvalReport, PairRow } from './report.js';
import type { ToolsFigures } from './tools.js';

/** A share as a percentage with one decimal ("–" for none). */
export function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

function num(x: number | null, digits = 2): string {
  return x === null ? '–' : x.toFixed(digits);
}

/** Lays out rows of cells in aligned columns (first column left, the rest right). */
export function table(rows: string[][], indent = '  '): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) => indent + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}

const PAIR_HEADER = ['pairs', 'n', 'accurate', 'inverted', 'equal', 'false ch/rej', 'words ch/rej'];

function qualityCells(q: PairQuality): string[] {
  return [
    String(q.pairs),
    pct(q.pair_accuracy),
    pct(q.inverted_share),
    pct(q.equal_share),
    `${num(q.mean_false_chosen)} / ${num(q.mean_false_rejected)}`,
    `${num(q.mean_words_chosen, 1)} / ${num(q.mean_words_rejected, 1)}`,
  ];
}

/** Pair rows as table lines: one line before length balance and one after (when the row balances). */
export function pairTable(rows: readonly PairRow[]): string {
  const lines: string[][] = [PAIR_HEADER];
  for (const r of rows) {
    lines.push([`${r.name}${r.after ? ', all' : ''}`, ...qualityCells(r.before)]);
    if (r.after) lines.push([`${r.name}, balanced (r=${num(r.balance_r)})`, ...qualityCells(r.after)]);
  }
  return table(lines);
}

/** The whole report as text, as `rlaifv eval` prints it. */
export function renderReport(e: EvalReport): string {
  const d = e.divide;
  const l = e.label;
  const s = e.pair_settings;
  const out: string[] = [];
  out.push(
    `round ${e.round} (${e.status}): ${e.prompts} prompts (${e.prompts_paired} paired), labeler ${e.labeler}, ` +
      `accept rule ${e.accept_rule}, feedback ${e.feedback_method}, pairs by ${e.stored_pairs.method}: diff ${s.diff}, max ${s.max_pairs} per prompt, ` +
      `length balance ${s.length_balance ? 'on' : 'off'}`,
  );
  out.push('divide');
  out.push(
    `  ${d.divided} of ${d.answers} answers divided, ${d.claims} claims (${num(d.claims_per_answer)} per answer); ` +
      `sentences the checker can judge: ${d.judgeable_sentences} of ${d.sentences} (${pct(d.judgeable_sentence_share)})`,
  );
  out.push(
    `  claims: ${d.claims_false} false, ${d.claims_true} true, ${d.claims_unknown} unknown to the checker ` +
      `(${pct(d.false_claim_share)} false); skipped sentences ${d.skipped_sentences} (${d.skipped_judgeable} judgeable); ` +
      `questions with another truth than their claim ${d.question_truth_mismatch}; ` +
      `answers whose false count differs from the checker's own split ${d.answers_checker_mismatch}`,
  );
  out.push('label (rejection = "this claim is false")');
  out.push(
    `  ${l.n} claims with a label and a known truth: accuracy ${pct(l.accuracy)}, precision ${pct(l.precision)}, ` +
      `recall ${pct(l.recall)} (tp ${l.tp}, fp ${l.fp}, fn ${l.fn}, tn ${l.tn}); unlabeled ${l.unlabeled}, unknown truth ${l.unknown_truth}`,
  );
  out.push(formTable(l.by_form));
  out.push(`pairs (false claims by the checker; accuracy = chosen has fewer false claims)`);
  out.push(pairTable(e.pairs));
  const rc = e.repeated_claims;
  const choice = (c: 'drop' | 'keep') =>
    `${c === 'drop' ? 'dropped (the scripts)' : 'kept'}${rc.round === c ? ' [this round]' : ''}: ${rc[c].pairs} pairs, ${pct(rc[c].pair_accuracy)} accurate, ${pct(rc[c].inverted_share)} inverted`;
  out.push(`answers asking a question twice (pair.repeated_claims): ${choice('drop')}; ${choice('keep')}`);
  for (const [m, x] of Object.entries(e.errors)) {
    out.push(
      `  ${m === 'rejc' ? 'REJ-C' : 'REJ-P'} pairs not accurate: ${x.not_accurate} (label ${x.label}, divide ${x.divide}, rule ${x.rule}); ` +
        `chosen with a missed false claim ${x.missed_in_chosen}, rejected with a false alarm ${x.false_alarm_in_rejected}; ` +
        `accuracy by margin: ${x.by_margin.map((b) => `${b.margin}: ${pct(b.pair_accuracy)} of ${b.pairs}`).join(', ') || '–'}`,
    );
  }
  const sp = e.stored_pairs;
  out.push(
    `stored pairs (${e.feedback_method}, ${sp.method}, min gap ${sp.min_gap}): ${sp.all.pairs} made, ${pct(sp.all.pair_accuracy)} accurate, ${pct(sp.all.inverted_share)} inverted; ` +
      `${sp.kept.pairs} kept, ${pct(sp.kept.pair_accuracy)} accurate, ${pct(sp.kept.inverted_share)} inverted` +
      (sp.gated ? `; ${sp.gated.pairs} dropped by the quality gate, ${pct(sp.gated.pair_accuracy)} accurate, ${pct(sp.gated.inverted_share)} inverted` : ''),
  );
  // The difficulty lens: how far apart the two sides are, and which kind of claim decided the pair.
  const lens = (d: PairDifficulty) => {
    const forms = Object.entries(d.deciding_form).sort((a, b) => b[1]! - a[1]!);
    return `${d.pairs} pairs, claim-set difference ${d.claim_diff === null ? '–' : d.claim_diff.toFixed(2)}, word edit distance ${d.edit_distance === null ? '–' : d.edit_distance.toFixed(1)}, deciding claim: ${forms.map(([f, n]) => `${f} ${pct(n! / d.pairs)}`).join(', ') || '–'}`;
  };
  out.push(`pair difficulty: kept ${lens(sp.difficulty.kept)}` + (sp.difficulty.gated ? `; dropped by the gate ${lens(sp.difficulty.gated)}` : ''));
  const c = e.check;
  out.push(
    c === null
      ? `check: none (pairs by ${e.feedback_method}, not recomputed from labels)`
      : `check: ${c.method} pairs recomputed ${c.computed_pairs}, stored ${c.stored_pairs}, ${c.pairs_match ? 'identical' : 'DIFFERENT'}; ` +
          `score mismatches ${c.score_mismatches}`,
  );
  for (const [editor, f] of Object.entries(e.corrections ?? {})) {
    out.push(
      `corrections by ${editor}: ${f.answers} corrected answers, ${pct(f.answers_false_free)} free of false claims; ${f.pairs} kept pairs, ` +
        `chosen ${pct(f.chosen_false_free)} free of false claims, false claims ${f.original_false?.toFixed(2) ?? '–'} → ${f.chosen_false?.toFixed(2) ?? '–'} per pair, ` +
        `true claims lost ${f.true_claims_lost?.toFixed(2) ?? '–'} per pair`,
    );
  }
  return out.join('\n') + '\n';
}

/** The label figures by question form, with each verdict source's share (and the labeler alone, where tools decided). */
export function formTable(byForm: ByForm): string {
  const bySource = (q: NonNullable<ByForm[keyof ByForm]>) =>
    Object.entries(q.by_source ?? {}).map(([src, x]) => `${src} ${x.n} · ${pct(x.accuracy)}`).join('; ');
  const alone = Object.values(byForm).some((q) => q?.labeler_alone);
  const rows = Object.entries(byForm).map(([f, q]) => [
    f, String(q!.n), pct(q!.accuracy), pct(q!.false_share), bySource(q!),
    ...(alone ? [q!.labeler_alone ? `${pct(q!.labeler_alone.accuracy)} of ${q!.labeler_alone.n}` : '–'] : []),
  ]);
  if (!rows.length) return '    (no labeled claims)';
  return table([['form', 'claims', 'accuracy', 'false', 'by source (claims · accuracy)', ...(alone ? ['labeler alone'] : [])], ...rows], '    ');
}

/** `rlaifv eval --tools`: the recomputed label figures by form and source, and the pairs they make. */
export function renderTools(t: ToolsFigures): string {
  const l = t.label;
  return [
    `with tools (${t.tools.map((x) => `${x.name}: ${x.id}`).join(', ')}; routing ${Object.entries(t.routing).map(([f, s]) => `${f} -> ${s}`).join(', ')})`,
    `  ${l.n} claims: accuracy ${pct(l.accuracy)}, precision ${pct(l.precision)}, recall ${pct(l.recall)} (tp ${l.tp}, fp ${l.fp}, fn ${l.fn}, tn ${l.tn})`,
    formTable(l.by_form),
    `  REJ-C: ${t.pairs_rejc} pairs, ${pct(t.pair_accuracy_rejc)} accurate, ${pct(t.inverted_rejc)} inverted; ` +
      `REJ-P: ${t.pairs_rejp} pairs, ${pct(t.pair_accuracy_rejp)} accurate, ${pct(t.inverted_rejp)} inverted`,
  ].join('\n') + '\n';
}
