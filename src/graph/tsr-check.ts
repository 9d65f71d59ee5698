/**
 * The checks of a .tsr's blobs as they are read (tsr-read.ts): checksums, and for pages the
 * offsets' shape and neighbour ids below n. checkBlobs runs them on the addon's threads, one blob
 * a thread (native/src/addon_tsr.cpp, bit for bit the same checksum), or here without the addon;
 * a flag only says where to look: the messages come from offsetsProblem and neighbourProblem.
 */
import { nativeTsrCheck } from '../../actors/gpu/native-host.js';
import type { Page } from './types.js';
import { tsrChecksum } from './tsr-format.js';

/** checkBlobs flags: the offsets are not from 0, never decreasing, ending at the edge count. */
export const OFFSETS_BAD = 1;
/** checkBlobs flags: a neighbour id may be >= n (the JS pass may say so of the padding word; rescan). */
export const OUT_OF_RANGE = 2;

/** One blob to check: its bytes; for a page also its vertex count and its ids' words [from, to). */
export interface BlobToCheck {
  bytes: Uint8Array;
  /** Vertices of the page (its offsets are words [0, nv]); -1 for an array (a checksum only). */
  nv: number;
  from: number;
  to: number;
}

/**
 * Checks blobs (on the addon's threads when it is here, unless `native` is false): out[2i] is
 * blob i's tsrChecksum, out[2i + 1] its flags (OFFSETS_BAD, OUT_OF_RANGE) against n vertices.
 */
export function checkBlobs(blobs: readonly BlobToCheck[], n: number, native = true): Uint32Array {
  const out = new Uint32Array(2 * blobs.length);
  const fn = native ? nativeTsrCheck() : undefined;
  if (fn !== undefined && n <= 0xffffffff) {
    const spec = new Float64Array(3 * blobs.length);
    blobs.forEach((b, i) => spec.set([b.nv, b.from, b.to], 3 * i));
    fn(blobs.map((b) => b.bytes), spec, n, out);
    return out;
  }
  blobs.forEach((b, i) => {
    const { bytes, nv } = b;
    if (nv < 0) {
      out[2 * i] = tsrChecksum(bytes);
      return;
    }
    const p = { vBegin: 0, vEnd: nv, edges: b.to - b.from, offsets: new Uint32Array(bytes.buffer, bytes.byteOffset, nv + 1) };
    // A page whose offsets are wrong is reported for them, before its checksum is looked at.
    if (offsetsProblem(p, true) !== undefined) out[2 * i + 1] = OFFSETS_BAD;
    else checksumAndRange(bytes, b.from, b.to, n, out, 2 * i);
  });
  return out;
}

/** The vertex whose edge range holds page edge k (offsets already known to be monotone). */
function vertexOfEdge(p: Page, k: number): number {
  let lo = 0;
  let hi = p.vEnd - p.vBegin - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (p.offsets[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return p.vBegin + lo;
}

export function offsetsProblem(p: Pick<Page, 'offsets' | 'vBegin' | 'vEnd' | 'edges'>, monotone: boolean): string | undefined {
  const { offsets } = p;
  const nv = p.vEnd - p.vBegin;
  if (offsets[0] !== 0) return `its offsets start at ${offsets[0]}, not 0`;
  if (monotone) {
    for (let k = 0; k < nv; k++) {
      if (offsets[k]! > offsets[k + 1]!) return `its offsets decrease at vertex ${p.vBegin + k} (its edges start at ${offsets[k]} and end at ${offsets[k + 1]})`;
    }
  }
  if (offsets[nv] !== p.edges) return `its offsets end at ${offsets[nv]}, but the page holds ${p.edges} edges`;
  return undefined;
}

export function neighbourProblem(p: Page, n: number): string | undefined {
  const { nbrs } = p;
  const m = p.edges;
  let k = 0;
  while (k < m && nbrs[k]! < n) k++;
  return k < m ? `vertex ${vertexOfEdge(p, k)} has neighbour id ${nbrs[k]} (edge ${k} of the page), not below the ${n} vertices` : undefined;
}

export function weightProblem(p: Page): string | undefined {
  const w = p.weights;
  if (w === undefined) return undefined;
  for (let k = 0; k < p.edges; k++) {
    if (!Number.isFinite(w[k]!)) return `vertex ${vertexOfEdge(p, k)} has weight ${w[k]} (edge ${k} of the page), not a finite number`;
  }
  return undefined;
}

/**
 * What is wrong with a page's structure, or undefined when nothing is. `level` 'ends': where the
 * offsets start and end only (O(1)); 'read': also offsets never decreasing and every neighbour id
 * below n (what a verified read checks); 'full': also finite weights (verifyTsr).
 */
export function tsrPageProblem(p: Page, n: number, level: 'ends' | 'read' | 'full'): string | undefined {
  return (
    offsetsProblem(p, level !== 'ends') ??
    (level === 'ends' ? undefined : neighbourProblem(p, n)) ??
    (level === 'full' ? weightProblem(p) : undefined)
  );
}

/**
 * tsrChecksum of a byte range, and (into `flags` of out[at + 1]) whether any u32 word among words [from, to)
 * (from even) is >= n. The neighbour-id check rides on the checksum's pass over the page, branch
 * free (for n <= 2^31, a word a is below n exactly when neither a nor (n - 1) - a has its int32
 * sign bit set), costing a fraction of a second pass. The padding word after an odd count is
 * included (it is zero in files this module writes); a caller rescans before blaming an id.
 */
function checksumAndRange(bytes: Uint8Array, from: number, to: number, n: number, out: Uint32Array, at: number): void {
  const n4 = bytes.byteLength >>> 2;
  if ((bytes.byteOffset & 3) !== 0 || (from & 1) !== 0 || n > 2 ** 31) {
    // Not a layout this module makes, or a huge n: the plain checksum, and the caller rescans.
    out[at] = tsrChecksum(bytes);
    out[at + 1] = OUT_OF_RANGE;
    return;
  }
  const w = new Int32Array(bytes.buffer, bytes.byteOffset, n4);
  const end = Math.min(to + (to & 1), n4 & ~1);
  const nm1 = n - 1;
  let h1 = 0x811c9dc5 ^ bytes.byteLength;
  let h2 = 0x01000193;
  let bad = 0;
  let i = 0;
  for (; i + 1 < from; i += 2) {
    h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
    h2 = Math.imul(h2 ^ w[i + 1]!, 0x85ebca77);
  }
  for (; i + 3 < end; i += 4) {
    const a = w[i]!;
    const b = w[i + 1]!;
    const c = w[i + 2]!;
    const d = w[i + 3]!;
    h1 = Math.imul(Math.imul(h1 ^ a, 0x9e3779b1) ^ c, 0x9e3779b1);
    h2 = Math.imul(Math.imul(h2 ^ b, 0x85ebca77) ^ d, 0x85ebca77);
    bad |= a | b | c | d | (nm1 - a) | (nm1 - b) | (nm1 - c) | (nm1 - d);
  }
  for (; i < end; i += 2) {
    const a = w[i]!;
    const b = w[i + 1]!;
    h1 = Math.imul(h1 ^ a, 0x9e3779b1);
    h2 = Math.imul(h2 ^ b, 0x85ebca77);
    bad |= a | b | (nm1 - a) | (nm1 - b);
  }
  for (; i + 1 < n4; i += 2) {
    h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
    h2 = Math.imul(h2 ^ w[i + 1]!, 0x85ebca77);
  }
  if (i < n4) h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
  for (let b = n4 * 4; b < bytes.byteLength; b++) h1 = Math.imul(h1 ^ bytes[b]!, 0x9e3779b1);
  let h = h1 ^ Math.imul(h2, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  out[at] = h >>> 0;
  out[at + 1] = bad < 0 ? OUT_OF_RANGE : 0;
}

