// The pure method (REFERENCE §3–5): no I/O, only the paper's rules.

export * from './yes-no.js';
export * from './verdict.js';
export * from './scores.js';
export * from './words.js';
export * from './rng.js';
export * from './pairs.js';
export * from './length-balance.js';
