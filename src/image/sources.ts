// Where a prompt's image comes from: a file, an http(s) URL (fetched once into the store's image folder, with a
// timeout, a size limit and retries) or a data: URI. Each problem is one clear message naming the image.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pRetry, { AbortError } from 'p-retry';
import { saveImageBytes, sha256Hex } from './store.js';

/** How images from the network are fetched. */
export interface FetchOptions {
  /** The store's image folder (imageStoreDir): fetched and data: images are kept there by content. */
  imagesDir: string;
  maxBytes: number;
  timeoutMs: number;
  /** Extra attempts after a server error, a timeout or a dropped connection (never after a 4xx). */
  retries: number;
}

/** An image's bytes and the file that holds them (for a URL or data: URI, the copy in the image folder). */
export interface ImageSource {
  file: string;
  bytes: Buffer;
  /** How the prompt named it: the file path, the URL, or "a data: URI". */
  shown: string;
}

const DATA_URI = /^data:([^,;]*)((?:;[^,;=]+=[^,;]*)*)(;base64)?,(.*)$/s;

/** A short form of a URL or data URI for messages. */
function shownOf(spec: string): string {
  if (spec.startsWith('data:')) return `data: URI (${spec.slice(0, 30)}…)`;
  return spec;
}

/** Reads a file named by a prompt; a directory or an unreadable file is said in plain words. */
async function fromFile(file: string, maxBytes: number): Promise<ImageSource> {
  let st;
  try {
    st = await stat(file);
  } catch {
    throw new Error(`image file ${file} does not exist`);
  }
  if (st.isDirectory()) throw new Error(`image ${file} is a directory, not an image file`);
  if (!st.isFile()) throw new Error(`image ${file} is not a regular file`);
  if (st.size > maxBytes) throw new Error(`image ${file} is ${st.size} bytes, over limits.max_image_bytes (${maxBytes})`);
  try {
    return { file, bytes: await readFile(file), shown: file };
  } catch (e) {
    throw new Error(`image ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Decodes a data: URI (base64 or percent-encoded) and keeps the bytes in the image folder. */
async function fromDataUri(spec: string, o: FetchOptions): Promise<ImageSource> {
  const m = DATA_URI.exec(spec);
  if (!m) throw new Error(`image ${shownOf(spec)} is not a valid data: URI (data:[type][;base64],data)`);
  let bytes: Buffer;
  try {
    bytes = m[3] ? Buffer.from(m[4]!, 'base64') : Buffer.from(decodeURIComponent(m[4]!), 'latin1');
  } catch {
    throw new Error(`image ${shownOf(spec)}: its data cannot be decoded`);
  }
  if (bytes.length === 0) throw new Error(`image ${shownOf(spec)} holds no data`);
  if (bytes.length > o.maxBytes) throw new Error(`image ${shownOf(spec)} is ${bytes.length} bytes, over limits.max_image_bytes (${o.maxBytes})`);
  return { file: await saveImageBytes(o.imagesDir, bytes), bytes, shown: shownOf(spec) };
}

/** Where the image folder remembers which stored file a URL gave (so a URL is fetched once). */
function urlIndex(o: FetchOptions, url: string): string {
  return path.join(o.imagesDir, 'urls', `${createHash('sha256').update(url).digest('hex')}.txt`);
}

/** One GET of a URL with a time limit and a byte limit; throws AbortError for what a retry cannot fix. */
async function fetchOnce(url: string, o: FetchOptions): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(o.timeoutMs), redirect: 'follow' });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') throw new Error(`no answer within ${o.timeoutMs} ms (limits.fetch_timeout_ms)`);
    throw new Error(`cannot connect (${err.cause?.code ?? err.message})`);
  }
  if (res.status >= 400 && res.status < 500 && res.status !== 429) {
    await res.body?.cancel();
    throw new AbortError(`HTTP ${res.status} ${res.statusText}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status} ${res.statusText}`);
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('text/') || type === 'application/json') {
    await res.body?.cancel();
    throw new AbortError(`the server sent ${type}, not an image`);
  }
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (length > o.maxBytes) {
    await res.body?.cancel();
    throw new AbortError(`it is ${length} bytes, over limits.max_image_bytes (${o.maxBytes})`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > o.maxBytes) throw new AbortError(`it is over limits.max_image_bytes (${o.maxBytes}) bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Fetches a URL once into the image folder (later prompts and runs reuse the copy); retries what may pass. */
async function fromUrl(url: string, o: FetchOptions): Promise<ImageSource> {
  const index = urlIndex(o, url);
  try {
    const file = (await readFile(index, 'utf8')).trim();
    return { file, bytes: await readFile(file), shown: url };
  } catch {
    // not fetched yet (or the copy is gone): fetch it
  }
  let bytes: Buffer;
  try {
    bytes = await pRetry(() => fetchOnce(url, o), { retries: o.retries, minTimeout: 200, maxTimeout: 2000, randomize: true });
  } catch (e) {
    throw new Error(`image ${url} could not be fetched: ${(e as Error).message}`);
  }
  const file = await saveImageBytes(o.imagesDir, bytes);
  await mkdir(path.dirname(index), { recursive: true });
  const tmp = `${index}.${sha256Hex(bytes).slice(0, 8)}.tmp`;
  await writeFile(tmp, file);
  await rename(tmp, index);
  return { file, bytes, shown: url };
}

/**
 * The bytes of the image a prompt names: `http(s)://…` (fetched once), `data:…`, or a file path (relative to `baseDir`).
 * @example await imageSource('images/a.png', 'data/shapes/dev', opts)
 */
export async function imageSource(spec: string, baseDir: string, o: FetchOptions): Promise<ImageSource> {
  if (/^https?:\/\//i.test(spec)) return fromUrl(spec, o);
  if (/^data:/i.test(spec)) return fromDataUri(spec, o);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new Error(`image ${spec}: unsupported URL scheme (allowed: http://, https://, data:, or a file path)`);
  }
  return fromFile(path.resolve(baseDir, spec), o.maxBytes);
}
