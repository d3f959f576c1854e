// The reward server for tests: the real library server on 127.0.0.1 (port 0) with the tiny local models, a real
// SQLite file in a temp folder, and the dev split's images as its image root.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { startServer, type RewardServer, type StartOptions } from '../../src/serve/server.js';
import { DEV, tempDir } from '../helpers/paths.js';
import { CLI } from '../helpers/run-cli.js';
import { sharedPool } from '../helpers/file-pool.js';

/** Starts a reward server; `edit` changes the config first. */
export async function testServer(
  edit?: (c: Config) => void,
  opts: { host?: string; db?: string; verdicts?: StartOptions['verdicts'] } = {},
): Promise<{ server: RewardServer; config: Config; db: string }> {
  const db = opts.db ?? path.join(tempDir('rlaifv-serve-'), 'serve.sqlite');
  const { config } = loadConfig(undefined, { db, workers: 1 });
  config.serve.image_root = DEV;
  edit?.(config);
  const server = await startServer(config, { port: 0, pool: sharedPool(1), ...(opts.host ? { host: opts.host } : {}), ...(opts.verdicts ? { verdicts: opts.verdicts } : {}) });
  return { server, config, db };
}

/** POSTs JSON and returns the status and parsed body. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A dev image's path under the image root, and what is in it (dev-0000: a blue circle at the middle left, no star). */
export const IMG = 'images/dev-0000.png';
export const QUESTION = 'Where is the blue circle?';
export const RIGHT = 'The blue circle is in the middle left.';
export const WRONG = 'There is a green star.';


/** The built `rlaifv serve` as a child process on a free port; resolves once it prints where it listens. */
export async function spawnServe(configJson: Record<string, unknown>, dir = tempDir('rlaifv-serve-')): Promise<{ url: string; child: ChildProcess; config: string; dir: string; stderr: () => string }> {
  const config = path.join(dir, 'serve.json');
  writeFileSync(config, JSON.stringify({ db: 'serve.sqlite', workers: 1, ...configJson, serve: { image_root: DEV, ...(configJson.serve as object) } }));
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`rlaifv serve exited ${code}: ${err}`)));
  });
  return { url, child, config, dir, stderr: () => err };
}

/** Stops a served child with SIGTERM (it finishes its running batch) and waits for it to exit. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
