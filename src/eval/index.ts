// Feedback quality measured against the shapes world's truth (`rlaifv eval`): pure figures plus one store reader.
export * from './types.js';
export * from './truth.js';
export * from './pairs.js';
export * from './metrics.js';
export * from './report.js';
export * from './load.js';
export * from './render.js';
export * from './policy.js';
export * from './policy-report.js';
export * from './truth-free.js';
export * from './claims.js';
export * from './runs/ablation.js';
export * from '../feedback/teacher.js';
export * from './correction-metrics.js';
export * from './runs/correction.js';
export * from './tools.js';
