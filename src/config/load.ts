// Loading a config: JSON file (or the embedded default) -> zod -> paths resolved -> CLI overrides.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.js';
import { PAIR_STRATEGIES } from '../feedback/pairs.js';
import { z } from 'zod';
import { configSchema, routingTable, type Config } from './schema.js';

/** The package root: where the embedded default's data/ and models/ live. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Configuration mistakes (exit 2): the one error module's, re-exported for the config's callers. */
export { ConfigError };

function allowedKeys(schema: z.ZodType, at: PropertyKey[]): string[] | null {
  let s: any = schema;
  for (const key of at) {
    while (s?.def?.innerType) s = s.def.innerType; // defaults, optionals, nullables
    if (s?.def?.type === 'union') s = s.def.options.find((o: any) => o?.shape && key in o.shape) ?? s.def.options[0];
    s = s?.shape?.[key as string];
  }
  while (s?.def?.innerType) s = s.def.innerType;
  // A record keyed by an enum (label.routing's claim forms) allows the enum's values.
  const rec = (s?.def?.type === 'union' ? s.def.options : [s]).find((o: any) => o?.def?.type === 'record');
  if (Array.isArray(rec?.def?.keyType?.options)) return rec.def.keyType.options as string[];
  if (s?.def?.type === 'union') return [...new Set(s.def.options.flatMap((o: any) => Object.keys(o?.shape ?? {})))] as string[];
  return s?.shape ? Object.keys(s.shape) : null;
}

/** Turns zod issues into one readable message per field. */
export function formatIssues(source: string, err: z.ZodError): string {
  const lines = err.issues.map((i) => {
    const field = i.path.length ? i.path.join('.') : '(top level)';
    if (i.code === 'unrecognized_keys') {
      const allowed = allowedKeys(configSchema, i.path);
      return `unknown key ${i.keys.map((k) => `"${k}"`).join(', ')} in ${field}${allowed ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    return `field ${field}: ${i.message}`;
  });
  return `Invalid config ${source}:\n  - ${lines.join('\n  - ')}`;
}

/** Settings given on the command line; they win over the file. */
export interface ConfigOverrides {
  prompts?: string;
  db?: string;
  seed?: number;
  workers?: number;
  chunkPrompts?: number;
  policy?: string;
  samples?: number;
  onError?: 'stop' | 'skip';
  inputFormat?: Config['input_format'];
  columns?: Config['input_columns'];
}

/** A loaded config with where it came from. */
export interface LoadedConfig {
  config: Config;
  source: string;
}

/** Reads and validates a config file (or the embedded default when `file` is undefined), then applies overrides. */
export function loadConfig(file: string | undefined, o: ConfigOverrides = {}, cwd = process.cwd()): LoadedConfig {
  let raw: unknown = {};
  let base = PACKAGE_ROOT;
  const source = file ?? '(embedded default)';
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError(`Cannot read config ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`Config ${file} is not valid JSON: ${(e as Error).message}`);
    }
    base = path.dirname(path.resolve(cwd, file));
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(formatIssues(source, parsed.error));
  const c = parsed.data;
  // Paths in a file are relative to the file; in the embedded default, to the package; on the command line, to cwd.
  const rel = (p: string, from: string) => (/^[a-z]+:\/\//i.test(p) ? p : path.resolve(from, p));
  // A default the file does not set resolves as in the embedded default (package data and models, db under cwd).
  const r = (raw ?? {}) as Record<string, any>;
  const given = (...keys: string[]) => keys.reduce<any>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), r) !== undefined;
  c.prompts = o.prompts ? rel(o.prompts, cwd) : rel(c.prompts, given('prompts') ? base : PACKAGE_ROOT);
  c.db = o.db ? rel(o.db, cwd) : file && given('db') ? rel(c.db, base) : rel(c.db, cwd);
  const l = c.loop;
  l.train_prompts = rel(l.train_prompts, given('loop', 'train_prompts') ? base : PACKAGE_ROOT);
  l.eval_prompts = rel(l.eval_prompts, given('loop', 'eval_prompts') ? base : PACKAGE_ROOT);
  l.select_prompts = rel(l.select_prompts, given('loop', 'select_prompts') ? base : PACKAGE_ROOT);
  if (l.ablation_prompts !== null) l.ablation_prompts = rel(l.ablation_prompts, base);
  if (l.checkpoints !== null) l.checkpoints = rel(l.checkpoints, base);
  if (l.deploy) l.deploy.start_checkpoint = rel(l.deploy.start_checkpoint, base);
  for (const [role, b] of [['generate', c.generate.backend], ['label', c.label.backend]] as const) {
    if (b.type === 'local') b.model = rel(b.model, given(role, 'backend', 'model') ? base : PACKAGE_ROOT);
  }
  resolveTools(c, source, base);
  if (c.serve.image_root !== null) c.serve.image_root = rel(c.serve.image_root, base);
  const dr = c.feedback.dpo_reward;
  if (dr.reference.type === 'local') dr.reference.model = rel(dr.reference.model, given('feedback', 'dpo_reward', 'reference') ? base : PACKAGE_ROOT);
  if (dr.policy?.type === 'local') dr.policy.model = rel(dr.policy.model, base);
  const g = c.feedback.gate;
  if (g.threshold !== null && g.judge === null && c.feedback.method !== 'divide') {
    throw new ConfigError(
      `${source}: feedback.gate.threshold: without a judge model the gate judges a pair by its claims' p(yes)/p(no), which only ` +
        `feedback.method "divide" has (got "${c.feedback.method}"); set feedback.gate.judge to a served model, the threshold to null, or use divide.`,
    );
  }
  if (g.judge !== null && g.threshold === null) {
    throw new ConfigError(`${source}: feedback.gate.judge: a judge model needs feedback.gate.threshold (0–1; a pair is kept when score/10 reaches it).`);
  }
  if (!Object.hasOwn(PAIR_STRATEGIES, c.pair.strategy)) {
    throw new ConfigError(`${source}: pair.strategy: "${c.pair.strategy}" is not a pair strategy; use one of ${Object.keys(PAIR_STRATEGIES).map((k) => `"${k}"`).join(', ')}.`);
  }
  if (c.pair.corrections.length && c.feedback.method !== 'divide') {
    throw new ConfigError(`${source}: pair.corrections: an editor rewrites the sentences whose claims the labeler rejected, which only feedback.method "divide" has (got "${c.feedback.method}").`);
  }
  if (!c.pair.rank_pairs && !c.pair.corrections.length) {
    throw new ConfigError(`${source}: pair.rank_pairs: false leaves a round with no pairs at all; give pair.corrections an editor ("drop", "overwrite") or set rank_pairs to true.`);
  }
  if (c.pair.corrections.length && g.judge !== null) {
    throw new ConfigError(`${source}: pair.corrections: the judge-model gate (feedback.gate.judge) does not rate correction pairs yet; use divide's own gate or no gate with corrections.`);
  }
  if (c.pair.corrections.includes('llm') && c.pair.rewriter === null) {
    throw new ConfigError(`${source}: pair.corrections: the "llm" editor needs pair.rewriter (a served model: {"backend": {"type": "openai", "model": ..., "base_urls": [...]}}).`);
  }
  if (c.pair.refine.teacher !== null && !c.pair.corrections.includes('refine')) {
    throw new ConfigError(`${source}: pair.refine.teacher: a served teacher speaks in the refine editor's dialogues; add "refine" to pair.corrections.`);
  }
  if (c.pair.refine.teacher !== null && c.pair.refine.feedback === 'simple') {
    throw new ConfigError(`${source}: pair.refine.teacher: simple feedback says only "Your answer has errors."; a served teacher needs pair.refine.feedback "detailed".`);
  }
  const judge = [
    ...(g.judge ? [g.judge.backend] : []),
    ...(c.pair.rewriter ? [c.pair.rewriter.backend] : []),
    ...(c.pair.refine.teacher ? [c.pair.refine.teacher.backend] : []),
  ];
  for (const b of [c.generate.backend, c.label.backend, c.divide.backend, dr.reference, ...(dr.policy ? [dr.policy] : []), ...judge]) {
    if ((b.type === 'openai' || b.type === 'llm') && b.api_key_file) b.api_key_file = rel(b.api_key_file, base);
  }
  if (o.policy) {
    c.generate.backend =
      c.generate.backend.type === 'local' || /[\\/]/.test(o.policy) || o.policy.startsWith('.')
        ? { type: 'local', model: rel(o.policy, cwd) }
        : { ...c.generate.backend, model: o.policy };
  }
  if (o.seed !== undefined) c.seed = o.seed;
  if (o.workers !== undefined) c.workers = o.workers;
  if (o.chunkPrompts !== undefined) c.chunk_prompts = o.chunkPrompts;
  if (o.samples !== undefined) c.generate.samples = o.samples;
  if (o.onError) c.on_error = o.onError;
  if (o.inputFormat) c.input_format = o.inputFormat;
  if (o.columns) c.input_columns = { ...c.input_columns, ...o.columns };
  return { config: c, source };
}

/** The config as stored with a round: secrets never appear in it (keys are referenced by variable or file name only). */
export function storedConfig(c: Config): string {
  return JSON.stringify(c);
}

const OPERATIONAL_KEYS = new Set([
  'base_urls', 'api_key_env', 'api_key_file', 'max_in_flight', 'timeout_ms', 'max_retries',
  'min_backoff_ms', 'max_backoff_ms', 'rest_after_failures', 'rest_ms', 'content_retries', 'chunk_prompts', 'server',
]);

/** pair.refine at its defaults: how every round before the refine editor was, whose hash it keeps. */
function isDefaultRefine(v: unknown): boolean {
  const r = v as { max_turns?: unknown; feedback?: unknown; temperature?: unknown } | null;
  const t = v as { teacher?: unknown; reference_field?: unknown } | null;
  return r !== null && typeof r === 'object' && r.max_turns === 3 && r.feedback === 'detailed' && r.temperature === 0 && t!.teacher === null && t!.reference_field === 'reference';
}

/** A hash of what determines a round's results (not where files live, nor how many workers ran). */
export function configHash(c: Config): string {
  // The loop's settings say how rounds follow each other, not what one round makes; like the prompts file, how it is
  // read is not a result setting either (the prompts themselves are stored with the round).
  // The reward server's settings and reward definition change no stored result either.
  const { db: _db, workers: _w, prompts: _p, on_error: _e, loop: _l, input_format: _f, input_columns: _c, reward: _r, serve: _s, feedback, ...rest } = c;
  // Divide without a gate or top-up is what every round before the feedback-method axis was; the other methods'
  // settings do not touch its results, so such rounds keep their hash.
  const plain = !feedback || (feedback.method === 'divide' && feedback.gate.threshold === null && feedback.gate.top_up === 0 && feedback.min_gap === null);
  const withMethod = plain ? rest : { ...rest, feedback };
  // Where a server runs and how hard rlaifv pushes it don't change what it answers: endpoints can be added mid-round.
  // pair.repeated_claims 'keep' is how every round before the setting existed paired: such rounds keep their hash.
  // A gate without a judge model is how every gated round before feedback.gate.judge existed: it keeps its hash.
  // pair.reference_logprobs adds log-probs beside the pairs without changing them: a round may turn it on later.
  // No correction editors and rank pairs on is how every round before pair.corrections paired: they keep their hash.
  // pair.refine at its defaults likewise (it only acts with the "refine" editor, which is in pair.corrections).
  const json = JSON.stringify(withMethod, (k, v) =>
    OPERATIONAL_KEYS.has(k) ||
    (k === 'repeated_claims' && v === 'keep') ||
    (k === 'judge' && v === null) ||
    (k === 'corrections' && Array.isArray(v) && v.length === 0) ||
    (k === 'rank_pairs' && v === true) ||
    (k === 'rewriter' && v === null) ||
    (k === 'refine' && isDefaultRefine(v)) ||
    // No tools and no routing is how every round before label.tools labeled: they keep their hash.
    (k === 'tools' && Array.isArray(v) && v.length === 0) ||
    (k === 'routing' && v === null) ||
    k === 'reference_logprobs'
      ? undefined
      : v,
  );
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/**
 * label.tools and label.routing: a detector's folder is resolved like a model's; a routing file (what `rlaifv
 * calibrate-tools` writes) is read into the config, so the table is stored with the round and in its hash. Every
 * routed source must be "labeler" or a configured tool's name; tool names must be distinct.
 */
function resolveTools(c: Config, source: string, base: string): void {
  const l = c.label;
  const names = new Set<string>();
  for (const [i, t] of l.tools.entries()) {
    if (names.has(t.name)) throw new ConfigError(`${source}: label.tools.${i}.name: "${t.name}" is used by two tools; give each its own name.`);
    if (t.name === 'labeler') throw new ConfigError(`${source}: label.tools.${i}.name: "labeler" is the labeler's own source name; pick another.`);
    names.add(t.name);
    if (t.type === 'detector') t.model = path.resolve(base, t.model);
    if (t.type === 'vlm' && t.backend.api_key_file) t.backend.api_key_file = path.resolve(base, t.backend.api_key_file);
  }
  if (typeof l.routing === 'string') {
    const file = path.resolve(base, l.routing);
    let table: unknown;
    try {
      table = (JSON.parse(readFileSync(file, 'utf8')) as { routing?: unknown }).routing;
    } catch (e) {
      throw new ConfigError(`${source}: label.routing: cannot read the routing file ${file}: ${(e as Error).message}`);
    }
    const parsed = routingTable.safeParse(table);
    if (!parsed.success) throw new ConfigError(`${source}: label.routing: ${file} has no valid "routing" object (claim form -> source); write it with rlaifv calibrate-tools.`);
    l.routing = parsed.data;
  }
  if (l.routing !== null) {
    if (l.tools.length === 0) throw new ConfigError(`${source}: label.routing: a routing table needs label.tools (the tools it routes claims to).`);
    for (const [form, src] of Object.entries(l.routing)) {
      if (src !== 'labeler' && !names.has(src)) {
        throw new ConfigError(`${source}: label.routing.${form}: "${src}" is not a tool of label.tools; allowed: labeler, ${[...names].join(', ')}.`);
      }
    }
  }
}
