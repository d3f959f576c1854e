// rlaifv's library API. The CLI is built on these; nothing here imports from cli/.
export { loadConfig, configHash, ConfigError, PACKAGE_ROOT, type LoadedConfig, type ConfigOverrides } from './config/load.js';
export { configSchema, type Config, type ModelBackend } from './config/schema.js';
export { readPrompts, type InputPrompt, type InputProblem, type Turn } from './input/prompts.js';
export { readLlavaPrompts } from './input/llava.js';
export {
  STAGES,
  createBackends,
  createDivider,
  ingestPrompts,
  runStages,
  runRound,
  selectRound,
  InputError,
  type Backends,
  type RoundRun,
  type RoundChoice,
  type StageName,
} from './pipeline/round.js';
export { previewClaims, divideLines, readLines, parseClaimsLine, type ClaimsLine, type ClaimsSummary } from './pipeline/claims-preview.js';
export { type StageResult } from './stages/context.js';
export { silentProgress, type Progress } from './progress.js';
export { openDb, roundStats, latestRound, getRound, type Db, type RoundRow, type RoundStats } from './store/index.js';
export type { Generator, Divider, Labeler, GenerateRequest, GenerateResult, LabelResult, DivideOutput } from './backends/types.js';
export { LlavaModel, readImage } from './backends/local/llava.js';
export { divideRules, claimToQuestion } from './divide/rules.js';
export * as feedback from './feedback/index.js';
export * as shapes from './shapes/index.js';
export { readInput, inputFormatFor, INPUT_FORMATS, type InputFormat, type InputReader } from './input/formats.js';
export type { SequenceLogprob, SequenceScoreItem, SequenceScorer } from './backends/types.js';
export { LocalSequenceScorer } from './backends/local/index.js';
export { OpenAISequenceScorer } from './backends/openai/sequence-scorer.js';
export { dpoReward, dpoRewards, bestIndex, REWARD_VARIANTS, type RewardVariant, type AnswerReward, type DpoRewardSettings } from './methods/dpo-reward.js';
export { runBestOfN, bestOfOne, BON_DEFAULTS, type BonOptions, type BonSettings, type BonRow, type BonAnswer, type BonSummary, type BonBackends } from './pipeline/bon.js';
