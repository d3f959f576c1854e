// A decoder for plain PNGs (8 bits per channel, grey/RGB/RGBA, not interlaced), bit-identical to sharp's: the shapes
// world's images and most prompt images are such files, and decoding them here is many times faster than a sharp
// pipeline per image. Anything else returns null and is left to sharp.
import { crc32, inflateSync } from 'node:zlib';

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Ancillary chunks that change nothing in the decoded pixels. */
const PNG_IGNORED = new Set(['pHYs', 'tEXt', 'zTXt', 'iTXt', 'tIME', 'sRGB']);
/** Channels by colour type: grey, RGB, RGBA (palette and grey+alpha are left to sharp). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

/**
 * Decodes a plain PNG (8 bits per channel, grey/RGB/RGBA, not interlaced, only chunks that do not change pixels, every
 * CRC right); null for anything else, which is then left to sharp.
 */
export function decodePlainPng(buf: Uint8Array): { data: Uint8ClampedArray; width: number; height: number; channels: number } | null {
  if (buf.length < 8 || PNG_SIGNATURE.some((b, i) => buf[i] !== b)) return null;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 8;
  let ihdr: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (pos + 12 <= buf.length) {
    const len = view.getUint32(pos);
    if (pos + 12 + len > buf.length) return null;
    const type = String.fromCharCode(buf[pos + 4]!, buf[pos + 5]!, buf[pos + 6]!, buf[pos + 7]!);
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) !== view.getUint32(pos + 8 + len)) return null;
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      if (ihdr || len !== 13) return null;
      ihdr = body;
    } else if (type === 'IDAT') {
      if (!ihdr) return null;
      idat.push(body);
    } else if (type === 'IEND') {
      ended = true;
      break;
    } else if (!PNG_IGNORED.has(type) || !ihdr) {
      return null;
    }
    pos += 12 + len;
  }
  if (!ended || !ihdr || idat.length === 0) return null;
  const h = new DataView(ihdr.buffer, ihdr.byteOffset, 13);
  const width = h.getUint32(0);
  const height = h.getUint32(4);
  const channels = PNG_CHANNELS[ihdr[9]!];
  if (ihdr[8] !== 8 || channels === undefined || ihdr[10] !== 0 || ihdr[11] !== 0 || ihdr[12] !== 0) return null;
  if (width === 0 || height === 0 || width * height > 1 << 24) return null;
  let raw: Uint8Array;
  try {
    raw = inflateSync(idat.length === 1 ? idat[0]! : Buffer.concat(idat));
  } catch {
    return null;
  }
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) return null;
  const out = new Uint8Array(height * stride);
  if (!unfilterPng(raw, out, height, stride, channels)) return null;
  return { data: new Uint8ClampedArray(out.buffer), width, height, channels };
}

/** Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth) of `raw` into `out`; false on an unknown filter. */
function unfilterPng(raw: Uint8Array, out: Uint8Array, height: number, stride: number, bpp: number): boolean {
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    const up = dst - stride;
    const first = y === 0;
    if (filter === 0 || (filter === 2 && first)) {
      out.set(raw.subarray(src, src + stride), dst);
    } else if (filter === 1 || (filter === 4 && first)) {
      // Paeth on the first row (no row above) picks the left byte, as Sub does.
      for (let x = 0; x < bpp; x++) out[dst + x] = raw[src + x]!;
      for (let x = bpp; x < stride; x++) out[dst + x] = raw[src + x]! + out[dst + x - bpp]!;
    } else if (filter === 2) {
      for (let x = 0; x < stride; x++) out[dst + x] = raw[src + x]! + out[up + x]!;
    } else if (filter === 3) {
      for (let x = 0; x < bpp; x++) out[dst + x] = raw[src + x]! + (first ? 0 : out[up + x]! >> 1);
      for (let x = bpp; x < stride; x++) out[dst + x] = raw[src + x]! + ((out[dst + x - bpp]! + (first ? 0 : out[up + x]!)) >> 1);
    } else if (filter === 4) {
      for (let x = 0; x < bpp; x++) out[dst + x] = raw[src + x]! + out[up + x]!;
      for (let x = bpp; x < stride; x++) {
        const a = out[dst + x - bpp]!;
        const b = out[up + x]!;
        const c = out[up + x - bpp]!;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        out[dst + x] = raw[src + x]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    } else {
      return false;
    }
  }
  return true;
}

