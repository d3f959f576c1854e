// Seeded randomness for the method's random choices, so a round can be reproduced exactly.

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/**
 * A 32-bit hash of the given parts (FNV-1a over UTF-8, then a murmur3 finaliser), for seeding an Rng.
 * Each part is length-prefixed so ('ab', 'c') and ('a', 'bc') differ.
 * @example hashSeed(42, 'prompt-7') // the same uint32 on every run and platform
 */
export function hashSeed(...parts: (string | number)[]): number {
  const text = parts.map((p) => { const s = String(p); return `${s.length}:${s}`; }).join('|');
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  // FNV-1a alone mixes the last bytes poorly; seeds that differ by one digit should not give near streams.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * mulberry32: a small, fast PRNG with a 32-bit state; plenty for sampling a few pairs.
 * @example const rng = createRng(hashSeed(1)); rng() // a number in [0, 1)
 */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * k items drawn without replacement (partial Fisher–Yates on a copy), in draw order; all of them, shuffled, when k ≥ n.
 * Stable given the same input order and rng state.
 * @example sampleWithoutReplacement(['a', 'b', 'c', 'd'], 2, createRng(7)) // two distinct items
 */
export function sampleWithoutReplacement<T>(items: readonly T[], k: number, rng: Rng): T[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`sampleWithoutReplacement: k must be a non-negative integer, got ${k}.`);
  const a = items.slice();
  const m = Math.min(k, a.length);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(rng() * (a.length - i));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a.slice(0, m);
}
