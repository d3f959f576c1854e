// The division study of issue 29: how the rules divider splits real English, old (frozen copy) against new.
//
//   npx tsx scripts/study/divide-real.ts [--out data/study/divide-real.json]
//
// Sets: ../shared/real-claims/{vlm-answers-dev,text-bios-dev}.jsonl (relative to the repository root, as CI has them)
// and any data/real-claims/*.jsonl (lines with `answer`, optional `question`, optional `facts`). Each set is also
// reported by halves (first half: where rules were looked at; second half: not looked at) so the gap shows.
// The metric definitions are those of ../shared/real-claims/README.md, implemented exactly.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { divideRules as divideNew } from '../../src/divide/rules.js';
import { divideRules as divideOld } from './divide-baseline/rules.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Item { answer: string; question?: string; facts?: string[]; split?: string[] }
interface Division { claims: { claim: string; question: string; sentence: string }[]; skipped: { sentence: string; reason: string }[] }
type Divide = (answer: string, opts?: { question?: string }) => Division;

const STOP = new Set(('a an the is are was were be been being there this that these those of in on at to for with and or ' +
  'but as by from it its he she his her they their them has have had do does did which who whom whose what where when ' +
  'while also very can could may might will would shall should not no one image picture photo scene appears seems ' +
  'visible seen shown').split(' '));
const AUX = new Set('is are was were do does did can could has have had will would should may might must shall am'.split(' '));
const SUBORD = new Set(('as when while if because although though since after before until unless where whether so ' +
  'and but or then also').split(' '));

/** The README's word: lower-cased, letters and digits only, "ies" -> "y", then one trailing "s" dropped. */
export function normWord(w: string): string {
  return w.toLowerCase().replace(/[^a-z0-9]/g, '').replace(/ies$/, 'y').replace(/s$/, '');
}
/**
 * Content words of a text: normalised words, stop words and empties removed. The README leaves one thing open: is a
 * word a stop word before or after the plural fold? Matched after the fold (`foldFirst`, the reading that reproduces
 * the figures, 75% for the old divider), "is", "was", "has", "this" become "i", "wa", "ha", "thi" and are
 * content words, so "There is a bird." is covered only by a claim containing "is". Matched before the fold as well,
 * they are stop words. The study reports both.
 */
export function contentWords(text: string, foldFirst = true): Set<string> {
  const out = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    const w = normWord(raw);
    const stop = STOP.has(w) || (!foldFirst && STOP.has(raw.toLowerCase().replace(/[^a-z0-9]/g, '')));
    if (w !== '' && !stop) out.add(w);
  }
  return out;
}
/** The README's ill-formed question: not led by an auxiliary, a subordinating word after it, or no final "?". */
export function illFormed(question: string): boolean {
  const words = question.trim().split(/\s+/).map((w) => w.toLowerCase().replace(/[^a-z']/g, ''));
  return !AUX.has(words[0] ?? '') || SUBORD.has(words[1] ?? '') || !question.trim().endsWith('?');
}

// Suspect claims: a mechanical check of a claim's wording, so precision can be counted and not tuned by eye. A claim
// is suspect when one of these holds (a claim counts once; its first class is tallied):
//  - `dangling`: its last word is a lower-case preposition, conjunction or determiner ("Houghton is a hard worker on.")
//    and the claim has no relative word, "where" or "to (be) WORD PREP" end that may strand a preposition ("... for the
//    cat to rest on", "... to be cautious about"); or it ends in ", x" or ", x y" (lower-case, not led by such a word) after a lower-case word, with no
//    "and"/"or" anywhere ("... in film soundtracks, commercials."; not two adjectives after a determiner or a
//    preposition, "a tart, citrusy note"); or it ends in "her" where its sentence goes on after those words with a
//    lower-case word ("Khan finished her." from "Khan finished her schooling at ...");
//  - `fragment`: its first word is one or two letters, not a short English word and not a word of the answer (a name
//    cut short; "Ji Sung", "IU" and "Gerardo Fernandez Fe"'s "Fe" are words of their answers and are not suspect);
//  - `foreign word`: a content word (normWord, not a study stop word) that the answer has in no form and that is not one
//    of the divider's own template words (SUSPECT_TEMPLATE: "born", "released", "movie", ...). Forms: the answer's
//    words whole and split at punctuation; two words match when equal, when they share a prefix of at least 3
//    letters that leaves at most 2 letters of the shorter ("moved"/"moving"), when equal once "ied" is "y" and one
//    ending ing/ed/es/e is cut ("studied"/"studying"), or by a short list of irregular past forms ("became"/"become");
//  - `empty existence`: "There is/are" with at most four more words, the last one a lower-case abstract or time word
//    ("There is a good night.", "There are many years.").
// It does not catch: a well-formed claim that says the wrong thing ("Welbourn was also other buildings in the area."
// has all its words in the answer), a wrong pronoun resolution, a wrong subject carried over from another sentence,
// a verb made finite with the wrong tense, a claim cut before an object that is not a preposition's ("He won the.").
const DANGLING = new Set(('of in on at to for with by from into about than like under during through between against ' +
  'among without within upon and or but nor the a an every each his its their our my your').split(' '));
const SHORT_WORDS = new Set('a an as at be by do go he if in is it me my no of on or so to up us we'.split(' '));
export const SUSPECT_TEMPLATE = new Set(('there i wa are ha have had a an at in on from until since born died ' +
  'released movie film year position').split(' '));
const IRREGULAR: Record<string, string> = { became: 'become', left: 'leave', took: 'take', led: 'lead',
  won: 'win', went: 'going', made: 'make', broke: 'break', lost: 'lose', grew: 'grow', fought: 'fight', wrote: 'write', began: 'begin',
  gave: 'give', held: 'hold', met: 'meet', sang: 'sing', taught: 'teach', built: 'build', spent: 'spend', kept: 'keep',
  brought: 'bring', found: 'find', told: 'tell', sold: 'sell', came: 'come', ran: 'run', drew: 'draw', chose: 'choose',
  rose: 'rise' };
const stem = (w: string): string => w.replace(/ied$/, 'y').replace(/(?:ing|ed|es|e)$/, '');
const ABSTRACT = new Set(('time day night morning afternoon evening moment year week way lot kind sort type part sense ' +
  'feeling atmosphere mood idea fact thing something nothing anything example variety number range mix combination ' +
  'presence use focus emphasis touch hint look').split(' '));
const sameWord = (a: string, b: string): boolean => {
  if (a === b || stem(a) === stem(b)) return true;
  const ia = IRREGULAR[a], ib = IRREGULAR[b];
  if ((ia !== undefined && sameWord(ia, b)) || (ib !== undefined && sameWord(a, ib))) return true;
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k >= 3 && Math.min(a.length, b.length) - k <= 2;
};
/** The suspect class of a claim (see above), or null. `answerWords`: answerWordSet(answer). */
export function suspectClass(claim: string, answerWords: Set<string>, sentence?: string): string | null {
  const body = claim.trim().replace(/[.!?]+$/, '');
  const words = body.split(/\s+/);
  const last = words[words.length - 1] ?? '';
  // A preposition may end a clause that moved its object ("a surface for the cat to rest on", "those she cares about").
  const stranded = /\b(?:which|that|whom|who|whose|those|what|where)\b/i.test(body) || /\bto (?:be )?\S+ \S+$/.test(body);
  const tail = body.split(',');
  const after = (tail[tail.length - 1] ?? '').trim();
  const before = (tail[tail.length - 2] ?? '').trim().split(/\s+/).pop() ?? '';
  // Coordinate adjectives are no list: "a tart, citrusy note", "of round, black glasses".
  const beforeWords = (tail[tail.length - 2] ?? '').trim().split(/\s+/);
  const adjectives = after.includes(' ') && DANGLING.has((beforeWords[beforeWords.length - 2] ?? '').toLowerCase());
  const listEnd = tail.length > 1 && /^[a-z][a-z-]*(?: [a-z][a-z-]*)?$/.test(after) && !DANGLING.has(after.split(' ')[0]!) &&
    /^[a-z-]+$/.test(before) && !/\b(?:and|or)\b/.test(body) && !adjectives;
  // Cut after "her" where the sentence goes on with a lower-case word ("Khan finished her." from "Khan finished her
  // schooling at ..."): "her" ends good claims too ("... several challenges for her."), so only where it was cut.
  const herAt = last === 'her' && sentence !== undefined ? sentence.indexOf(`${words.slice(-2).join(' ')} `) : -1;
  const cutHer = herAt >= 0 && /[a-z]/.test(sentence?.[herAt + words.slice(-2).join(' ').length + 1] ?? '');
  if ((DANGLING.has(last) && !stranded) || listEnd || cutHer) return 'dangling';
  const first = words[0] ?? '';
  if (/^[A-Za-z]{1,2}$/.test(first) && !SHORT_WORDS.has(first.toLowerCase()) && !answerWords.has(normWord(first))) return 'fragment';
  for (const raw of words) {
    const w = normWord(raw);
    if (w === '' || STOP.has(w) || SUSPECT_TEMPLATE.has(w) || answerWords.has(w)) continue;
    const parts = raw.split(/[^A-Za-z0-9]+/).map(normWord).filter((x) => x !== '');
    if (parts.length > 1 && parts.every((x) => answerWords.has(x))) continue;
    if (![...answerWords].some((a) => sameWord(w, a))) return 'foreign word';
  }
  const m = /^There (?:is|are)\s+(?:\S+\s+){0,3}?([a-z]+)$/.exec(body);
  if (m && ABSTRACT.has(normWord(m[1] ?? ''))) return 'empty existence';
  return null;
}
/** The answer's words for suspectClass: each whitespace word normalised whole, and each of its parts at punctuation. */
export function answerWordSet(answer: string): Set<string> {
  const out = new Set<string>();
  for (const raw of answer.split(/\s+/)) {
    out.add(normWord(raw));
    for (const p of raw.split(/[^A-Za-z0-9]+/)) out.add(normWord(p));
  }
  out.delete('');
  return out;
}

function readSet(file: string): Item[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l, i) => {
    const o = JSON.parse(l) as Partial<Item>;
    if (typeof o.answer !== 'string') throw new Error(`${file}:${i + 1}: no "answer" string`);
    // FActScore's lines keep InstructGPT's own automatic split of the same answer (the facts were edited from it).
    const byS = (o as { model_atomic_facts_by_sentence?: unknown }).model_atomic_facts_by_sentence;
    const split = Array.isArray(byS) ? byS.flat().filter((c): c is string => typeof c === 'string') : undefined;
    return { answer: o.answer, ...(typeof o.question === 'string' ? { question: o.question } : {}), ...(Array.isArray(o.facts) ? { facts: o.facts } : {}), ...(split ? { split } : {}) };
  });
}

interface Figures {
  answers: number; with_facts: number; claims_per_answer: number; facts_per_answer: number | null; ratio: number | null;
  coverable: number | null; covered: number | null; coverage: number | null;
  /** Coverage with stop words matched before the plural fold too (see contentWords). */
  coverage_stop_before_fold: number | null; claims: number; long_claims: number; long_claims_count: number;
  /** Fold-first misses that a claim covers but for a folded stop word, "was", "is", "has", "his" (missedOnlyByFold). */
  missed_only_by_fold: number | null;
  sentences: number; sentences_no_claim: number; skipped_share: number;
  /**
   * Skipped sentences whose concrete content the answer's claims already hold: divided alone they give claims, and
   * every content word of those is in the answer's claims ("The presence of the price tag suggests that ..." after
   * "There is a price tag."). The share of the others: sentences that gave nothing, nothing the answer already had.
   */
  skipped_repeating: number; skipped_share_without_repeats: number;
  /** The share among statements only: headings, code, instructions, questions and exclamations not counted. */
  skipped_statements_share: number; skipped_by_reason: Record<string, number>;
  dropped_parts_by_reason: Record<string, number>; questions: number; ill_formed: number; ill_formed_examples: string[];
  /** Suspect claims (see suspectClass): count, share of claims, by class, the first 10. */
  suspect: number; suspect_share: number; suspect_by_class: Record<string, number>; suspect_examples: string[];
  answers_per_s: number;
}

// The reason without its quoted detail, so reasons tally ("subjective (\"x\")" -> "subjective").
// Sentences that are not statements by their form: skipped with a reason, but nothing there was a fact to keep.
const FORM_REASONS = new Set(['heading or lead-in', 'code', 'instruction or advice', 'question', 'exclamation']);
const reasonKey = (r: string): string => r.replace(/\s*\(".*$/, '').replace(/\s+"[^"]*"$/, '').replace(/ from ".*$/, '');

/** [coverable, covered] on the fold-first reading, then on the stop-first one (see contentWords). */
export function coverageOf(answer: string, facts: readonly string[], claims: readonly string[]): [number, number, number, number] {
  const out: [number, number, number, number] = [0, 0, 0, 0];
  for (const [k, foldFirst] of [true, false].entries()) {
    const answerWords = contentWords(answer, foldFirst);
    const claimWords = claims.map((c) => contentWords(c, foldFirst));
    for (const f of facts) {
      const fw = [...contentWords(f, foldFirst)];
      if (fw.length === 0 || !fw.every((w) => answerWords.has(w))) continue;
      out[2 * k]!++;
      if (claimWords.some((cw) => fw.every((w) => cw.has(w)))) out[2 * k + 1]!++;
    }
  }
  return out;
}

// The stop words the fold-first reading keeps as content words: folded, they leave the stop list ("was" -> "wa", "is"
// -> "i", "has" -> "ha", "his" -> "hi", "this" -> "thi", "does" -> "doe", "appears" -> "appear", "seems" -> "seem").
const FOLDED_STOP = new Set([...STOP].map(normWord).filter((w) => w !== '' && !STOP.has(w)));

/**
 * Coverable facts (fold-first) that no claim covers, but one would with the folded stop words left out: "He was
 * proconsul in Africa." against "Senecio later became a proconsul in Africa.". The share of the fold-first reading's
 * misses that are about "was", "is", "has" or "his" alone, a wording the sentence need not have.
 */
export function missedOnlyByFold(answer: string, facts: readonly string[], claims: readonly string[]): number {
  const answerWords = contentWords(answer);
  const claimWords = claims.map((c) => contentWords(c));
  let n = 0;
  for (const f of facts) {
    const fw = [...contentWords(f)];
    if (fw.length === 0 || !fw.every((w) => answerWords.has(w)) || claimWords.some((cw) => fw.every((w) => cw.has(w)))) continue;
    const rest = fw.filter((w) => !FOLDED_STOP.has(w));
    if (rest.length < fw.length && claimWords.some((cw) => rest.every((w) => cw.has(w)))) n++;
  }
  return n;
}

/** The figures a ready-made split has (InstructGPT's, on FActScore's lines): coverage both ways, atomicity. */
interface SplitFigures {
  answers: number; claims_per_answer: number; facts_per_answer: number; ratio: number; coverable: number; covered: number;
  coverage: number; coverage_stop_before_fold: number; claims: number; long_claims: number; long_claims_count: number;
  missed_only_by_fold: number;
}
export function measureSplit(items: Item[]): SplitFigures | null {
  const its = items.filter((it) => it.split !== undefined && it.facts !== undefined);
  if (its.length === 0) return null;
  let claims = 0, long = 0, facts = 0, fold = 0;
  const cov = [0, 0, 0, 0];
  for (const it of its) {
    fold += missedOnlyByFold(it.answer, it.facts!, it.split!);
    claims += it.split!.length;
    long += it.split!.filter((c) => c.trim().split(/\s+/).length > 15).length;
    facts += it.facts!.length;
    coverageOf(it.answer, it.facts!, it.split!).forEach((n, k) => { cov[k]! += n; });
  }
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    answers: its.length, claims_per_answer: Math.round((claims / its.length) * 100) / 100, facts_per_answer: Math.round((facts / its.length) * 100) / 100,
    ratio: r(claims / facts), coverable: cov[0]!, covered: cov[1]!, coverage: r(cov[1]! / cov[0]!), coverage_stop_before_fold: r(cov[3]! / cov[2]!),
    claims, long_claims: r(long / claims), long_claims_count: long, missed_only_by_fold: fold,
  };
}

export function repeatsClaims(sentence: string, d: Division, divide: Divide): boolean {
  const alone = divide(sentence).claims;
  if (alone.length === 0) return false;
  const have = new Set(d.claims.flatMap((c) => [...contentWords(c.claim, false)]));
  return alone.every((c) => [...contentWords(c.claim, false)].every((w) => have.has(w)));
}

function measure(items: Item[], divide: Divide): Figures {
  // Warm up on the set itself (wink's model load, the JIT), then count answers per CPU second of this thread:
  // CPU time, not the wall clock, because the machine is shared (see scripts/bench/divide.ts).
  const run = () => items.map((it) => divide(it.answer, it.question === undefined ? undefined : { question: it.question }));
  run();
  const t0 = process.cpuUsage();
  const divs = run();
  const used = process.cpuUsage(t0);
  const secs = (used.user + used.system) / 1e6;
  let claimsF = 0, facts = 0, withFacts = 0, coverable = 0, covered = 0, claims = 0, long = 0, sentences = 0, noClaim = 0;
  let questions = 0, ill = 0, coverable2 = 0, covered2 = 0, repeating = 0, fold = 0;
  const byReason: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const illEx: string[] = [];
  let suspect = 0;
  const suspectBy: Record<string, number> = {};
  const suspectEx: string[] = [];
  items.forEach((it, i) => {
    const d = divs[i]!;
    claims += d.claims.length;
    long += d.claims.filter((c) => c.claim.trim().split(/\s+/).length > 15).length;
    const answerWords = answerWordSet(it.answer);
    for (const c of d.claims) {
      const k = suspectClass(c.claim, answerWords, c.sentence);
      if (k !== null) {
        suspect++;
        suspectBy[k] = (suspectBy[k] ?? 0) + 1;
        if (suspectEx.length < 10) suspectEx.push(`${k}: ${c.claim}`);
      }
      questions++;
      if (illFormed(c.question)) { ill++; if (illEx.length < 8) illEx.push(c.question); }
    }
    const claimSentences = new Set(d.claims.map((c) => c.sentence));
    sentences += claimSentences.size;
    for (const s of d.skipped) {
      const part = [...claimSentences].some((cs) => cs.includes(s.sentence.trim()));
      const tally = part ? dropped : byReason;
      tally[reasonKey(s.reason)] = (tally[reasonKey(s.reason)] ?? 0) + 1;
      if (!part) {
        sentences++;
        noClaim++;
        if (repeatsClaims(s.sentence, d, divide)) repeating++;
      }
    }
    if (!it.facts) return;
    withFacts++;
    facts += it.facts.length;
    claimsF += d.claims.length;
    const c = coverageOf(it.answer, it.facts, d.claims.map((x) => x.claim));
    coverable += c[0]; covered += c[1]; coverable2 += c[2]; covered2 += c[3];
    fold += missedOnlyByFold(it.answer, it.facts, d.claims.map((x) => x.claim));
  });
  const r = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  const forms = Object.entries(byReason).filter(([k]) => FORM_REASONS.has(k)).reduce((a, [, n]) => a + n, 0);
  return {
    answers: items.length, with_facts: withFacts, claims_per_answer: r(claims / Math.max(1, items.length), 2),
    facts_per_answer: withFacts ? r(facts / withFacts, 2) : null,
    ratio: withFacts ? r(claimsF / facts) : null,
    coverable: withFacts ? coverable : null, covered: withFacts ? covered : null,
    coverage: withFacts && coverable ? r(covered / coverable) : null,
    coverage_stop_before_fold: withFacts && coverable2 ? r(covered2 / coverable2) : null,
    missed_only_by_fold: withFacts ? fold : null,
    claims, long_claims: claims ? r(long / claims) : 0, long_claims_count: long, sentences, sentences_no_claim: noClaim,
    skipped_share: sentences ? r(noClaim / sentences) : 0, skipped_repeating: repeating,
    skipped_share_without_repeats: sentences ? r((noClaim - repeating) / sentences) : 0,
    skipped_statements_share: sentences > forms ? r((noClaim - forms) / (sentences - forms)) : 0, skipped_by_reason: byReason, dropped_parts_by_reason: dropped,
    questions, ill_formed: questions ? r(ill / questions, 4) : 0, ill_formed_examples: illEx,
    suspect, suspect_share: claims ? r(suspect / claims, 4) : 0, suspect_by_class: suspectBy, suspect_examples: suspectEx,
    answers_per_s: Math.round(items.length / secs),
  };
}

function sets(): { name: string; file: string }[] {
  const shared = path.resolve(ROOT, '..', 'shared', 'real-claims');
  const out = ['vlm-answers-dev', 'text-bios-dev'].map((n) => ({ name: n, file: path.join(shared, `${n}.jsonl`) }));
  const extra = path.join(ROOT, 'data', 'real-claims');
  if (existsSync(extra)) {
    for (const f of readdirSync(extra).filter((x) => x.endsWith('.jsonl')).sort()) out.push({ name: f.replace(/\.jsonl$/, ''), file: path.join(extra, f) });
  }
  return out.filter((s) => {
    if (existsSync(s.file)) return true;
    process.stderr.write(`divide-real: ${s.file} not found, set skipped\n`);
    return false;
  });
}

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

function row(set: string, part: string, who: string, f: Figures): string {
  const cols = [set, part, who, String(f.answers), f.claims_per_answer.toFixed(2), f.facts_per_answer?.toFixed(2) ?? '-',
    f.ratio === null ? '-' : `${f.ratio.toFixed(2)}x`, pct(f.coverage), pct(f.coverage_stop_before_fold), pct(f.long_claims), pct(f.skipped_share), pct(f.skipped_statements_share),
    pct(f.skipped_share_without_repeats), pct(f.ill_formed), `${f.suspect} (${pct(f.suspect_share)})`, String(f.answers_per_s)];
  return cols.join(' | ');
}

function splitRow(set: string, part: string, f: SplitFigures): string {
  return [set, part, 'InstructGPT split', String(f.answers), f.claims_per_answer.toFixed(2), f.facts_per_answer.toFixed(2), `${f.ratio.toFixed(2)}x`,
    pct(f.coverage), pct(f.coverage_stop_before_fold), pct(f.long_claims), '-', '-', '-', '-', '-', '-'].join(' | ');
}

function main(): void {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const outFile = path.resolve(ROOT, outIdx >= 0 ? args[outIdx + 1] ?? '' : 'data/study/divide-real.json');
  const dividers: [string, Divide][] = [['old', divideOld], ['new', divideNew]];
  const result: Record<string, Record<string, Record<string, Figures | SplitFigures>>> = {};
  const lines = ['set | part | divider | answers | claims/ans | facts/ans | claims:facts | coverage | coverage (stop words before fold) | >15 words | sentences skipped | statements skipped | skipped, not repeating claims | ill-formed q | suspect claims | answers/s', '---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---'];
  for (const s of sets()) {
    const items = readSet(s.file);
    const half = Math.ceil(items.length / 2);
    const parts: [string, Item[]][] = [['all', items], ['first half', items.slice(0, half)], ['second half', items.slice(half)]];
    result[s.name] = {};
    for (const [part, its] of parts) {
      result[s.name]![part] = {};
      for (const [who, fn] of dividers) {
        const f = measure(its, fn);
        result[s.name]![part]![who] = f;
        lines.push(row(s.name, part, who, f));
      }
      const split = measureSplit(its);
      if (split !== null) {
        result[s.name]![part]!.instructgpt = split;
        lines.push(splitRow(s.name, part, split));
      }
    }
  }
  process.stdout.write(`${lines.join('\n')}\n\nskipped sentences by reason (all, new):\n`);
  for (const [name, r] of Object.entries(result)) {
    const f = r.all?.new as Figures | undefined;
    if (f) process.stdout.write(`  ${name}: ${JSON.stringify(f.skipped_by_reason)}; parts dropped from kept sentences: ${JSON.stringify(f.dropped_parts_by_reason)}\n`);
  }
  process.stdout.write('\ncoverable facts missed on the fold-first reading only for a folded stop word ("was", "is", "has", "his", "this", "does",\n"appears", "seems"; new; InstructGPT split):\n');
  for (const [name, r] of Object.entries(result)) {
    const f = r.all?.new as Figures | undefined;
    const g = r.all?.instructgpt as SplitFigures | undefined;
    if (f?.missed_only_by_fold === null || f === undefined || f.coverable === null || f.covered === null) continue;
    const split = g === undefined ? '' : `; InstructGPT split ${g.missed_only_by_fold} of ${g.coverable - g.covered}`;
    process.stdout.write(`  ${name}: ${f.missed_only_by_fold} of ${f.coverable - f.covered} missed${split}\n`);
  }
  process.stdout.write('\nsuspect claims by class (new; first half, second half):\n');
  for (const [name, r] of Object.entries(result)) {
    const half = (k: string) => (r[k]?.new as Figures | undefined)?.suspect_by_class;
    process.stdout.write(`  ${name}: ${JSON.stringify(half('first half'))}; ${JSON.stringify(half('second half'))}\n`);
  }
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify({ note: 'answers/s: answers per CPU second of one thread after a warm-up pass, on a machine shared with other jobs', sets: result }, null, 1)}\n`);
  process.stdout.write(`wrote ${path.relative(ROOT, outFile)}\n`);
}

if (process.argv[1]?.endsWith("divide-real.ts")) main();
