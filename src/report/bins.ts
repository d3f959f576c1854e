// Counting values into histogram bins for the report's charts.

/** A histogram: one label and one count per bin, in order. */
export interface Histogram {
  labels: string[];
  counts: number[];
}

/**
 * Counts whole numbers ≥ 0 into one bin per value from 0 to the largest seen (at least `min` bins).
 * @example countInts([0, 2, 2]) // { labels: ['0', '1', '2'], counts: [1, 0, 2] }
 */
export function countInts(values: readonly number[], min = 1): Histogram {
  const n = Math.max(min, values.reduce((m, v) => Math.max(m, v + 1), 0));
  const counts = new Array<number>(n).fill(0);
  for (const v of values) counts[v]!++;
  return { labels: counts.map((_, i) => String(i)), counts };
}

/**
 * Which of `bins` equal bins of [0, 1] a share falls in; 1 goes in the last. The epsilon keeps 0.3 (0.3 × 10 =
 * 3.0000000000000004 but 0.7 × 10 = 7.000000000000001, and 0.29 × 100 = 28.999999999999996) on the side it names.
 * @example shareBin(0.3, 10) // 3
 */
export function shareBin(x: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor(x * bins + 1e-9)));
}

/**
 * Labels of `bins` equal bins of [0, 1], as percentages when `percent`.
 * @example shareLabels(4, true) // ['0–25%', '25–50%', '50–75%', '75–100%']
 */
export function shareLabels(bins: number, percent: boolean): string[] {
  const fmt = (k: number) => (percent ? String(Math.round((k / bins) * 100)) : (k / bins).toFixed(2));
  return Array.from({ length: bins }, (_, k) => `${fmt(k)}–${fmt(k + 1)}${percent ? '%' : ''}`);
}

/**
 * Counts shares in [0, 1] into `bins` equal bins.
 * @example countShares([0, 0.5, 1], 2, true) // { labels: ['0–50%', '50–100%'], counts: [1, 2] }
 */
export function countShares(values: readonly number[], bins: number, percent: boolean): Histogram {
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[shareBin(v, bins)]!++;
  return { labels: shareLabels(bins, percent), counts };
}

/**
 * Equal-width bins of whole numbers ≥ 0 shared by several series (at most `maxBins` bins), one count array each.
 * @example countWordBins([[1, 12], [3]], 2) // { labels: ['0–6', '7–13'], series: [[1, 1], [1, 0]] }
 */
export function countWordBins(series: readonly (readonly number[])[], maxBins = 20): { labels: string[]; series: number[][] } {
  const max = series.reduce((m, s) => s.reduce((a, v) => Math.max(a, v), m), 0);
  const width = Math.max(1, Math.ceil((max + 1) / maxBins));
  const n = Math.floor(max / width) + 1;
  const labels = Array.from({ length: n }, (_, k) => (width === 1 ? String(k) : `${k * width}–${k * width + width - 1}`));
  return {
    labels,
    series: series.map((values) => {
      const counts = new Array<number>(n).fill(0);
      for (const v of values) counts[Math.floor(v / width)]!++;
      return counts;
    }),
  };
}
