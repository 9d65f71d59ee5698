/**
 * Builder: sorting and deduplicating one adjacency list in place.
 *
 * Short lists (most of them) use insertion sort, medium ones the built-in typed-array sort
 * (weighted: neighbour and position packed into one uint32 or float64 key), long ones an LSD
 * radix sort on the neighbour id (as many 11-bit digits as the id range needs: two passes up to
 * 2^22 vertices), weights moving along; the thresholds are where each wins on RMAT lists. Parallel edges keep
 * their smallest weight (what shortest paths use), so the order among equal ids does not matter.
 */
import type { WeightArray } from '../types.js';

/** Lists up to SHORT long use insertion sort, up to MEDIUM the built-in sort, longer radix sort. */
const SHORT = 16;
const MEDIUM = 512;
/** Packed weighted keys: neighbour * 2^POS_BITS + position (exact in a float64 up to 2^53). */
const POS = 2 ** 21;
const DIGIT = 11;

/** Running totals of what sortUnique dropped. */
export const dropped = { selfLoops: 0, duplicates: 0 };

/** Scratch for the radix sort, grown on demand and kept for the next list. */
let tmpA: Uint32Array = new Uint32Array(0);
let tmpW32: Float32Array = new Float32Array(0);
let tmpW64: Float64Array = new Float64Array(0);
const packed = new Float64Array(MEDIUM);
const packed32 = new Uint32Array(MEDIUM);
const hist = new Uint32Array(1 << DIGIT);

/** Drops the radix scratch (after a build). */
export function releaseScratch(): void {
  tmpA = new Uint32Array(0);
  tmpW32 = new Float32Array(0);
  tmpW64 = new Float64Array(0);
}

/**
 * Sorts nbrs[lo..hi) (weights alongside), removes self-loops (== v) and repeats, and writes the
 * result at nbrs[to..]. Returns the new length. to <= lo, so the write never overtakes the read.
 * `idBits`: bits of the largest possible id (radix passes). `inDeg` (shared, when given): raw
 * in-degrees, decremented for every edge dropped, so they end as the kept in-degrees (atomic:
 * threads share it; drops are few).
 */
export function sortUnique(
  nbrs: Uint32Array,
  weights: WeightArray | undefined,
  lo: number,
  hi: number,
  v: number,
  to: number,
  idBits: number,
  inDeg: Uint32Array | undefined,
): number {
  const len = hi - lo;
  if (len > 1) {
    if (len <= SHORT) {
      if (weights === undefined) insertionSort(nbrs, lo, hi);
      else insertionSortW(nbrs, weights, lo, hi);
    } else if (len <= MEDIUM) {
      if (weights === undefined) nbrs.subarray(lo, hi).sort();
      else packedSortW(nbrs, weights, lo, hi, idBits);
    } else if (weights === undefined) radixSort(nbrs, lo, hi, idBits);
    else radixSortW(nbrs, weights, lo, hi, idBits);
  }
  let j = to;
  let loops = 0;
  let dups = 0;
  if (weights === undefined) {
    let last = -1;
    for (let e = lo; e < hi; e++) {
      const u = nbrs[e]!;
      if (u === last) {
        dups++;
        if (inDeg !== undefined) Atomics.sub(inDeg, u, 1);
        continue;
      }
      if (u === v) {
        loops++;
        if (inDeg !== undefined) Atomics.sub(inDeg, u, 1);
        continue;
      }
      nbrs[j++] = u;
      last = u;
    }
  } else {
    let last = -1;
    for (let e = lo; e < hi; e++) {
      const u = nbrs[e]!;
      if (u === last) {
        dups++;
        if (inDeg !== undefined) Atomics.sub(inDeg, u, 1);
        if (weights[e]! < weights[j - 1]!) weights[j - 1] = weights[e]!;
        continue;
      }
      if (u === v) {
        loops++;
        if (inDeg !== undefined) Atomics.sub(inDeg, u, 1);
        continue;
      }
      nbrs[j] = u;
      weights[j] = weights[e]!;
      j++;
      last = u;
    }
  }
  dropped.selfLoops += loops;
  dropped.duplicates += dups;
  return j - to;
}

function insertionSort(a: Uint32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = a[i]!;
    let k = i - 1;
    while (k >= lo && a[k]! > x) {
      a[k + 1] = a[k]!;
      k--;
    }
    a[k + 1] = x;
  }
}

function insertionSortW(a: Uint32Array, w: WeightArray, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = a[i]!;
    const y = w[i]!;
    let k = i - 1;
    while (k >= lo && a[k]! > x) {
      a[k + 1] = a[k]!;
      w[k + 1] = w[k]!;
      k--;
    }
    a[k + 1] = x;
    w[k + 1] = y;
  }
}

/**
 * Sorts a[lo..hi) (hi - lo <= MEDIUM) with w alongside, through packed keys: neighbour and
 * position in a uint32 when both fit (1.6x faster to sort than float64 keys), else a float64.
 */
function packedSortW(a: Uint32Array, w: WeightArray, lo: number, hi: number, idBits: number): void {
  const len = hi - lo;
  if (tmpW64.length < len) tmpW64 = new Float64Array(Math.max(len, 2 * tmpW64.length, MEDIUM));
  const posBits = 32 - Math.clz32(len - 1);
  if (idBits + posBits <= 32) {
    const mask = (1 << posBits) - 1;
    for (let i = 0; i < len; i++) packed32[i] = (a[lo + i]! << posBits) | i;
    const keys = packed32.subarray(0, len).sort();
    for (let i = 0; i < len; i++) {
      const x = keys[i]!;
      a[lo + i] = x >>> posBits;
      tmpW64[i] = w[lo + (x & mask)]!;
    }
  } else {
    for (let i = 0; i < len; i++) packed[i] = a[lo + i]! * POS + i;
    const keys = packed.subarray(0, len).sort();
    for (let i = 0; i < len; i++) {
      const x = keys[i]!;
      const u = Math.floor(x / POS);
      a[lo + i] = u;
      tmpW64[i] = w[lo + x - u * POS]!;
    }
  }
  w.set(tmpW64.subarray(0, len), lo);
}

function passesFor(bits: number): number {
  return Math.max(1, Math.ceil(bits / DIGIT));
}

/** LSD radix sort of a[lo..hi) by `bits`-bit keys. */
function radixSort(a: Uint32Array, lo: number, hi: number, bits: number): void {
  const len = hi - lo;
  if (tmpA.length < len) tmpA = new Uint32Array(Math.max(len, 2 * tmpA.length));
  const passes = passesFor(bits);
  const digit = Math.ceil(bits / passes);
  const mask = (1 << digit) - 1;
  let from = a;
  let fromLo = lo;
  let to = tmpA;
  let toLo = 0;
  for (let p = 0, shift = 0; p < passes; p++, shift += digit) {
    hist.fill(0, 0, mask + 1);
    for (let i = fromLo; i < fromLo + len; i++) hist[(from[i]! >>> shift) & mask]!++;
    let acc = toLo;
    for (let d = 0; d <= mask; d++) {
      const c = hist[d]!;
      hist[d] = acc;
      acc += c;
    }
    for (let i = fromLo; i < fromLo + len; i++) {
      const x = from[i]!;
      to[hist[(x >>> shift) & mask]!++] = x;
    }
    const t = from;
    from = to;
    to = t;
    const tl = fromLo;
    fromLo = toLo;
    toLo = tl;
  }
  if (from !== a) a.set(from.subarray(fromLo, fromLo + len), lo);
}

/** LSD radix sort of a[lo..hi) with w[lo..hi) moving along. */
function radixSortW(a: Uint32Array, w: WeightArray, lo: number, hi: number, bits: number): void {
  const len = hi - lo;
  if (tmpA.length < len) tmpA = new Uint32Array(Math.max(len, 2 * tmpA.length));
  let tw: WeightArray;
  if (w instanceof Float32Array) {
    if (tmpW32.length < len) tmpW32 = new Float32Array(Math.max(len, 2 * tmpW32.length));
    tw = tmpW32;
  } else {
    if (tmpW64.length < len) tmpW64 = new Float64Array(Math.max(len, 2 * tmpW64.length));
    tw = tmpW64;
  }
  const passes = passesFor(bits);
  const digit = Math.ceil(bits / passes);
  const mask = (1 << digit) - 1;
  let from = a;
  let fromW = w;
  let fromLo = lo;
  let to = tmpA;
  let toW = tw;
  let toLo = 0;
  for (let p = 0, shift = 0; p < passes; p++, shift += digit) {
    hist.fill(0, 0, mask + 1);
    for (let i = fromLo; i < fromLo + len; i++) hist[(from[i]! >>> shift) & mask]!++;
    let acc = toLo;
    for (let d = 0; d <= mask; d++) {
      const c = hist[d]!;
      hist[d] = acc;
      acc += c;
    }
    for (let i = fromLo; i < fromLo + len; i++) {
      const x = from[i]!;
      const at = hist[(x >>> shift) & mask]!++;
      to[at] = x;
      toW[at] = fromW[i]!;
    }
    [from, to] = [to, from];
    [fromW, toW] = [toW, fromW];
    [fromLo, toLo] = [toLo, fromLo];
  }
  if (from !== a) {
    a.set(from.subarray(fromLo, fromLo + len), lo);
    w.set(fromW.subarray(fromLo, fromLo + len), lo);
  }
}
