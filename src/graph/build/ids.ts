/**
 * Builder phase 1: from original ids to internal ids.
 *
 * Edges are counted in a "key" space: the original ids themselves when they are dense enough
 * (max id + 1 at most about the number of edges: generators, most files), so the raw lists are
 * never rewritten; otherwise the raw lists are first rewritten in place to dense ranks (bitmap +
 * rank, or sort + binary search for very sparse ids) and the ranks are the keys. Present keys, in
 * ascending order, are the graph's vertices in ascending original order.
 *
 * Degrees are counted with one random increment per endpoint into byte counters (a carry into a
 * uint32 table every 256): the tables are 4x smaller than uint32 counters, so far more of them
 * stays in cache, which is what this pass is bound by. Each thread counts its share of the edges
 * into tables of its own; the threads then sum them by key range. A stable counting sort by total
 * raw degree, descending (ties by original id), gives the internal ids (Graphie-style renaming).
 */
import { TesseraError } from '../../errors.js';
import { CHUNK, type U32List } from '../chunked.js';
import { lowerBound } from '../pages.js';
import type { WeightArray } from '../types.js';

/** newId of a key that is no vertex. */
export const ABSENT = 0xffffffff;

/** The key space of a raw edge list (after densify, when ids were sparse). */
export interface KeySpace {
  keys: number;
  /** Keys are the original ids (so some keys may be absent). */
  direct: boolean;
  /** Original id of each key when not direct. */
  keyToOriginal: Uint32Array | undefined;
}

/** Raw endpoint counts of one thread's share: lo byte + carries into hi. */
export interface CountTables {
  outLo: Uint8Array;
  outHi: Uint32Array;
  /** Same arrays as out* when undirected (both endpoints count towards the stored list). */
  inLo: Uint8Array;
  inHi: Uint32Array;
}

export interface IdPlan extends KeySpace {
  /** Number of vertices (present keys). */
  n: number;
  /** Internal id of each key, ABSENT for keys that are no vertex. */
  newId: Uint32Array;
  /**
   * Raw edges stored at each internal id (source count, or source + target count when
   * undirected): the pre-deduplication length of its out-list, which lays out the out-pages.
   */
  layoutDeg: Uint32Array;
  /** Sum of layoutDeg: staging positions. */
  total: number;
  /** Directed: raw in-degree by internal id (shared; the builder takes dropped edges off). */
  rawIn: Uint32Array | undefined;
}

/** Largest of ch[0..k), -1 when k is 0. */
function chunkMax(ch: Uint32Array, k: number): number {
  if (k === 0) return -1;
  let m = 0;
  for (let i = 0; i < k; i++) {
    const x = ch[i]!;
    if (x > m) m = x;
  }
  return m;
}

/** Largest value in a list, -1 when empty. */
export function maxOf(l: U32List): number {
  let max = -1;
  for (let c = 0; c < l.chunks.length; c++) max = Math.max(max, chunkMax(l.chunks[c]!, Math.min(CHUNK, l.length - c * CHUNK)));
  return max;
}

/**
 * One thread's share of the first look at the raw edges (chunks c hold lens[c] edges, the first
 * being edge base + c * CHUNK): the largest id of src and dst (-1: none) and the first edge with a
 * NaN weight (-1: none).
 */
export function scanChunks(src: Uint32Array[], dst: Uint32Array[], w: WeightArray[] | undefined, lens: number[], base: number): { max: number; nan: number } {
  let nan = -1;
  for (let c = 0; w !== undefined && c < lens.length && nan < 0; c++) {
    const ch = w[c]!;
    const k = lens[c]!;
    for (let i = 0; i < k; i++) {
      const x = ch[i]!;
      if (x !== x) {
        nan = base + c * CHUNK + i;
        break;
      }
    }
  }
  let max = -1;
  for (let c = 0; c < lens.length; c++) max = Math.max(max, chunkMax(src[c]!, lens[c]!), chunkMax(dst[c]!, lens[c]!));
  return { max, nan };
}

/**
 * Whether ids up to `max` are dense enough to count by original id (m edges, nv listed vertices):
 * the tables by key then stay within a few bytes per edge.
 */
export function countsByOriginal(max: number, m: number, nv: number): boolean {
  return max + 1 <= m + nv + (1 << 16);
}

/**
 * Chooses the key space; densifies src/dst in place when ids are too sparse to count by.
 * `endsMax`: the largest id of src and dst when already known (scanChunks).
 */
export function keySpace(src: U32List, dst: U32List, vertices: U32List | undefined, endsMax?: number): KeySpace {
  const m = src.length;
  const nv = vertices?.length ?? 0;
  const max = Math.max(endsMax ?? Math.max(maxOf(src), maxOf(dst)), vertices ? maxOf(vertices) : -1);
  if (countsByOriginal(max, m, nv)) return { keys: max + 1, direct: true, keyToOriginal: undefined };
  const keyToOriginal = densify(src, dst, vertices, max);
  return { keys: keyToOriginal.length, direct: false, keyToOriginal };
}

export function allocCounts(keys: number, directed: boolean, shared: boolean): CountTables {
  const u8 = (): Uint8Array => (shared ? new Uint8Array(new SharedArrayBuffer(keys)) : new Uint8Array(keys));
  const u32 = (): Uint32Array => (shared ? new Uint32Array(new SharedArrayBuffer(4 * keys)) : new Uint32Array(keys));
  const outLo = u8();
  const outHi = u32();
  return directed ? { outLo, outHi, inLo: u8(), inHi: u32() } : { outLo, outHi, inLo: outLo, inHi: outHi };
}

/** Counts the sources and targets of chunks [0, lens.length) into t (a thread's share). */
export function countChunks(src: Uint32Array[], dst: Uint32Array[], lens: number[], t: CountTables): void {
  for (let c = 0; c < lens.length; c++) countBytes(src[c]!, lens[c]!, t.outLo, t.outHi);
  for (let c = 0; c < lens.length; c++) countBytes(dst[c]!, lens[c]!, t.inLo, t.inHi);
}

/** lo[x]++ for x in ch[0..k), carrying into hi[x] every 256. */
function countBytes(ch: Uint32Array, k: number, lo: Uint8Array, hi: Uint32Array): void {
  for (let i = 0; i < k; i++) {
    const x = ch[i]!;
    const y = (lo[x]! + 1) & 255;
    lo[x] = y;
    if (y === 0) hi[x]!++;
  }
}

/** Count of key k in a table pair. */
const countOf = (lo: Uint8Array, hi: Uint32Array, k: number): number => lo[k]! + hi[k]! * 256;

/** A table by key, shared with the helper threads when `shared`. */
function byKey(keys: number, shared: boolean): Uint32Array {
  return shared ? new Uint32Array(new SharedArrayBuffer(4 * keys)) : new Uint32Array(keys);
}

/**
 * The tables renumber fills by key range (degreesRange): total degree (ABSENT: no vertex) and,
 * until renumber replaces it with the internal id, the raw out count; and which keys a vertex list
 * names (only needed when keys can have gaps).
 */
export interface DegreeTables {
  deg: Uint32Array;
  newId: Uint32Array;
  listed: Uint8Array | undefined;
}

export function degreeTables(ks: KeySpace, vertices: U32List | undefined, shared: boolean): DegreeTables {
  let listed: Uint8Array | undefined;
  if (ks.direct && vertices !== undefined && vertices.length > 0) {
    listed = shared ? new Uint8Array(new SharedArrayBuffer(ks.keys)) : new Uint8Array(ks.keys);
    for (let c = 0; c < vertices.chunks.length; c++) {
      const ch = vertices.chunks[c]!;
      const k = Math.min(CHUNK, vertices.length - c * CHUNK);
      for (let i = 0; i < k; i++) listed[ch[i]!] = 1;
    }
  }
  return { deg: byKey(ks.keys, shared), newId: byKey(ks.keys, shared), listed };
}

/** What degreesRange found in its keys: vertices, a degree too large (or 0), the hubs' keys. */
export interface DegreeRange {
  n: number;
  over: number;
  /** Keys of degree HIST_DEGREES or more (with a histogram). */
  big: number[];
}

/** Degrees below this are placed by the threads, counted per degree; the others (hubs) are sorted. */
export const HIST_DEGREES = 1 << 16;

/** A histogram for degreesRange (shared with the helpers when `shared`). */
export function degreeHistogram(shared: boolean): Uint32Array {
  return byKey(HIST_DEGREES, shared);
}

/**
 * Fills the degree tables for keys [k0, k1) from every thread's counts; with `hist`, also counts
 * the vertices of each degree below HIST_DEGREES there and lists the others' keys (`big`).
 */
export function degreesRange(counts: CountTables[], tables: DegreeTables, direct: boolean, directed: boolean, k0: number, k1: number, hist?: Uint32Array): DegreeRange {
  const { deg, newId, listed } = tables;
  let n = 0;
  let over = 0;
  const big: number[] = [];
  for (let k = k0; k < k1; k++) {
    let o = 0;
    let d = 0;
    for (let t = 0; t < counts.length; t++) {
      const c = counts[t]!;
      o += countOf(c.outLo, c.outHi, k);
      if (directed) d += countOf(c.inLo, c.inHi, k);
    }
    d += o;
    if (d === 0 && direct && (listed === undefined || listed[k] === 0)) {
      deg[k] = ABSENT;
      continue;
    }
    if (d >= ABSENT && over === 0) over = d;
    deg[k] = d;
    newId[k] = o;
    if (hist !== undefined) {
      if (d < HIST_DEGREES) hist[d]!++;
      else big.push(k);
    }
    n++;
  }
  return { n, over, big };
}

/**
 * Internal ids from the degree tables (filled for every key by degreesRange, part i over keys
 * [keyAt[i], keyAt[i + 1]) with histogram hists[i]): with order 'degree' a stable counting sort by
 * degree, descending (ties keep ascending key = original order), else ascending keys. The hubs
 * (degree HIST_DEGREES and more) are placed here; next[i] says where part i's other keys go
 * (placeRange: next[d], the next position of a key of degree d; with 'none', next[0] its first
 * rank). plan.total counts the hubs' edges until placeRange's sums are added.
 */
export function renumber(ks: KeySpace, tables: DegreeTables, parts: DegreeRange[], hists: Uint32Array[], directed: boolean, order: 'degree' | 'none', shared: boolean): { plan: IdPlan; next: Float64Array[] } {
  const { deg, newId } = tables;
  let n = 0;
  for (const r of parts) {
    if (r.over > 0) throw new TesseraError(`a vertex has ${r.over} edge ends, more than the 2^32 - 2 a degree can hold`, { fix: 'split the input' });
    n += r.n;
  }
  const layoutDeg = new Uint32Array(new SharedArrayBuffer(4 * n));
  const rawIn = directed ? new Uint32Array(new SharedArrayBuffer(4 * n)) : undefined;
  const f64 = (length: number): Float64Array => new Float64Array(shared ? new SharedArrayBuffer(8 * length) : new ArrayBuffer(8 * length));
  const plan: IdPlan = { ...ks, n, newId, layoutDeg, total: 0, rawIn };
  if (order === 'none') {
    let r = 0;
    return { plan, next: parts.map((p) => f64(1).fill((r += p.n) - p.n)) };
  }
  const big = parts.flatMap((p) => p.big).sort((a, b) => deg[b]! - deg[a]! || a - b);
  for (let v = 0; v < big.length; v++) plan.total += place(tables, layoutDeg, rawIn, big[v]!, v);
  // Degrees descending, the parts in key order within one degree.
  const next = hists.map(() => f64(HIST_DEGREES));
  for (let d = HIST_DEGREES - 1, at = big.length; d >= 0; d--) {
    for (let i = 0; i < hists.length; i++) {
      next[i]![d] = at;
      at += hists[i]![d]!;
    }
  }
  return { plan, next };
}

/** Places keys [k0, k1) below HIST_DEGREES (renumber's next); returns their raw out counts' sum. */
export function placeRange(tables: DegreeTables, layoutDeg: Uint32Array, rawIn: Uint32Array | undefined, next: Float64Array, byDegree: boolean, k0: number, k1: number): number {
  const deg = tables.deg;
  let total = 0;
  let rank = next[0]!;
  for (let k = k0; k < k1; k++) {
    const d = deg[k]!;
    if (d === ABSENT) tables.newId[k] = ABSENT;
    else if (!byDegree) total += place(tables, layoutDeg, rawIn, k, rank++);
    else if (d < HIST_DEGREES) total += place(tables, layoutDeg, rawIn, k, next[d]!++);
  }
  return total;
}

/** Key k becomes vertex v (newId held its raw out count: directed, raw in = total - out); returns the out count. */
function place(tables: DegreeTables, layoutDeg: Uint32Array, rawIn: Uint32Array | undefined, k: number, v: number): number {
  const o = tables.newId[k]!;
  layoutDeg[v] = o;
  if (rawIn !== undefined) rawIn[v] = tables.deg[k]! - o;
  tables.newId[k] = v;
  return o;
}

/** renumber and placeRange on this thread (one part over every key). */
export function renumberHere(ks: KeySpace, tables: DegreeTables, range: DegreeRange, hist: Uint32Array, directed: boolean, order: 'degree' | 'none'): IdPlan {
  const { plan, next } = renumber(ks, tables, [range], [hist], directed, order, false);
  plan.total += placeRange(tables, plan.layoutDeg, plan.rawIn, next[0]!, order === 'degree', 0, ks.keys);
  return plan;
}

/**
 * Staging cursors of every thread, allocated (cur[t][key], filled by cursorsRange), and each
 * vertex's first staging position. Uint32 when every position fits in 32 bits (and `wide` is not
 * forced), else Float64.
 */
export function allocCursors(plan: IdPlan, threads: number, wide: boolean, shared: boolean): { curs: (Uint32Array | Float64Array)[]; start: Float64Array } {
  const { n, keys, layoutDeg } = plan;
  const start = new Float64Array(shared ? new SharedArrayBuffer(8 * n) : new ArrayBuffer(8 * n));
  for (let v = 0, acc = 0; v < n; v++) {
    start[v] = acc;
    acc += layoutDeg[v]!;
  }
  const narrow = !wide && plan.total <= 0xffffffff;
  const bytes = (narrow ? 4 : 8) * keys;
  const curs = Array.from({ length: threads }, () => {
    const buf = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    return narrow ? new Uint32Array(buf) : new Float64Array(buf);
  });
  return { curs, start };
}

/**
 * Cursors for keys [k0, k1): cur[t][key] = start of its vertex's range, after the edges of the
 * threads before t (which scatter the earlier raw chunks).
 */
export function cursorsRange(newId: Uint32Array, start: Float64Array, counts: CountTables[], curs: (Uint32Array | Float64Array)[], k0: number, k1: number): void {
  const T = counts.length;
  for (let k = k0; k < k1; k++) {
    const v = newId[k]!;
    if (v === ABSENT) continue;
    let p = start[v]!;
    curs[0]![k] = p;
    for (let t = 1; t < T; t++) {
      p += countOf(counts[t - 1]!.outLo, counts[t - 1]!.outHi, k);
      curs[t]![k] = p;
    }
  }
}

/**
 * Keys [k0, k1) of internal id -> original id, and of internal ids in ascending original order
 * (the range's first vertex is the r0-th).
 */
export function idMapsRange(newId: Uint32Array, keyToOriginal: Uint32Array | undefined, toOriginal: Uint32Array, byOriginal: Uint32Array, k0: number, k1: number, r0: number): void {
  for (let k = k0, r = r0; k < k1; k++) {
    const v = newId[k]!;
    if (v === ABSENT) continue;
    toOriginal[v] = keyToOriginal === undefined ? k : keyToOriginal[k]!;
    byOriginal[r++] = v;
  }
}

/**
 * Rewrites src and dst in place to dense ranks (rank among the distinct ids of src, dst and
 * vertices, so rank order = original order) and returns the distinct original ids ascending.
 */
function densify(src: U32List, dst: U32List, vertices: U32List | undefined, max: number): Uint32Array {
  const lists = vertices ? [src, dst, vertices] : [src, dst];
  let count = 0;
  for (const l of lists) count += l.length;
  if (max + 1 <= 8 * count + (1 << 24)) {
    // Bitmap of present ids + per-word rank: ~0.25 B per id of the range.
    const bits = new Uint32Array((max >>> 5) + 1);
    for (const l of lists) markBits(l, bits);
    const { rank, distinct } = ranksOf(bits);
    rankInPlace(src, bits, rank);
    rankInPlace(dst, bits, rank);
    return distinct;
  }
  // Very sparse ids: sort all ids, unique, binary search.
  const all = new Uint32Array(count);
  let j = 0;
  for (const l of lists) {
    for (let c = 0; c < l.chunks.length; c++) {
      const k = Math.min(CHUNK, l.length - c * CHUNK);
      all.set(l.chunks[c]!.subarray(0, k), j);
      j += k;
    }
  }
  all.sort();
  let u = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[u++] = all[i]!;
  const distinct = all.slice(0, u);
  for (const l of [src, dst]) {
    for (let c = 0; c < l.chunks.length; c++) {
      const ch = l.chunks[c]!;
      const k = Math.min(CHUNK, l.length - c * CHUNK);
      for (let i = 0; i < k; i++) ch[i] = lowerBound(distinct, ch[i]!);
    }
  }
  return distinct;
}

/** Per-word ranks of a bitmap of present ids (marks before each word), and the marked ids ascending. */
export function ranksOf(bits: Uint32Array): { rank: Uint32Array; distinct: Uint32Array } {
  const words = bits.length;
  const rank = new Uint32Array(words);
  let r = 0;
  for (let w = 0; w < words; w++) {
    rank[w] = r;
    r += popcount(bits[w]!);
  }
  const distinct = new Uint32Array(r);
  for (let w = 0, j = 0; w < words; w++) {
    let b = bits[w]!;
    while (b !== 0) {
      const t = b & -b;
      distinct[j++] = w * 32 + 31 - Math.clz32(t);
      b ^= t;
    }
  }
  return { rank, distinct };
}

function markBits(l: U32List, bits: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) markChunk(l.chunks[c]!, Math.min(CHUNK, l.length - c * CHUNK), bits);
}

/** Sets the bit of every id in ch[0..k). */
export function markChunk(ch: Uint32Array, k: number, bits: Uint32Array): void {
  for (let i = 0; i < k; i++) {
    const x = ch[i]!;
    bits[x >>> 5]! |= 1 << (x & 31);
  }
}

function rankInPlace(l: U32List, bits: Uint32Array, rank: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) rankChunk(l.chunks[c]!, Math.min(CHUNK, l.length - c * CHUNK), bits, rank);
}

/** Rewrites every id in ch[0..k) to its rank among the marked ids (rank[w]: marks before word w). */
export function rankChunk(ch: Uint32Array, k: number, bits: Uint32Array, rank: Uint32Array): void {
  for (let i = 0; i < k; i++) {
    const x = ch[i]!;
    const w = x >>> 5;
    ch[i] = rank[w]! + popcount(bits[w]! & ((1 << (x & 31)) - 1));
  }
}

/** The set bits of a 32-bit word. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

