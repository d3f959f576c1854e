import { isLong } from './long.js';

/**
 * Array helpers for the divider's hot paths. V8's built-in `flatMap` is not inlined and takes a generic path: in
 * one run on this machine it cost about 10x a plain loop over the same short arrays, and the rules chain it on
 * every piece of every sentence (issue 29, the speed pass).
 */

/**
 * `xs.flatMap(fn)` as a plain loop, with the same arguments (item, index, array) and the same result for callbacks
 * that return arrays.
 * @example flatMapOf(['a b', 'c'], (s) => s.split(' ')) // ['a', 'b', 'c']
 */
export function flatMapOf<T, U>(xs: readonly T[], fn: (x: T, i: number, all: readonly T[]) => readonly U[]): U[] {
  const out: U[] = [];
  for (let i = 0; i < xs.length; i++) {
    const r = fn(xs[i]!, i, xs);
    for (let k = 0; k < r.length; k++) out.push(r[k]!);
  }
  return out;
}

/**
 * Each step applied to every item of the previous step's result, flattened: `through(xs, f, g)` is
 * `xs.flatMap(f).flatMap(g)`.
 * @example through(['a,b'], (s) => s.split(','), (s) => [s, s]) // ['a', 'a', 'b', 'b']
 */
export function through<T>(xs: readonly T[], ...steps: ((x: T, i: number, all: readonly T[]) => readonly T[])[]): T[] {
  let cur = xs as T[];
  for (const step of steps) cur = flatMapOf(cur, step);
  return cur === xs ? [...xs] : cur;
}

/**
 * `through(xs, ...steps)` for steps that return a claim of 15 words or fewer alone and unchanged: `xs` itself when no
 * item is long (the steps would change nothing), without calling them.
 * @example longOnly(['A short claim.'], (s) => [s, s]) // ['A short claim.']
 */
export function longOnly(xs: string[], ...steps: ((x: string, i: number, all: readonly string[]) => readonly string[])[]): string[] {
  return xs.some(isLong) ? through(xs, ...steps) : xs;
}
