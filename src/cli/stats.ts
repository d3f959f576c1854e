// `rlaifv stats`: counts per stage for a round. The config, the store and the on-policy check are loaded when the
// command runs, and the store only once the database is known to exist.
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { existsSync } from 'node:fs';
import { storePath } from '../config/store-path.js';
import { configOption, dbOption, jsonOption, roundOption } from './flags.js';
import type { OnPolicySummary } from '../feedback/on-policy.js';

/** The check in one line: the median, the flagged count and the worst few, then the rule. */
function onPolicyLine(c: OnPolicySummary | null): string {
  if (!c) return 'no reference log-probs (pair.reference_logprobs)';
  const median = c.median_percentile === null ? '–' : c.median_percentile.toFixed(1);
  const worst = c.flagged.slice(0, 3).map((p) => `${p.pair_id} (${p.percentile.toFixed(1)}, mean ${p.chosen_mean.toFixed(3)})`);
  return `${c.pairs} pairs, chosen answers' median percentile ${median}; ${c.off_policy} off-policy${worst.length ? `: ${worst.join(', ')}${c.off_policy > 3 ? ', …' : ''}` : ''} [${c.rule}]`;
}

/** Registers `stats`. */
export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('counts of a round (prompts, answers, claims, labels, pairs, failures)')
    .addOption(dbOption())
    .addOption(configOption('config JSON file (for its db path)'))
    .addOption(roundOption('round (default: latest)', ['latest'], 'stats reads an existing round'))
    .addOption(jsonOption())
    .action(async (f: { db?: string; config?: string; round?: number | 'latest'; json?: boolean }) => {
      const config = { db: await storePath(f) };
      if (!existsSync(config.db)) throw new InputError(`No database at ${config.db}; run \`rlaifv run\` first or pass --db.`);
      const { getRound, latestRound, openDb, roundStats } = await import('../store/index.js');
      const { roundOnPolicy } = await import('../eval/on-policy.js');
      const db = openDb(config.db, { readonly: true, upgrade: true });
      try {
        const id = typeof f.round === 'number' ? f.round : latestRound(db)?.id;
        if (id === undefined) throw new InputError(`No rounds in ${config.db} yet; run \`rlaifv run\` first.`);
        if (!getRound(db, id)) throw new InputError(`No round ${id} in ${config.db}${latestRound(db) ? ` (the latest is round ${latestRound(db)!.id})` : ''}.`);
        const s = roundStats(db, id);
        // The on-policy check when the round has reference log-probs (pair.reference_logprobs); null otherwise.
        const check = roundOnPolicy(db, id);
        const on_policy = check && { rule: check.rule, pairs: check.pairs, median_percentile: check.median_percentile, off_policy: check.off_policy, flagged: check.flagged };
        if (f.json) process.stdout.write(JSON.stringify({ ...s, on_policy }) + '\n');
        else {
          for (const [k, v] of Object.entries(s)) process.stdout.write(`${k.padEnd(20)} ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
          process.stdout.write(`${'on_policy'.padEnd(20)} ${onPolicyLine(on_policy)}\n`);
          if (s.answers_cut_short > 0) {
            process.stdout.write(
              `note: ${s.answers_cut_short} answers stopped for "length" before generate.max_new_tokens: a server that caps max_tokens ` +
                `(vLLM: the model's generation_config.json max_new_tokens; restart it with --generation-config vllm) or the model's context. ` +
                'See docs/remote-servers.md.\n',
            );
          }
        }
      } finally {
        db.close();
      }
    });
}
