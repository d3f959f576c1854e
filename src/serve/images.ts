// Where a reward request's image comes from, under the server's safety rules: `path` only under serve.image_root,
// `url` only data: or http(s) (with the fetch's size and time limits and serve.url_hosts), `b64` inline, or the
// `sha256` of an image uploaded before. Every image is checked and stored once by content.
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkImage, checkImageBytes, imageId, type InputLimits } from '../input/prompts.js';
import { saveImageBytes, sha256Hex } from '../image/store.js';
import { getImage, putImage, type Db, type ImageRow } from '../store/index.js';

/** An item's image as a request gives it. */
export type ImageSpec = { url: string } | { path: string } | { b64: string; mime?: string } | { sha256: string };

/** What the image rules need. */
export interface ImageRules {
  db: Db;
  imagesDir: string;
  limits: InputLimits;
  imageRoot: string | null;
  urlHosts: string[] | null;
  /** Images already checked, by file (with its size and mtime) or URL: G answers of a group share one image. */
  cache?: Map<string, Promise<ImageRow>>;
  /** `path` lookups running now, by path: requests that name the same file at once share one. */
  pathLookups?: Map<string, Promise<ImageRow>>;
}

const CACHE_MAX = 20_000;

/** `make()` once per key (a failure is not kept, so a fixed file is read again). */
function cached(r: ImageRules, key: string, make: () => Promise<ImageRow>): Promise<ImageRow> {
  const c = (r.cache ??= new Map());
  const hit = c.get(key);
  if (hit) return hit;
  if (c.size >= CACHE_MAX) c.delete(c.keys().next().value!);
  const p = make();
  c.set(key, p);
  p.catch(() => c.delete(key));
  return p;
}

/** A request's image that breaks a rule or cannot be read: the message names the field. */
export class ImageError extends Error {
  override name = 'ImageError';
}

/** The stored image for a checked image's bytes (stored once). */
async function fromBytes(r: ImageRules, bytes: Uint8Array, shown: string): Promise<{ image: ImageRow; sha256: string }> {
  const img = await checkImageBytes(bytes, shown, r.limits);
  const file = await saveImageBytes(r.imagesDir, img.bytes, img.format);
  const image = { id: imageId(img.bytes), path: file, width: img.width, height: img.height, bytes: img.bytes.length };
  putImage(r.db, image);
  // The id is the first 32 hex digits of the stored bytes' sha256; the full digest is what clients send back.
  return { image, sha256: sha256Hex(img.bytes) };
}

/**
 * A `path` image: only a file whose real path is under the image root (no `..`, no symlink out of it). Requests for
 * the same path while its lookup runs share that lookup (a burst of OpenRLHF samples names each image G times at
 * once): the bench's 1,024 requests spent about 1 s of the main thread in realpath and stat, three calls a request.
 */
function fromPath(r: ImageRules, p: string, field: string): Promise<ImageRow> {
  const inflight = (r.pathLookups ??= new Map());
  let look = inflight.get(p);
  if (!look) {
    look = lookUpPath(r, p).finally(() => inflight.delete(p));
    inflight.set(p, look);
  }
  // The shared lookup's reasons name no field: each request's own is put in front.
  return look.catch((e: Error) => {
    throw e instanceof ImageError ? new ImageError(`${field}: ${e.message}`) : e;
  });
}

/** fromPath's lookup; an ImageError's reason leaves out the field. */
async function lookUpPath(r: ImageRules, p: string): Promise<ImageRow> {
  if (r.imageRoot === null) throw new ImageError('path images are off; set serve.image_root to the folder they may come from');
  const root = await realpath(r.imageRoot).catch(() => {
    throw new ImageError(`serve.image_root ${r.imageRoot} does not exist`);
  });
  const want = path.resolve(root, p);
  const real = await realpath(want).catch(() => {
    throw new ImageError(`image file ${p} does not exist under serve.image_root`);
  });
  if (real !== root && !real.startsWith(root + path.sep)) throw new ImageError(`${p} is outside serve.image_root`);
  const st = await stat(real);
  return cached(r, `path:${real}:${st.size}:${st.mtimeMs}`, async () => {
    const img = await checkImage(real, root, r.limits, { imagesDir: r.imagesDir });
    putImage(r.db, img);
    return img;
  });
}

/** A `url` image: data: always; http(s) only from serve.url_hosts when it is set. */
async function fromUrl(r: ImageRules, url: string, field: string): Promise<ImageRow> {
  if (/^https?:\/\//i.test(url)) {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      throw new ImageError(`${field}: ${url} is not a valid URL`);
    }
    if (r.urlHosts !== null && !r.urlHosts.includes(host)) throw new ImageError(`${field}: host ${host} is not in serve.url_hosts (${r.urlHosts.join(', ') || 'empty'})`);
  } else if (!/^data:/i.test(url)) {
    throw new ImageError(`${field}: a url must be data: or http(s)://, got "${url.slice(0, 40)}"`);
  }
  // A data: URL is keyed by its digest (it can be megabytes); an http(s) URL by itself (fetched once into the store).
  const key = /^data:/i.test(url) ? `data:${createHash('sha256').update(url).digest('hex')}` : `url:${url}`;
  return cached(r, key, async () => {
    const img = await checkImage(url, r.imagesDir, r.limits, { imagesDir: r.imagesDir });
    putImage(r.db, img);
    return img;
  });
}

/** The stored image an item's image spec names; throws ImageError naming `field` when it cannot be had. */
export async function resolveImage(r: ImageRules, spec: unknown, field: string): Promise<ImageRow> {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw new ImageError(`${field}: must be an object with one of url, path, b64, sha256`);
  const s = spec as Record<string, unknown>;
  const keys = ['url', 'path', 'b64', 'sha256'].filter((k) => s[k] !== undefined);
  if (keys.length !== 1) throw new ImageError(`${field}: give exactly one of url, path, b64, sha256 (got ${keys.length ? keys.join(', ') : 'none'})`);
  const k = keys[0]!;
  const v = s[k];
  if (typeof v !== 'string' || v === '') throw new ImageError(`${field}.${k}: must be a non-empty string`);
  try {
    if (k === 'path') return await fromPath(r, v, `${field}.path`);
    if (k === 'url') return await fromUrl(r, v, `${field}.url`);
    if (k === 'b64') {
      const bytes = Buffer.from(v, 'base64');
      if (bytes.length === 0) throw new ImageError(`${field}.b64: holds no data`);
      return (await fromBytes(r, bytes, `${field}.b64`)).image;
    }
    const sha = v.toLowerCase();
    if (!/^[0-9a-f]{32,64}$/.test(sha)) throw new ImageError(`${field}.sha256: must be hex (the sha256 POST /v1/images returned)`);
    const row = getImage(r.db, sha.slice(0, 32));
    if (!row) throw new ImageError(`${field}.sha256: no image ${sha} was uploaded (POST /v1/images first)`);
    return row;
  } catch (e) {
    if (e instanceof ImageError) throw e;
    throw new ImageError(`${field}: ${(e as Error).message}`);
  }
}

/** Stores uploaded bytes (POST /v1/images); returns the image and its sha256 (of the bytes as stored). */
export async function uploadImage(r: ImageRules, bytes: Uint8Array): Promise<{ image: ImageRow; sha256: string }> {
  return fromBytes(r, bytes, 'body');
}
