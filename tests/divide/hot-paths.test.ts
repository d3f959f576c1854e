// The divider's hot-path helpers (issue 29's speed pass) stand in for built-ins and regexes: they must give exactly
// what those gave, or the divisions change.
import { describe, expect, it } from 'vitest';
import { flatMapOf, through } from '../../src/divide/arrays.js';
import { cleanWord, isSpace, tokenize } from '../../src/divide/text.js';

describe('flatMapOf and through', () => {
  it('give what Array.prototype.flatMap gives, with the same arguments', () => {
    const xs = ['a b', '', 'c d e'];
    const seen: [string, number, readonly string[]][] = [];
    const split = (s: string, i: number, all: readonly string[]): string[] => {
      seen.push([s, i, all]);
      return s === '' ? [] : s.split(' ');
    };
    expect(flatMapOf(xs, split)).toEqual(xs.flatMap((s) => (s === '' ? [] : s.split(' '))));
    expect(seen.map(([s, i, all]) => [s, i, all === xs])).toEqual([['a b', 0, true], ['', 1, true], ['c d e', 2, true]]);
    const twice = (s: string): string[] => [s, s];
    const words = (s: string): string[] => s.split(',');
    expect(through(['a,b', 'c'], words, twice)).toEqual(['a,b', 'c'].flatMap(words).flatMap(twice));
  });
});

describe('isSpace and tokenize', () => {
  it('isSpace reads every UTF-16 code unit as /\\s/ does', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  it('tokenize splits as split(/\\s+/) did, on odd whitespace too', () => {
    const texts = ['  There is\ta red\u00a0circle,\n\nand a "star".  ', '', '   ', 'one', 'a\u2028b\ufeffc\u3000d', 'Zelma\u2009Smith'];
    for (const text of texts) {
      const old = text.split(/\s+/).filter((r) => r.length > 0).map((raw) => ({ raw, word: cleanWord(raw) }));
      expect(tokenize(text)).toEqual(old);
    }
  });

  it('cleanWord lower-cases and strips edge punctuation, plain words or not', () => {
    expect(['red', "o'clock", 'old-fashioned', 'a', '42'].map(cleanWord)).toEqual(['red', "o'clock", 'old-fashioned', 'a', '42']);
    expect(['Red,', '"Star."', "'tis", '-a', 'a-', '(1993)'].map(cleanWord)).toEqual(['red', 'star', 'tis', 'a', 'a', '1993']);
  });
});
