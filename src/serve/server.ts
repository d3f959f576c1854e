// `rlaifv serve`'s HTTP server (node's http, no framework): opens the store and the configured backends once, finds or
// makes the online round, and routes requests. Binds 127.0.0.1 by default; any other host needs an API key.
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/schema.js';
import { ConfigError, configHash } from '../config/load.js';
import { createBackends, selectRound, type Backends } from '../pipeline/round.js';
import type { WorkerPool } from '../backends/local/pool.js';
import { imageStoreDir } from '../image/store.js';
import { markOnlineRound, onlineAnswerCount, onlineRound, openDb, type Db, type RoundRow } from '../store/index.js';
import { BatchScorer } from './scorer.js';
import { getReward, images, info, rewards, RequestError, type Reply, type ServeContext } from './routes.js';
import type { VerdictOverride } from './result.js';
import type { ImageRow } from '../store/index.js';

/** How to start the server beyond its config. */
export interface StartOptions {
  host?: string;
  port?: number;
  /**
   * Studies only, never in config: each image's claim verdicts instead of the labeler's (the online study's oracle:
   * the shapes truth checker). The answers are still divided, labeled and stored as always.
   */
  verdicts?: (image: ImageRow) => VerdictOverride | null;
  /** A worker pool to run in, left open for its owner (the online loop's); absent: the server makes its own. */
  pool?: WorkerPool | null;
}

/** A running reward server. */
export interface RewardServer {
  /** The base URL, e.g. http://127.0.0.1:8100 */
  url: string;
  round: RoundRow;
  /** Stops taking requests, lets the running batch finish, closes the store and backends. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The API key the server requires: from serve.api_key_env; required on any host but loopback. */
function apiKey(config: Config, host: string): string | null {
  const key = process.env[config.serve.api_key_env] || null;
  if (!key && !LOOPBACK.has(host)) {
    throw new ConfigError(`serve.host: ${host} is not loopback, so an API key is required; set it in the environment variable ${config.serve.api_key_env} (serve.api_key_env)`);
  }
  return key;
}

/** Whether a request carries the key (Authorization: Bearer, or x-api-key), compared in constant time. */
function authorised(req: http.IncomingMessage, key: string): boolean {
  const h = req.headers.authorization;
  const given = h?.startsWith('Bearer ') ? h.slice(7) : (req.headers['x-api-key'] as string | undefined);
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request body, at most `max` bytes (413 past it). */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new RequestError(`body: over serve.max_body_bytes (${max})`, 413));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(buf: Buffer): unknown {
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new RequestError(`body: not valid JSON (${(e as Error).message})`);
  }
}

/** Routes one request to its handler. */
async function route(ctx: ServeContext, req: http.IncomingMessage): Promise<Reply> {
  const url = (req.url ?? '/').split('?')[0];
  const max = ctx.config.serve.max_body_bytes;
  const post = async () => json(await readBody(req, max));
  if (req.method === 'GET' && url === '/health') return { status: 200, body: { status: 'ok' } };
  if (req.method === 'GET' && url === '/v1/info') return info(ctx);
  if (req.method === 'POST' && url === '/v1/rewards') return rewards(ctx, await post());
  if (req.method === 'POST' && url === '/get_reward') return getReward(ctx, await post());
  if (req.method === 'POST' && url === '/v1/images') return images(ctx, await readBody(req, max));
  return { status: 404, body: { error: `no route ${req.method} ${url}; routes: POST /v1/rewards, POST /get_reward, POST /v1/images, GET /v1/info, GET /health` } };
}

/** The online round of this config in the store: the one it wrote into before, or a new one. */
function openRound(db: Db, config: Config, backends: Backends): RoundRow {
  const hash = configHash(config);
  const ids = { policy: 'online', labeler: backends.labeler.id, divider: backends.divider.id };
  const id = onlineRound(db, hash);
  if (id !== null) return selectRound(db, config, id, ids);
  return selectRound(db, config, 'next', ids, { onCreate: (d, rid) => markOnlineRound(d, rid, hash) });
}

/** What serve cannot do yet, said at start (exit 2) rather than per request. */
function checkConfig(config: Config): void {
  if (config.feedback.method !== 'divide') throw new ConfigError(`feedback.method: serve scores with divide's claims; got "${config.feedback.method}"`);
  if (config.label.tools.length) throw new ConfigError('label.tools: serve labels with the labeler only; remove label.tools for the reward server');
}

/**
 * Starts the reward server on `host:port` (port 0: any free port).
 * @example const s = await startServer(loadConfig('rlaifv.json').config); console.log(s.url)
 */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RewardServer> {
  checkConfig(config);
  const host = opts.host ?? config.serve.host;
  const port = opts.port ?? config.serve.port;
  const key = apiKey(config, host);
  const backends = createBackends(config, { pool: opts.pool ?? null });
  const db = openDb(config.db);
  let round: RoundRow;
  try {
    round = openRound(db, config, backends);
  } catch (e) {
    db.close();
    await backends.close();
    throw e;
  }
  const scorer = new BatchScorer(db, round, config, backends);
  const ctx: ServeContext = {
    config,
    scorer,
    images: { db, imagesDir: imageStoreDir(config.db), limits: config.limits, imageRoot: config.serve.image_root, urlHosts: config.serve.url_hosts },
    meta: { config_hash: configHash(config), divider: backends.divider.id, labeler: backends.labeler.id, round: round.id },
    answersStored: () => onlineAnswerCount(db, round.id),
    ...(opts.verdicts ? { verdicts: opts.verdicts } : {}),
  };
  const server = http.createServer((req, res) => {
    const send = (r: Reply) => {
      if (res.headersSent) return;
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(JSON.stringify(r.body));
    };
    if (key && !authorised(req, key)) return send({ status: 401, body: { error: 'authorization: a valid API key is required (Authorization: Bearer <key>)' } });
    route(ctx, req).then(send, (e: Error) =>
      send(e instanceof RequestError ? { status: e.status, body: { error: e.message } } : { status: 500, body: { error: `internal error: ${e.message}` } }),
    );
  });
  // Trainers keep many requests open at once (OpenRLHF: one per sample): no per-connection limits below theirs.
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => reject(new ConfigError(`serve.port: cannot listen on ${host}:${port} (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
    server.listen(port, host, resolve);
  }).catch(async (e) => {
    db.close();
    await backends.close();
    throw e;
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}`,
    round,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeIdleConnections();
      });
      await scorer.idle();
      db.close();
      await backends.close();
    },
  };
}
