/** Which sentences and clause parts are not checkable facts about the image, and why. */
import { stripDiscourseMarkers } from './clause.js';
import { NO_THING } from './first-person.js';
import { BASE_VERBS, BE_FORMS, HEDGE_PATTERNS, META_PATTERNS, PARTICIPLES, PREPOSITIONS, PRONOUNS, SUBJECTIVE_WORDS } from './lexicon.js';
import { cleanWord, expandContractions, normalizeText } from './text.js';

/** The reason a whole sentence yields no claims (its form, or talk about the conversation), or null. */
export function sentenceSkipReason(sentence: string): string | null {
  const text = normalizeText(sentence);
  if (text === '') return 'empty';
  if (/\?["')\]]*$/.test(text)) return 'question';
  if (/!["')\]]*$/.test(text) && !titleOrQuoteEnds(text)) return 'exclamation';
  if (/:["')\]]*$/.test(text) || /^(?:title|subject|heading)\s*:/i.test(text)) return 'heading or lead-in';
  if (CODE.test(text)) return 'code';
  const body = stripDiscourseMarkers(expandContractions(text));
  if (META_PATTERNS.some((re) => re.test(body))) return 'about the conversation, not the image';
  return null;
}

// "McAndrew was known for her role in the film Hello, Dolly!", 'The box says "Charge your phone with a duck!"': the
// "!" is a title's or a quotation's inside a statement, not the sentence's. A capitalised word before it that is not
// the sentence's first, or a closing quote after it when the sentence does not open with the quote (dialogue).
function titleOrQuoteEnds(text: string): boolean {
  if (/^["\u201c]/.test(text)) return false;
  if (/!["\u201d]\W*$/.test(text)) return true;
  return /\s[A-Z][\w'-]*!\W*$/.test(text);
}

// Markup and program text in an answer ("```html", "<div class=...>", "body { margin: 0;"): not a statement.
const CODE = /^```|^<\/?[a-z!][\w-]*(?:\s[^>]*)?\/?>?|[{};]\s*$|^[.#]?[\w-]+\s*\{|^[\w-]+\s*:\s*[^\s].*;/i;

/**
 * "Rinse the shrimp under cold water.", "Serve with lemon wedges.": a sentence led by a verb in its base form tells
 * the reader what to do and says nothing about the image. `first` is the sentence's first token, as the tagger read it.
 */
export function isInstruction(first: { text: string; pos: string } | undefined, second: { text: string; pos: string } | undefined): boolean {
  if (first === undefined || first.pos !== 'VERB' || !/^[A-Z][a-z]+$/.test(first.text)) return false;
  // Not a participle ("Born in Tokyo, she ...") nor a name the tagger read as a verb ("Rob Furlong is ...").
  // An order takes an object or a place next ("Preheat your oven", "Serve with"), not a verb ("Ford is ...").
  const object = ['DET', 'NOUN', 'ADJ', 'PRON', 'ADP', 'ADV', 'NUM', 'PART'].includes(second?.pos ?? '') && !/^['’]s$/.test(second?.text ?? '');
  return object && !/(?:ing|ed|s)$/.test(first.text) && !PARTICIPLES.has(first.text.toLowerCase());
}

const ORDER_OBJECT = new Set(['the', 'a', 'an', 'your', 'each', 'all']);
// "First, be aware of the weather conditions ...", "Additionally, make sure to ...": an order after a sequence word.
const SEQUENCE_LEADS = new Set(['first', 'firstly', 'second', 'secondly', 'third', 'thirdly', 'additionally', 'also', 'finally', 'lastly', 'next', 'then', 'furthermore', 'moreover']);

/** A sentence that gives an order, at its start or after a sequence word and its comma (see isInstruction). */
export function opensWithOrder(toks: readonly { text: string; pos: string }[]): boolean {
  if (isInstruction(toks[0], toks[1])) return true;
  // "Brush the lobster tails with ...": a known verb before an article, whatever the tagger read it as.
  if (/^[A-Z][a-z]+$/.test(toks[0]?.text ?? '') && BASE_VERBS.has(toks[0]!.text.toLowerCase()) && ORDER_OBJECT.has(toks[1]?.text ?? '')) return true;
  // "Using kitchen shears, cut along the top ...": after a leading -ing phrase, as after a sequence word.
  const ing = /^[A-Z][a-z]+ing$/.test(toks[0]?.text ?? '') ? toks.findIndex((t) => t.text === ',') : -1;
  const [lead, comma, verb, next] = ing > 0 && ing < 6 ? [{ text: 'then', pos: 'ADV' }, ...toks.slice(ing)] : toks;
  if (!lead || !SEQUENCE_LEADS.has(lead.text.toLowerCase()) || comma?.text !== ',' || !verb || !/^[a-z]+$/.test(verb.text)) return false;
  // "be aware of", "be careful", "be sure to": the order of "be"; a known verb before an article or a preposition.
  if ((verb.text === 'be' && next?.pos === 'ADJ') || (BASE_VERBS.has(verb.text) && ['DET', 'ADP'].includes(next?.pos ?? ''))) return true;
  return isInstruction({ text: verb.text.charAt(0).toUpperCase() + verb.text.slice(1), pos: verb.pos }, next);
}

/** The reason a sentence yields no claims, or null when it should be divided (the form, then the content). */
export function skipReason(sentence: string): string | null {
  return sentenceSkipReason(sentence) ?? contentSkipReason(sentence).reason;
}

// "I can see two dogs" states a visual fact and is rewritten to "There are two dogs"; other first- or
// second-person text ("As I walk down the street") narrates, and is not about the image.
// Not before a pronoun's clause or a question word ("you can see it is tired", "you can see how ..."); "I can see that
// X" says X (claims.ts).
const SEE = new RegExp(String.raw`^(?:[^,]+,\s*)?(?:i|we|you|one)\s+(?:can\s+|could\s+)?(?:also\s+)?(?:see|notice|observe|spot)\s+(?!${NO_THING.source.replace(/\^/g, '')})`, 'i');
// Lower-case person words anywhere, capitalised ones only at the start: a capital "Your" or "My" mid-sentence
// is a title ("When the Devil Calls Your Name"), and "I" after a capitalised word a name ("Elizabeth I").
const PERSON = /(?<![A-Z][a-z]*\s)\bI\b(?!\s+[A-Z]|,)|\b(?:me|my|mine|myself|we|us|our|ours|you|your|yours|yourself)\b|^(?:My|We|Our|You|Your)\b/;

const QUOTED = /["“][^"”]*["”]/g;

// Statements about kinds of things rather than this picture ("Cats are naturally curious creatures.").
const GENERIC_ADVERB = /\b(?:typically|usually|commonly|generally|naturally|traditionally|tends? to)\b/i;
const INDEFINITE_SUBJECT = /^(?:a|an|people|many|most|some|such|all|each|every)\b|^(?:[a-z]+\s+)?[a-z]+s\s/i;
const BARE_PLURAL_GENERIC = /^(?:[A-Za-z]+\s+)?[A-Za-z]+[^su\s]s\s+(?:are|can|have|need|require|love|like|enjoy|tend|make)\s+(?!(?:in|on|at|near|under|behind|beside|next|inside|outside|around|along|above|below|by|over|being)\b)(?![a-z]+(?:ing|ed)\b)/;
// What a kind of thing is made or evolved for ("the duck's legs and feet are not designed for walking on hard
// surfaces"): a fact about the species or the product, which no picture shows.
// Also what a kind is usually used for ("which are commonly used for listening to music").
const DESIGN = /\b(?:is|are)\s+(?:not\s+)?(?:designed|adapted|built|meant|evolved|(?:commonly|typically|usually|often|generally)\s+used)\s+(?:for|to|as)\b/i;
const DEFINITION = /\b(?:is|are)\s+(?:a|an)\s+(?:[a-z-]+\s+){0,2}(?:device|tool|type|kind|form|sort|means|machine|instrument|way|method|symbol)s?\s+(?:used|designed|meant|that|which|for|of|to)\b/i;

// "The girl appears to be smiling": a thing's look is what a picture shows, so it stays a claim ("Does the girl
// appear to be smiling?"); "It seems that ..." and "may", "likely" remain guesses.
// A part whose subject is not "it" or "this" (the guess's own words). Whatever comes before the first letter (an emoji,
// a bullet) is passed over whole, so "👍 It seems ..." is "It seems".
const NOT_IT = String.raw`^((?=([^A-Za-z]*))\2(?!it\b)(?!this\b)`;
const APPEARANCE = new RegExp(String.raw`${NOT_IT}[^,]*?\b(?:appears?|seems?))\s+to\b`, 'i');
// "The object looks like a kite", "wearing what looks like a baseball cap": a look too; "It looks like ...", "This
// looks like ..." and what something is made to look like ("to make the dog look like the Mona Lisa") stay guesses.
const LOOKS_LIKE = new RegExp(String.raw`${NOT_IT}(?!that\b)(?![^,]*\bmak(?:e|es|ing)\b)[^,]*?\blooks?)\s+like\b`, 'i');

// An inference drawn from what is seen ("the presence of a meter indicates that ...", "which means it has").
const INFERENCE = /\b(?:suggest|indicate|impl(?:y|ie)|signif(?:y|ie)|demonstrate|hint)s?\s+that\b|\b(?:one|we|you)\s+(?:can|could|may|might)\s+(?:infer|conclude|deduce|assume)\b|\b(?:means|meaning)\s+(?:that|it|they|he|she|the)\b|\bsuggest(?:s|ing|ed)?\b/i;
// Speculation and advice, not sight: "could cause", "potentially", "must be cautious", "it is essential to".
// "To ensure its safety, it is essential to monitor ...": after a fronted purpose phrase too.
const SPECULATION = /\b(?:could|potentially|must)\b|(?:^|^to\s[^,]+,\s*)it\s+is\s+(?:essential|important|crucial|necessary|advisable|recommended)\b/i;

// What is seen where ("Several birds can be seen flying", "Trees are visible.") is about this picture, whatever its
// subject's form; "can be seen as" is a reading of it.
const SEEN = /\b(?:can|could)\s+be\s+(?:seen|spotted|observed|noticed)\b(?!\s+as\b)|\b(?:is|are)\s+(?:(?:also|clearly|partially|barely)\s+)?visible\b/i;

/** "world knowledge" when a statement is about kinds of things, not about what this image shows. */
export function isWorldKnowledge(text: string): boolean {
  const body = stripDiscourseMarkers(normalizeText(text));
  if (SEEN.test(body)) return false;
  if (DEFINITION.test(body) || DESIGN.test(body)) return true;
  if (/^(?:the|this|that|these|those|he|she|it|they|his|her|their|its|there)\b/i.test(body)) return false;
  if (BARE_PLURAL_GENERIC.test(body) && !/^[A-Z][a-z]+\s+[A-Z]/.test(body)) return true;
  return GENERIC_ADVERB.test(body) && INDEFINITE_SUBJECT.test(body);
}

const SENT_BY_READER = /(?<=^(?:the|this)\s+(?:image|picture|photo|photograph|painting|meme|drawing|screenshot|sketch|illustration|artwork))\s+(?:that\s+)?you(?:'ve|\s+have)?\s+(?:just\s+)?(?:sent|shared|provided|uploaded|posted|attached)(?:\s+(?:me|us|with\s+me))?(?=\s+[a-z])/i;

const ADJECTIVE_END = /[a-z](?:al|ic|ive|ful|ous|ble|ent|ant|ary|ish|less)$/;

// Nouns and verbs of mood: a part built on one is an evaluation, whatever else it holds.
const MOOD_WORDS = new Set(['atmosphere', 'ambiance', 'ambience', 'vibe', 'mood', 'evokes', 'conveys']);

const LINKING = /^(?:be|been|being|looks?|looked|seems?|seemed|appears?|appeared|feels?|felt|remains?|remained|becomes?|became|sounds?)$/;

/** A part's content reason (hedge, person, world knowledge, subjective), or a cleaned text with the dropped words. */
export function contentSkipReason(part: string): { reason: string | null; text: string; dropped: string[] } {
  // "The image you sent me shows ...", "The painting you sent me is the Mona Lisa": as a sentence's subject, the
  // reader's upload names the picture; the sentence is about what it shows, not about the reader. ("Based on the
  // image you sent me, ..." stays the chat's narration.)
  const text = part.includes('you') ? part.replace(SENT_BY_READER, '') : part;
  const body = stripDiscourseMarkers(expandContractions(normalizeText(text)));
  // "May" with a capital inside a sentence or before a number is the month or a name ("born on May 31, 1982",
  // "Anna May Wong"), not the modal.
  const looks = body.replace(APPEARANCE, '$1').replace(LOOKS_LIKE, '$1');
  // The look-behind is tried at every position: skip it when there is no "May" to find (nearly every part).
  const seen = looks.includes('May') ? looks.replace(/(?<=\S\s+)May\b|\bMay(?=\s+\d)/g, 'Maia') : looks;
  if (HEDGE_PATTERNS.some((re) => re.test(seen)) || INFERENCE.test(body) || SPECULATION.test(body)) return { reason: 'opinion or hedge', text, dropped: [] };
  // A quoted title ("You & I", "The King and I") is a name, not the speaker.
  if (PERSON.test(body.replace(SEE, '').replace(QUOTED, '""')) || /^(?:i|we|you)\b/i.test(body) && !SEE.test(body)) {
    return { reason: 'first or second person', text, dropped: [] };
  }
  if (isWorldKnowledge(body)) return { reason: 'world knowledge', text, dropped: [] };
  // An evaluative adjective in front of a noun ("a beautiful red car") is dropped and the fact kept;
  // an evaluation as the predicate ("The view is stunning") leaves nothing to check.
  const words = text.split(/\s+/);
  const dropped: string[] = [];
  const kept: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = cleanWord(words[k] ?? '');
    // A capitalised word after the first is a name's ("Coyote Ugly", "The Great Gatsby"), not a judgement.
    // "artistic director" is a post, not a judgement.
    const post = w === 'artistic' && /^director/i.test(words[k + 1] ?? '');
    if (!SUBJECTIVE_WORDS.has(w) || post || (k > 0 && /^["“']?[A-Z]/.test(words[k] ?? ''))) {
      kept.push(words[k] ?? '');
      continue;
    }
    const next = words[k + 1];
    // After "be" or a verb of seeming, or before a preposition, the evaluation is the predicate ("can be appealing to
    // collectors", "looks adorable in its costume"): dropping it left "can be to collectors".
    const before = cleanWord(kept[kept.length - 1] ?? '');
    const predicate = BE_FORMS.has(before) || LINKING.test(before) || PREPOSITIONS.has(cleanWord(next ?? ''));
    const attributive = next !== undefined && /^[a-z]/i.test(next) && !/[,.;]$/.test(words[k] ?? '') && !['and', 'or'].includes(cleanWord(next)) && !predicate;
    if (MOOD_WORDS.has(w) || !attributive) return { reason: `subjective ("${w}")`, text, dropped: [] };
    dropped.push(w);
    // "a practical and visually appealing setup" -> "a practical setup", not "a practical and setup"; after a noun
    // the "and" joins things ("his good looks and charming personality").
    if (['and', 'or'].includes(kept[kept.length - 1] ?? '') && ADJECTIVE_END.test(kept[kept.length - 2] ?? '')) kept.pop();
  }
  return { reason: null, text: kept.join(' '), dropped };
}

// "There is a right.", "There is the top left.": a place in the picture with no thing in it. The labeler says yes to
// "Is there a right?" (p_yes 1.0), so a reward that pays accepted claims paid for it: GRPO at lr 3e-4 taught the shapes
// policy to add the sentence (442 of 5,000 sampled answers, docs/studies/online.md). It states nothing to check.
const PLACE_ONLY = /^there (?:is|are) (?:an? |the )?(?:(?:top|bottom|upper|lower|far|centre|center|middle)[ -])?(?:right|left|top|bottom|centre|center|middle|side|front|back|corner|edge|foreground|background)s?\.?$/i;

/** A sentence that names a place and no thing in it ("There is a right."): a fragment. */
export function isPlaceOnly(sentence: string): boolean {
  return PLACE_ONLY.test(normalizeText(sentence).trim());
}

/** Too short to state a fact on its own ("Yes.", "Red."). */
export function isFragment(sentence: string): boolean {
  return normalizeText(sentence).split(/\s+/).filter((w) => /[a-z0-9]/i.test(w)).length < 2;
}

// "Rinse the shrimp under cold water.", "Heat the olive oil in a pan.": a capitalised first word straight before a
// determiner, in a sentence with no finite verb, is an order the tagger read as a noun ("Rinse", "Heat"). Not an
// -ing, -ed or -s word ("Dressing the dog ...", a plural noun), nor a name before an article.
const ORDER = /^(?:[A-Za-z]+:\s+)?([A-Z][a-z]+)(?<!ing|ed|[^s]s)\s+(?:the|a|an|your|some|any|each)\s/;

/** A verbless sentence that opens as an order (see ORDER): the reason is the instruction, not the missing verb. */
export function isOrder(sentence: string): boolean {
  const m = ORDER.exec(normalizeText(sentence));
  // "In an interview with ...", "For a more flavorful ...": a fronted phrase, not an order.
  return m !== null && !PREPOSITIONS.has(m[1]!.toLowerCase()) && !PRONOUNS.has(m[1]!.toLowerCase());
}
