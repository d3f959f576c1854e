import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { createRng } from '../../src/feedback/rng.js';
import {
  COLORS,
  POSITIONS,
  SHAPES,
  SIZES,
  checkStatement,
  evaluate,
  parseStatement,
  renderStatement,
  type Description,
  type QuantifiedStatement,
  type ShapeObject,
  type Statement,
  type Truth,
} from '../../src/shapes/index.js';

describe('parseStatement: structured form', () => {
  const cases: [string, Statement][] = [
    ['There is a red circle.', { kind: 'exists', mood: 'claim', desc: { shape: 'circle', color: 'red' } }],
    [
      'There is a large blue square in the top right in the image.',
      { kind: 'exists', mood: 'claim', desc: { shape: 'square', color: 'blue', size: 'large', position: 'top right' } },
    ],
    ['There is a shape.', { kind: 'exists', mood: 'claim', desc: {} }],
    ['There is no star.', { kind: 'absent', mood: 'claim', desc: { shape: 'star' } }],
    ['There are no green shapes.', { kind: 'absent', mood: 'claim', desc: { color: 'green' } }],
    ['There are zero stars.', { kind: 'absent', mood: 'claim', desc: { shape: 'star' } }],
    ["There aren't any stars.", { kind: 'absent', mood: 'claim', desc: { shape: 'star' } }],
    ['There is one red shape.', { kind: 'count', mood: 'claim', desc: { color: 'red' }, n: 1 }],
    ['There are four shapes in the image.', { kind: 'count', mood: 'claim', desc: {}, n: 4 }],
    ['There are 3 small triangles.', { kind: 'count', mood: 'claim', desc: { shape: 'triangle', size: 'small' }, n: 3 }],
    [
      'The large circle is red.',
      {
        kind: 'attribute',
        mood: 'claim',
        desc: { shape: 'circle', size: 'large' },
        negated: false,
        predicate: { attr: 'color', value: 'red' },
      },
    ],
    [
      'The red circle is not in the top left.',
      {
        kind: 'attribute',
        mood: 'claim',
        desc: { shape: 'circle', color: 'red' },
        negated: true,
        predicate: { attr: 'position', value: 'top left' },
      },
    ],
    [
      'Is the star small?',
      { kind: 'attribute', mood: 'question', desc: { shape: 'star' }, negated: false, predicate: { attr: 'size', value: 'small' } },
    ],
    [
      'Is the star in the center?',
      {
        kind: 'attribute',
        mood: 'question',
        desc: { shape: 'star' },
        negated: false,
        predicate: { attr: 'position', value: 'center' },
      },
    ],
    [
      'Is the star in the center large?',
      {
        kind: 'attribute',
        mood: 'question',
        desc: { shape: 'star', position: 'center' },
        negated: false,
        predicate: { attr: 'size', value: 'large' },
      },
    ],
    [
      'The red shape is a star.',
      { kind: 'attribute', mood: 'claim', desc: { color: 'red' }, negated: false, predicate: { attr: 'shape', value: 'star' } },
    ],
    ['Is there an orange star?', { kind: 'exists', mood: 'question', desc: { shape: 'star', color: 'orange' } }],
    ['Are there no stars?', { kind: 'absent', mood: 'question', desc: { shape: 'star' } }],
    ['Is there no star? Please answer yes or no.', { kind: 'absent', mood: 'question', desc: { shape: 'star' } }],
    ['Are there two stars?', { kind: 'count', mood: 'question', desc: { shape: 'star' }, n: 2 }],
    [
      'There is a red circle, an orange star and a green square.',
      {
        kind: 'conjunction',
        mood: 'claim',
        items: [
          { kind: 'exists', mood: 'claim', desc: { shape: 'circle', color: 'red' } },
          { kind: 'exists', mood: 'claim', desc: { shape: 'star', color: 'orange' } },
          { kind: 'exists', mood: 'claim', desc: { shape: 'square', color: 'green' } },
        ],
      },
    ],
  ];
  it.each(cases)('%j', (text, expected) => {
    expect(parseStatement(text)).toEqual(expected);
  });

  it.each(['The sky is blue.', 'There is a dog.', '', 'Is it?', 'There is a red circle. There is a star.'])(
    'null for %j',
    (text) => {
      expect(parseStatement(text)).toBeNull();
    },
  );
});

describe('renderStatement', () => {
  it.each([
    ['There is an orange star.', 'There is an orange star.'],
    ['there are NO stars', 'There is no star.'],
    ['There are 2 large shapes in the image', 'There are two large shapes.'],
    ['There is 1 red circle in the centre', 'There is one red circle in the center.'],
    ['Are there any circles?', 'Is there a circle?'],
    ['the circle in the top left isn\'t red', 'The circle in the top left is not red.'],
    ['is the circle in the middle a star', 'Is the circle in the center a star?'],
    ['There is a red circle, and a blue star', 'There is a red circle and a blue star.'],
  ])('%j → %j', (text, canonical) => {
    const s = parseStatement(text);
    expect(s).not.toBeNull();
    expect(renderStatement(s as Statement)).toBe(canonical);
  });
});

// ---------------------------------------------------------------- randomized properties

const rng = (seed: number): (() => number) => createRng(seed);

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

function randomTruth(r: () => number): Truth {
  const n = 1 + Math.floor(r() * 4);
  const cells = [...POSITIONS].sort(() => r() - 0.5).slice(0, n);
  const objects: ShapeObject[] = cells.map((position) => ({
    shape: pick(r, SHAPES),
    color: pick(r, COLORS),
    size: pick(r, SIZES),
    position,
  }));
  return { objects };
}

function randomDesc(r: () => number, truth: Truth): Description {
  const src = r() < 0.7 ? pick(r, truth.objects) : undefined;
  const d: Description = {};
  if (r() < 0.7) d.shape = src && r() < 0.8 ? src.shape : pick(r, SHAPES);
  if (r() < 0.6) d.color = src && r() < 0.8 ? src.color : pick(r, COLORS);
  if (r() < 0.4) d.size = src && r() < 0.8 ? src.size : pick(r, SIZES);
  if (r() < 0.3) d.position = src && r() < 0.8 ? src.position : pick(r, POSITIONS);
  return d;
}

function randomQuantified(r: () => number, truth: Truth, mood: 'claim' | 'question'): QuantifiedStatement {
  const desc = randomDesc(r, truth);
  const k = r();
  if (k < 0.4) return { kind: 'exists', mood, desc };
  if (k < 0.6) return { kind: 'absent', mood, desc };
  return { kind: 'count', mood, desc, n: 1 + Math.floor(r() * 4) };
}

function randomStatement(r: () => number, truth: Truth): Statement {
  const mood = r() < 0.5 ? 'claim' : 'question';
  const k = r();
  if (k < 0.45) return randomQuantified(r, truth, mood);
  if (k < 0.55) {
    const n = 2 + Math.floor(r() * 3);
    return { kind: 'conjunction', mood, items: Array.from({ length: n }, () => randomQuantified(r, truth, mood)) };
  }
  const attr = pick(r, ['color', 'size', 'position', 'shape'] as const);
  const predicate =
    attr === 'color'
      ? { attr, value: pick(r, COLORS) }
      : attr === 'size'
        ? { attr, value: pick(r, SIZES) }
        : attr === 'position'
          ? { attr, value: pick(r, POSITIONS) }
          : { attr, value: pick(r, SHAPES) };
  return { kind: 'attribute', mood, desc: randomDesc(r, truth), negated: r() < 0.3, predicate };
}

/** An independent oracle: brute force over objects, written without the checker's helpers. */
function oracle(truth: Truth, s: Statement): string {
  const fits = (o: ShapeObject, d: Description): boolean =>
    (Object.keys(d) as (keyof Description)[]).every((k) => d[k] === undefined || o[k] === d[k]);
  const n = (d: Description): number => truth.objects.reduce((acc, o) => acc + (fits(o, d) ? 1 : 0), 0);
  switch (s.kind) {
    case 'exists':
      return n(s.desc) >= 1 ? 'true' : 'false';
    case 'absent':
      return n(s.desc) === 0 ? 'true' : 'false';
    case 'count':
      return n(s.desc) === s.n ? 'true' : 'false';
    case 'conjunction': {
      const vs = s.items.map((i) => oracle(truth, i));
      return vs.some((v) => v === 'false') ? 'false' : vs.some((v) => v === 'unknown') ? 'unknown' : 'true';
    }
    case 'attribute': {
      const refs = truth.objects.filter((o) => fits(o, s.desc));
      if (refs.length === 0) return 'false';
      const results = new Set(refs.map((o) => (o[s.predicate.attr] === s.predicate.value) !== s.negated));
      return results.size === 2 ? 'unknown' : results.has(true) ? 'true' : 'false';
    }
  }
}

/**
 * Checks for the randomized loops: each failed one is kept with its sentence, and the test asserts the list is empty
 * once, at the end. A vitest `expect` per check cost more than the parsing (about 80,000 of them in these two tests).
 */
function checks() {
  const failed: string[] = [];
  const show = (x: unknown) => JSON.stringify(x);
  return {
    failed,
    same(got: unknown, want: unknown, text: string, what: string) {
      if (!isDeepStrictEqual(got, want)) failed.push(`${what} of ${show(text)}: got ${show(got)}, want ${show(want)}`);
    },
  };
}

describe('randomized properties', () => {
  it('render → parse is the identity and checkStatement agrees with a brute-force oracle (5000 statements)', () => {
    const r = rng(20240607);
    const seen = { true: 0, false: 0, unknown: 0 };
    const c = checks();
    for (let i = 0; i < 5000; i++) {
      const truth = randomTruth(r);
      const s = randomStatement(r, truth);
      const text = renderStatement(s);
      c.same(parseStatement(text), s, text, 'parseStatement');
      const expected = oracle(truth, s);
      c.same(evaluate(truth, s), expected, text, 'evaluate');
      c.same(checkStatement(truth, text), expected, text, 'checkStatement');
      c.same(checkStatement(truth, text.toUpperCase().replace(/\s/g, '  ')), expected, text, 'checkStatement (upper case, doubled spaces)');
      seen[expected as keyof typeof seen]++;
    }
    expect(c.failed).toEqual([]);
    expect(seen.true).toBeGreaterThan(500);
    expect(seen.false).toBeGreaterThan(500);
    expect(seen.unknown).toBeGreaterThan(10);
  });

  it('never throws on word salad or mutated sentences, and any parse is checked like its rendering', () => {
    const r = rng(7);
    const words = [
      ...SHAPES, ...SHAPES.map((s) => `${s}s`), ...COLORS, ...SIZES, ...POSITIONS.flatMap((p) => p.split(' ')),
      'there', 'is', 'are', 'the', 'a', 'an', 'no', 'not', 'one', 'two', '3', 'in', 'image', 'of', 'and', ',', '.',
      '?', '!', 'shape', 'shapes', 'corner', "isn't", "there's", 'any', 'please', 'answer', 'yes', 'or', 'dog', '"',
      '-', '\u00e9', '\n', '', '  ',
    ];
    let parsed = 0;
    const c = checks();
    for (let i = 0; i < 20000; i++) {
      const truth = randomTruth(r);
      let tokens: string[];
      if (i % 2 === 0) {
        tokens = Array.from({ length: 1 + Math.floor(r() * 9) }, () => pick(r, words));
      } else {
        // a valid sentence with one to three random edits
        tokens = renderStatement(randomStatement(r, truth)).split(' ');
        for (let e = 1 + Math.floor(r() * 3); e > 0; e--) {
          const at = Math.floor(r() * tokens.length);
          const op = r();
          if (op < 0.3) tokens.splice(at, 1);
          else if (op < 0.6) tokens.splice(at, 0, pick(r, words));
          else if (op < 0.8) tokens[at] = pick(r, words);
          else tokens.splice(at, 0, tokens[at] ?? '');
        }
      }
      const text = tokens.join(r() < 0.9 ? ' ' : '');
      const s = parseStatement(text);
      const v = checkStatement(truth, text);
      c.same(['true', 'false', 'unknown'].includes(v), true, text, 'a verdict');
      if (s !== null) {
        parsed++;
        c.same(parseStatement(renderStatement(s)), s, text, 'parseStatement of the rendering');
        c.same(checkStatement(truth, renderStatement(s)), v, text, 'checkStatement of the rendering');
        c.same(v, oracle(truth, s), text, 'the oracle');
      } else c.same(v, 'unknown', text, 'checkStatement of an unparsed sentence');
    }
    expect(c.failed).toEqual([]);
    expect(parsed).toBeGreaterThan(200);
  });
});
