/** Closed word lists the rules divider relies on; kept small and explicit so behaviour is auditable. */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Words that open a noun phrase; a word right after one of these is read as a noun, never a verb. */
export const DETERMINERS = set(`
  a an the this that these those my your his her its our their some any no each every another
  several many few both all either neither much more most multiple various numerous other such
  one two three four five six seven eight nine ten eleven twelve dozens hundreds
`);

/** Number words, so "two dogs" reads as plural and list items get the right copula. */
export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ['no', 0], ['zero', 0], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6],
  ['seven', 7], ['eight', 8], ['nine', 9], ['ten', 10], ['eleven', 11], ['twelve', 12],
]);

/** Prepositions; a verb never directly follows one, and a clause opening with one is an intro phrase. */
export const PREPOSITIONS = set(`
  in on at of to for with by from into onto over under near behind above below between among
  through across along around about against beside besides beneath underneath inside outside
  within without toward towards upon atop past like unlike via throughout next beyond amid
`);

/** Grid and side words; "top left" must not be read as the verb "left". */
export const POSITION_WORDS = set('top bottom middle upper lower far center centre');

/** Subject pronouns and other heads that may start a clause. */
export const PRONOUNS = set(`
  i you he she it we they there this that these those someone somebody something nobody nothing
  none everyone everybody everything anyone anything here
`);

/** Pronouns and plural heads that take a plural (base-form) verb. */
export const PLURAL_HEADS = set(`
  they we you i these those both many several few people children men women feet teeth mice geese
  police cattle data glasses clothes scissors pants jeans trousers
`);

/** Finite auxiliaries and modals that move to the front of a yes/no question. */
export const AUXILIARIES = set(`
  am is are was were can could will would shall should may might must has have had do does did
`);

/** Forms of "be", whose predicates may be bare adjectives or prepositional phrases. */
export const BE_FORMS = set('am is are was were');

/** Modals that are also common nouns ("the trash can is full"). */
export const NOUNLIKE_MODALS = set('can will may must might');

/** Adverbs allowed between an auxiliary and its participle or verb. */
export const AUX_ADVERBS = set(`
  not never already just also always still ever recently clearly currently even only really
  actually probably since later previously
`);

/** Relative pronouns; the first verb after one belongs to the relative clause, not the main clause. */
export const RELATIVES = set('who which that whom whose');

/** Opening discourse markers that carry no content and are dropped before analysis. */
export const DISCOURSE_MARKERS = [
  'additionally', 'also', 'moreover', 'furthermore', 'besides', 'however', 'finally', 'lastly',
  'overall', 'in addition', 'in summary', 'in conclusion', 'in total', 'altogether', 'notably',
  'specifically', 'in general', 'in short', 'to summarize', 'to sum up', 'yes', 'no', 'indeed',
  'first', 'firstly', 'second', 'secondly', 'third', 'thirdly', 'then', 'meanwhile', 'likewise',
  'similarly', 'as well', 'on the other hand', 'in particular', 'interestingly', 'importantly',
  // "But there is no doubt that it is a work of art." says what follows: "It is a work of art."
  'but', 'there is no doubt that', "there's no doubt that",
  // The narrator's look, not the subject's ("Looking at the image, there is a dog." asked "Is looking at the image,
  // there a dog?").
  'looking at the image', 'looking at the picture', 'looking at the photo', 'looking closely', 'upon closer inspection',
  'at first glance', 'judging by the image', 'judging from the image', 'based on the image',
];

/** Verbs (base form) recognised as main verbs; nouns that are also verbs are left out on purpose. */
export const BASE_VERBS = set(`
  hold wear sit stand lie lay walk run play look watch eat drink carry ride drive fly swim hang
  rest lean cover fill show depict display feature contain include have face point smile laugh talk
  read write use make take give open close cook cut pull push throw catch kick hit grab touch reach
  climb jump dance sing work wait sleep place surround border reflect shine glow float grow stretch
  extend cross enter leave follow lead chase feed pet hug kiss brush wash clean paint draw fix
  build sell buy pose gaze stare see bark fall stay keep move turn tower overlook occupy appear
  seem resemble represent portray present illustrate capture do go come get put set bring send hear
  speak say tell think know find lose win meet pay spend teach bite blow break choose dig forget
  freeze hide kneel lend let mean ring rise seek shake shoot shut sink slide spin spread steal
  stick sting strike swing tear understand wake wind beat become bleed breed burn deal dream
  leap sweep weep spit swear want need like love hate prefer share hope try help ask answer call
  cry listen shout roll bounce spill pour serve bake fry stir chop slice peel mix hunt graze roam
  perch crawl hop fetch sniff lick chew swallow breathe blink wave nod pass browse scroll steer
  stop start finish begin end continue remain hover soar glide dive splash skate paddle sail
  explore visit travel arrive depart exit approach gather sip taste smell feel view observe examine
  inspect study learn practice perform act photograph record hike picnic relax lounge recline squat
  crouch bend balance wrap tie fold mount attach connect support decorate adorn dominate flank span
  divide separate indicate suggest advertise showcase live reside belong receive compete marry retire earn
  involve require operate join die
`);

// The tagger's verbs in the answer being divided ("specializes", "focuses"): the list above cannot hold every
// verb of real English, and wink's POS tags know them in context. Set per answer by divideRules (synchronous).
let hinted: ReadonlySet<string> = new Set();

/** Make the tagger's verbs of one answer known to the word-level rules until the next call. */
export function setVerbHints(words: ReadonlySet<string>): void {
  hinted = words;
}

/** A verb in base form or tagged as a verb in this answer ("hold", "specializes"). */
export function isVerbWord(w: string): boolean {
  return BASE_VERBS.has(w) || hinted.has(w);
}

/** Irregular verbs: "base past participle"; the past column drives do-support, the participle the perfect. */
const IRREGULAR_TABLE = `
  be was been | begin began begun | bend bent bent | bite bit bitten | blow blew blown
  break broke broken | bring brought brought | build built built | buy bought bought
  catch caught caught | choose chose chosen | come came come | cut cut cut | dig dug dug
  do did done | draw drew drawn | drink drank drunk | drive drove driven | eat ate eaten
  fall fell fallen | feed fed fed | feel felt felt | fight fought fought | find found found
  fly flew flown | forget forgot forgotten | freeze froze frozen | get got gotten | give gave given
  go went gone | grow grew grown | hang hung hung | have had had | hear heard heard | hide hid hidden
  hit hit hit | hold held held | keep kept kept | kneel knelt knelt | know knew known | lay laid laid
  lead led led | leave left left | lend lent lent | let let let | lie lay lain | light lit lit
  lose lost lost | make made made | meet met met | pay paid paid | put put put | read read read
  ride rode ridden | ring rang rung | rise rose risen | run ran run | say said said | see saw seen
  sell sold sold | send sent sent | set set set | shake shook shaken | shine shone shone
  shoot shot shot | show showed shown | shut shut shut | sing sang sung | sink sank sunk
  sit sat sat | sleep slept slept | slide slid slid | speak spoke spoken | spend spent spent
  spin spun spun | spread spread spread | stand stood stood | steal stole stolen | stick stuck stuck
  sting stung stung | strike struck struck | swim swam swum | swing swung swung | take took taken
  teach taught taught | tear tore torn | tell told told | think thought thought | throw threw thrown
  understand understood understood | wake woke woken | wear wore worn | win won won
  write wrote written | beat beat beaten | become became become | bear bore borne | bleed bled bled
  breed bred bred | burn burnt burnt | deal dealt dealt | leap leapt leapt | mean meant meant
  seek sought sought | sweep swept swept | weep wept wept | spit spat spat | swear swore sworn
`;

const irregularRows = IRREGULAR_TABLE.split(/[|\n]/)
  .filter((row) => row.trim() !== '')
  .map((row) => row.trim().split(/\s+/));

/** Irregular simple-past form -> base form ("sat" -> "sit"). */
export const IRREGULAR_PAST: ReadonlyMap<string, string> = new Map(
  irregularRows.filter((r) => r[0] !== 'be').map((r) => [r[1] ?? '', r[0] ?? '']),
);

/** Base form -> irregular simple past ("win" -> "won"). */
export const IRREGULAR_PAST_OF: ReadonlyMap<string, string> = new Map(irregularRows.map((r) => [r[0] ?? '', r[1] ?? '']));

/** Irregular past participles ("eaten", "been") that signal a perfect after has/have/had. */
export const PARTICIPLES = set(irregularRows.map((r) => r[2] ?? '').join(' ') + ' gotten got born');

/** Words ending in -ed that are not regular past tenses. */
export const NOT_PAST_ED = set(`
  red bed shed sled seed need speed weed reed deed bleed breed feed hundred sacred naked wicked
  rugged jagged ragged crooked beloved kindred shred embed steed tweed greed creed wed bred fled
  sped led fed
`);

/** Subjective adjectives: a sentence using one is an opinion, not a checkable fact. */
export const SUBJECTIVE_WORDS = set(`
  beautiful beautifully stunning lovely gorgeous nice pleasant amazing wonderful breathtaking
  charming delightful captivating elegant cute adorable serene peaceful cozy picturesque impressive
  interesting fascinating boring ugly attractive appealing harmonious pleasing aesthetically
  tranquil whimsical inviting magnificent majestic awesome fantastic great marvelous splendid
  exquisite enchanting idyllic dreamy mesmerizing striking vivid evocative artistic atmosphere
  ambiance ambience vibe mood evokes conveys visually
`);

/** Phrases that mark a hedge, a guess or a personal view rather than a visual fact. */
export const HEDGE_PATTERNS: readonly RegExp[] = [
  /^(?:[^,]{0,60},\s*)?(?:i|we)\s+(?:think|believe|feel|guess|suppose|assume|suspect|imagine|would say|'d say)\b/i,
  /^(?:in my (?:opinion|view)|personally|to me|from my perspective)\b/i,
  /^it\s+(?:seems|appears|looks)\b/i,
  // "seems" as "appears": a hedge only before "to" (APPEARANCE in filters.ts lets "The girl seems to be smiling" through,
  // a thing's look) or alone ("It seems so").
  /\b(?:seems? to|seems?(?! be\b)|seemingly|appears? to|looks? like|might|may|perhaps|maybe|probably|possibly|presumably|likely|unlikely)\b/i,
  /\bcould (?:be|have been)\b/i,
  /\b(?:not sure|unsure|unclear|hard to (?:say|tell)|difficult to (?:say|tell|determine))\b/i,
  /\b(?:cannot determine|can't tell|cannot tell)\b/i,
  // "One possibility is that he is preparing to pack his suitcase": a guess named as one.
  /^(?:one|another|a) (?:possibility|possible explanation|explanation|reason) (?:is|could be|might be) that\b/i,
];

/** Sentences about the conversation rather than the image. */
export const META_PATTERNS: readonly RegExp[] = [
  /^(?:let me|feel free|i hope|i am sorry|i'm sorry|sorry|as an ai|please|note that|if you)\b/i,
  /^(?:here is|here are|here's)\s+(?:a|an|the)?\s*(?:description|summary|list|breakdown|answer)\b/i,
];

/** Lower-case particles inside personal and foreign names ("Thijs van Leer", "Osama bin Laden", "El Club de la
 * Comedia"): one list for every rule that reads a name across them. */
export const NAME_PARTICLES: ReadonlySet<string> = set('de del della delle degli dei la le les los las da das di do dos von van der den y e al el bin ibn');
