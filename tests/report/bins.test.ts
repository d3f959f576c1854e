// The report's pure helpers: histogram bins, HTML escaping, JSON inside a script element, prompt kinds.
import { describe, expect, test } from 'vitest';
import { countInts, countShares, countWordBins, shareBin, shareLabels } from '../../src/report/bins.js';
import { escapeHtml, jsonForScript } from '../../src/report/html.js';
import { promptKind } from '../../src/report/data.js';

describe('report bins', () => {
  test('whole numbers get one bin per value from 0', () => {
    expect(countInts([0, 2, 2])).toEqual({ labels: ['0', '1', '2'], counts: [1, 0, 2] });
    expect(countInts([])).toEqual({ labels: ['0'], counts: [0] });
  });

  test('shares land in the bin their decimal value names; 1 goes in the last', () => {
    expect([0, 0.1, 0.3, 0.7, 0.29, 0.999, 1].map((x) => shareBin(x, 10))).toEqual([0, 1, 3, 7, 2, 9, 9]);
    expect(shareBin(0.29, 100)).toBe(29);
    expect(shareLabels(4, true)).toEqual(['0–25%', '25–50%', '50–75%', '75–100%']);
    expect(shareLabels(2, false)).toEqual(['0.00–0.50', '0.50–1.00']);
    expect(countShares([0, 0.5, 1], 2, true).counts).toEqual([1, 2]);
  });

  test('word counts share equal bins across series, at most maxBins', () => {
    expect(countWordBins([[1, 12], [3]], 2)).toEqual({ labels: ['0–6', '7–13'], series: [[1, 1], [1, 0]] });
    const many = countWordBins([Array.from({ length: 500 }, (_, i) => i)], 20);
    expect(many.labels.length).toBeLessThanOrEqual(20);
    expect(many.series[0]!.reduce((a, b) => a + b, 0)).toBe(500);
    expect(countWordBins([[], []])).toEqual({ labels: ['0'], series: [[0], [0]] });
  });
});

describe('report escaping', () => {
  test('HTML text and attributes', () => {
    expect(escapeHtml(`<b>"x" & 'y'</b>`)).toBe('&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;');
  });

  test('JSON in a script element has no "<" and parses back unchanged', () => {
    const v = { a: '</script><!-- <script>', b: 'line\u2028sep\u2029', c: [1, null] };
    const s = jsonForScript(v);
    expect(s).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(s)).toEqual(v);
  });
});

describe('prompt kinds', () => {
  test('meta.kind when a non-empty string, else "other"', () => {
    expect(promptKind('{"kind":"counting","split":"dev"}')).toBe('counting');
    for (const m of [null, '{}', '{"kind":""}', '{"kind":3}', 'null', '{"kind":"  "}']) expect(promptKind(m)).toBe('other');
  });
});
