// `rlaifv serve`: the claim-level reward server for online RL trainers (parses flags, starts the library's server,
// prints where it listens, stops on SIGINT/SIGTERM).
import type { Command } from 'commander';
import { configOption, dbOption, positiveInt, wholeNumber } from './flags.js';

interface ServeFlags {
  config?: string;
  db?: string;
  host?: string;
  port?: number;
  workers?: number;
}

/** Registers `serve`. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve claim-level rewards to online RL trainers (POST /v1/rewards, POST /get_reward for OpenRLHF)')
    .addOption(configOption('config JSON file (default: the embedded demo config)'))
    .addOption(dbOption('SQLite database where every scored answer is stored (default: db/rlaifv.sqlite)'))
    .option('--host <host>', 'address to bind (default 127.0.0.1; any other needs an API key in serve.api_key_env)')
    .option('--port <port>', 'port (default 8100; 0: any free port)', wholeNumber('--port', 0, 65535))
    .option('--workers <n>', 'worker threads for local models (default: the number of cores)', positiveInt('--workers'))
    .action(async (f: ServeFlags) => {
      const { loadConfig } = await import('../config/load.js');
      const { config } = loadConfig(f.config, { ...(f.db ? { db: f.db } : {}), ...(f.workers ? { workers: f.workers } : {}) });
      const { startServer } = await import('../serve/server.js');
      const server = await startServer(config, { ...(f.host ? { host: f.host } : {}), ...(f.port !== undefined ? { port: f.port } : {}) });
      process.stderr.write(`rlaifv serve: round ${server.round.id} in ${config.db}, reward preset ${config.reward.preset}\n`);
      process.stdout.write(`listening on ${server.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.stderr.write('rlaifv serve: stopping (finishing the running batch)\n');
          void server.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
