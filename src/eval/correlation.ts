// Rank correlation for the studies (what a judge's score predicts).

/** Average ranks (ties share their mean rank). */
export function ranks(x: readonly number[]): number[] {
  const idx = x.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(x.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    for (let k = i; k <= j; k++) r[idx[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/**
 * Spearman's ρ: Pearson's correlation of the average ranks; null with fewer than 3 points or a constant side.
 * @example spearman([1, 2, 3, 4], [10, 20, 15, 40]) // 0.8
 */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 3) return null;
  const rx = ranks(x);
  const ry = ranks(y);
  const m = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
  const mx = m(rx);
  const my = m(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

