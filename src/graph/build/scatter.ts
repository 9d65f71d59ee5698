/**
 * Builder phase 2: counting sort of the raw edges by source into a staging area.
 *
 * Every internal vertex owns the range [start, start + layoutDeg) of a position space that
 * follows internal id order; `cur` (indexed by key, so the raw lists are read as they are) holds
 * each vertex's next free position. Per edge: one cursor increment, one id lookup for the target,
 * one store (each in its own pass over a chunk); no call, no branch. Positions live in fixed-size
 * chunks (no buffer near the 4 GiB limit), and each raw chunk is dropped as soon as it has been
 * read, so the raw lists shrink while the staging area fills. Cursors are uint32 when the position space fits in 32 bits, float64
 * beyond (separate loops, so the common ones stay integer-only).
 */
import { CHUNK } from '../chunked.js';
import type { WeightArray, WeightType } from '../types.js';

const BITS = 20;
const MASK = CHUNK - 1;
if (CHUNK !== 1 << BITS) throw new Error('staging chunks must match edge-list chunks');

/** Positions [0, total) in chunks of CHUNK: neighbour ids and, when weighted, weights. */
export interface Staging {
  total: number;
  nbrs: (Uint32Array | undefined)[];
  weights: (WeightArray | undefined)[] | undefined;
}

export function allocStaging(total: number, wt: WeightType | undefined, shared: boolean): Staging {
  const nbrs: Uint32Array[] = [];
  const weights: WeightArray[] | undefined = wt === undefined ? undefined : [];
  const buf = (bytes: number): ArrayBufferLike => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  for (let at = 0; at < total; at += CHUNK) {
    const k = Math.min(CHUNK, total - at);
    nbrs.push(new Uint32Array(buf(4 * k)));
    weights?.push(wt === 'float32' ? new Float32Array(buf(4 * k)) : new Float64Array(buf(8 * k)));
  }
  return { total, nbrs, weights };
}

/** One thread's share of the raw edges: chunks dropped (set undefined) once scattered. */
export interface RawShare {
  src: (Uint32Array | undefined)[];
  dst: (Uint32Array | undefined)[];
  weights: (WeightArray | undefined)[] | undefined;
  /** Edges in each chunk. */
  lens: number[];
}

/**
 * Scatters every edge (s, d) of the share to position cur[s]++ as newId[d] (and, undirected,
 * (d, s) too), releasing each raw chunk once read.
 *
 * A chunk goes in separate passes: positions (cursor increments), renamed targets (id lookups),
 * then the stores. One fused loop is twice as slow on RMAT: its random stores into the staging
 * area stall the random loads of the next edges behind them.
 */
export function scatterShare(share: RawShare, cur: Uint32Array | Float64Array, newId: Uint32Array, directed: boolean, st: Staging): void {
  const tn = st.nbrs as Uint32Array[];
  const tw = st.weights as WeightArray[] | undefined;
  const W = share.weights;
  const narrow = cur instanceof Uint32Array;
  let k0 = 0;
  if (narrow) for (const k of share.lens) k0 = Math.max(k0, k);
  const P = new Uint32Array(k0);
  const Q = new Uint32Array(directed ? 0 : k0);
  const N = new Uint32Array(k0);
  for (let c = 0; c < share.lens.length; c++) {
    const s = share.src[c]!;
    const d = share.dst[c]!;
    const w = W !== undefined && tw !== undefined ? W[c]! : undefined;
    const k = share.lens[c]!;
    if (!narrow) scatterWide(s, d, w, k, cur, newId, directed, tn, w === undefined ? undefined : tw);
    else {
      if (directed) positions(s, k, cur, P);
      else positions2(s, d, k, cur, P, Q);
      renamed(d, k, newId, N);
      if (w === undefined) put(P, N, k, tn);
      else putW(P, N, w, k, tn, tw!);
      if (!directed) {
        renamed(s, k, newId, N);
        if (w === undefined) put(Q, N, k, tn);
        else putW(Q, N, w, k, tn, tw!);
      }
    }
    // Release what has been read: the raw lists shrink as the staging area fills.
    share.src[c] = undefined;
    share.dst[c] = undefined;
    if (W !== undefined) W[c] = undefined;
  }
}

/** P[i] = cur[s[i]]++. */
function positions(s: Uint32Array, k: number, cur: Uint32Array, P: Uint32Array): void {
  for (let i = 0; i < k; i++) P[i] = cur[s[i]!]!++;
}

/** Both ends of each edge, in edge order (the positions a fused loop would give). */
function positions2(s: Uint32Array, d: Uint32Array, k: number, cur: Uint32Array, P: Uint32Array, Q: Uint32Array): void {
  for (let i = 0; i < k; i++) {
    P[i] = cur[s[i]!]!++;
    Q[i] = cur[d[i]!]!++;
  }
}

/** N[i] = newId[d[i]]. */
function renamed(d: Uint32Array, k: number, newId: Uint32Array, N: Uint32Array): void {
  for (let i = 0; i < k; i++) N[i] = newId[d[i]!]!;
}

function put(P: Uint32Array, N: Uint32Array, k: number, tn: Uint32Array[]): void {
  for (let i = 0; i < k; i++) {
    const p = P[i]!;
    tn[p >>> BITS]![p & MASK] = N[i]!;
  }
}

function putW(P: Uint32Array, N: Uint32Array, w: WeightArray, k: number, tn: Uint32Array[], tw: WeightArray[]): void {
  for (let i = 0; i < k; i++) {
    const p = P[i]!;
    tn[p >>> BITS]![p & MASK] = N[i]!;
    tw[p >>> BITS]![p & MASK] = w[i]!;
  }
}

/** Positions beyond 2^32: float64 cursors, chunk index by division. */
function scatterWide(
  s: Uint32Array,
  d: Uint32Array,
  w: WeightArray | undefined,
  k: number,
  cur: Float64Array,
  newId: Uint32Array,
  directed: boolean,
  tn: Uint32Array[],
  tw: WeightArray[] | undefined,
): void {
  for (let i = 0; i < k; i++) {
    const a = s[i]!;
    const b = d[i]!;
    const p = cur[a]!;
    cur[a] = p + 1;
    const c = Math.floor(p / CHUNK);
    tn[c]![p - c * CHUNK] = newId[b]!;
    if (tw !== undefined) tw[c]![p - c * CHUNK] = w![i]!;
    if (!directed) {
      const q = cur[b]!;
      cur[b] = q + 1;
      const e = Math.floor(q / CHUNK);
      tn[e]![q - e * CHUNK] = newId[a]!;
      if (tw !== undefined) tw[e]![q - e * CHUNK] = w![i]!;
    }
  }
}

/** Copies staging positions [pos, pos + len) into nbrs[0..len) (and weights). */
export function gather(st: Staging, pos: number, len: number, nbrs: Uint32Array, weights: WeightArray | undefined): void {
  for (let at = 0; at < len; ) {
    const p = pos + at;
    const c = Math.floor(p / CHUNK);
    const off = p - c * CHUNK;
    const k = Math.min(len - at, CHUNK - off);
    nbrs.set(st.nbrs[c]!.subarray(off, off + k), at);
    if (weights !== undefined) weights.set(st.weights![c]!.subarray(off, off + k), at);
    at += k;
  }
}

/**
 * Drops staging chunks c, c + 1, ... while they lie wholly before position `to`; returns the first
 * chunk kept. A thread calls it with the first chunk wholly inside its range.
 */
export function releaseUpTo(st: Staging, c: number, to: number): number {
  while (c < st.nbrs.length && Math.min((c + 1) * CHUNK, st.total) <= to) {
    st.nbrs[c] = undefined;
    if (st.weights) st.weights[c] = undefined;
    c++;
  }
  return c;
}

/** First staging chunk wholly at or after position `pos`. */
export const firstChunkFrom = (pos: number): number => Math.ceil(pos / CHUNK);
