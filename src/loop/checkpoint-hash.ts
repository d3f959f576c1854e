// A checkpoint folder's content hash, for the deploy hook's adapter names (loop.deploy.model "policy-{hash}"): each
// checkpoint is served under its own name, so a server never has to load one name twice (vLLM's load_inplace, which
// sticks to the adapter and reloads it from disk at every later generation: vllm #33791).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file under `dir`, as paths relative to it with '/' separators, in a fixed order. */
async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await files(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

/**
 * The first 12 hex digits of a SHA-256 over the folder's file names and contents (streamed: a full checkpoint can be
 * gigabytes). The same files give the same hash wherever the folder is.
 * @example await checkpointHash('runs/loop/r1') // "3fa9c1e2b7d0"
 */
export async function checkpointHash(dir: string): Promise<string> {
  const h = createHash('sha256');
  for (const f of await files(dir)) {
    h.update(`${f}\0`);
    for await (const chunk of createReadStream(path.join(dir, f))) h.update(chunk as Buffer);
    h.update('\0');
  }
  return h.digest('hex').slice(0, 12);
}
