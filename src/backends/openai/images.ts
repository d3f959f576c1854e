// Images for chat messages: a local file becomes a data URL (read once, kept for the image's other questions);
// an http(s) URL is sent as it is.
import { readFile } from 'node:fs/promises';

/** The MIME type of an image from its first bytes; null when it is not one servers accept. */
export function sniffImageType(b: Uint8Array): string | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') return 'image/webp';
  if (b.length >= 6 && String.fromCharCode(...b.subarray(0, 3)) === 'GIF') return 'image/gif';
  return null;
}

const cache = new Map<string, Promise<string>>();
const CACHE_SIZE = 64;

/** The URL to put in an `image_url` content part for an image path or URL. */
export function imageUrl(pathOrUrl: string): Promise<string> {
  if (/^https?:\/\//i.test(pathOrUrl) || pathOrUrl.startsWith('data:')) return Promise.resolve(pathOrUrl);
  let p = cache.get(pathOrUrl);
  if (p) {
    cache.delete(pathOrUrl);
    cache.set(pathOrUrl, p);
    return p;
  }
  p = readFile(pathOrUrl).then((bytes) => {
    const type = sniffImageType(bytes);
    if (!type) throw new Error(`${pathOrUrl}: not a PNG, JPEG, WebP or GIF image; servers accept only those as data URLs.`);
    return `data:${type};base64,${bytes.toString('base64')}`;
  });
  p.catch(() => cache.delete(pathOrUrl));
  cache.set(pathOrUrl, p);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return p;
}
