/**
 * RawEdges (original ids) -> Graph (pages in internal ids).
 *
 * 1. densify: original ids -> dense ids in ascending original order;
 * 2. renumber by total degree, descending (Graphie-style renaming: degree-homogeneous pages, so
 *    TOTEM's HIGH/LOW partitioning is a cut at a page boundary);
 * 3. scatter the edges into out-pages (counting sort by source; both ways when undirected), then
 *    sort each list in place, dropping self-loops and repeated edges (keeping the smallest weight);
 * 4. directed graphs: scatter out-pages into in-pages (lists come out sorted by source).
 * Two random-access passes in all; peak memory is the raw edge list (8 B/edge) plus one page set
 * (4 B/edge), plus weights.
 */
import { TesseraError } from '../errors.js';
import { CHUNK, type U32List, type WeightList } from './chunked.js';
import { PageFiller, layoutPages, allocPage } from './pages.js';
import type { Graph, Page, PageSet, RawEdges, WeightArray, WeightType } from './types.js';
import { DEFAULT_PAGE_EDGES } from './types.js';

export interface BuildOptions {
  /** Target edges per page (default 2^20). */
  pageEdges?: number;
  /** 'degree' (default): renumber by descending degree; 'none': keep ascending original order. */
  renumber?: 'degree' | 'none';
  /** Override the input's directedness (false: every edge is stored both ways). */
  directed?: boolean;
  /** Store weights as float32 or float64 (default: the input's type); 'none' drops them. */
  weightType?: WeightType | 'none';
}

export interface BuildStats {
  selfLoopsDropped: number;
  duplicatesDropped: number;
}

export type BuiltGraph = Graph & { readonly build: BuildStats };

export function buildGraph(raw: RawEdges, opts: BuildOptions = {}): BuiltGraph {
  const pageEdges = opts.pageEdges ?? DEFAULT_PAGE_EDGES;
  if (!Number.isInteger(pageEdges) || pageEdges < 1) {
    throw new TesseraError(`page size ${pageEdges} is not a positive integer`, { key: 'pageEdges', fix: 'use e.g. 1048576' });
  }
  const directed = opts.directed ?? raw.directed;
  const wt: WeightType | undefined =
    opts.weightType === 'none' || raw.weights === undefined ? undefined : (opts.weightType ?? raw.weightType ?? 'float64');
  const weights = wt === undefined ? undefined : raw.weights;
  const m = raw.src.length;

  const distinct = densify(raw);
  const n = distinct.length;

  // Raw degrees steer the renumbering and the out-page layout.
  const outRaw = new Uint32Array(n);
  const deg = new Uint32Array(n);
  countInto(raw.src, outRaw);
  countInto(raw.dst, deg);
  for (let v = 0; v < n; v++) {
    deg[v]! += outRaw[v]!;
    // Undirected: every edge is stored at both ends.
    if (!directed) outRaw[v] = deg[v]!;
  }
  const newId = opts.renumber === 'none' ? identity(n) : degreeOrder(deg);
  remap(raw.src, newId);
  remap(raw.dst, newId);
  const layoutDeg = new Uint32Array(n);
  for (let v = 0; v < n; v++) layoutDeg[newId[v]!] = outRaw[v]!;

  const out0 = layoutPages('out', layoutDeg, pageEdges, wt);
  scatterRaw(raw, out0, pageEdges, directed, weights);
  const stats: BuildStats = { selfLoopsDropped: 0, duplicatesDropped: 0 };
  const outDegree = new Uint32Array(new SharedArrayBuffer(4 * n));
  const out = sortDedupe(out0, outDegree, stats);

  let inSet: PageSet = out;
  let inDegree = outDegree;
  if (directed) {
    inDegree = new Uint32Array(new SharedArrayBuffer(4 * n));
    for (const p of out.pages) {
      const nb = p.nbrs;
      for (let e = 0; e < p.edges; e++) inDegree[nb[e]!]!++;
    }
    inSet = layoutPages('in', inDegree, pageEdges, wt);
    transposeInto(out, inSet, pageEdges);
  }

  const toOriginal = new Uint32Array(new SharedArrayBuffer(4 * n));
  const byOriginal = new Uint32Array(new SharedArrayBuffer(4 * n));
  for (let d = 0; d < n; d++) {
    toOriginal[newId[d]!] = distinct[d]!;
    byOriginal[d] = newId[d]!;
  }
  let numEdges = 0;
  for (const p of out.pages) numEdges += p.edges;
  if (m === 0 && n === 0) {
    throw new TesseraError('the graph has no vertices and no edges', { file: raw.source, fix: 'check that the input is not empty' });
  }
  return {
    numVertices: n,
    numEdges,
    directed,
    weightType: wt,
    out,
    in: inSet,
    outDegree,
    inDegree,
    ids: { toOriginal, byOriginal },
    pageEdges,
    source: raw.source,
    build: stats,
  };
}

/**
 * Replaces original ids in src/dst by dense ids (rank among the distinct original ids, so dense
 * order = original order) and returns the distinct original ids ascending.
 */
function densify(raw: RawEdges): Uint32Array {
  const lists = [raw.src, raw.dst, ...(raw.vertices ? [raw.vertices] : [])];
  let max = -1;
  let count = 0;
  for (const l of lists) {
    max = Math.max(max, maxOf(l));
    count += l.length;
  }
  if (max < 0) return new Uint32Array(0);
  if (max + 1 <= 8 * count + (1 << 24)) {
    // Bitmap of present ids + per-word rank: memory ~ (max/32)*8 bytes.
    const words = (max >>> 5) + 1;
    const bits = new Uint32Array(words);
    for (const l of lists) markBits(l, bits);
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
        distinct[j++] = (w << 5) + 31 - Math.clz32(t);
        b ^= t;
      }
    }
    rankInPlace(raw.src, bits, rank);
    rankInPlace(raw.dst, bits, rank);
    return distinct;
  }
  // Sparse id space: sort all ids, unique, binary search.
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
  for (const l of [raw.src, raw.dst]) {
    for (let c = 0; c < l.chunks.length; c++) {
      const ch = l.chunks[c]!;
      const k = Math.min(CHUNK, l.length - c * CHUNK);
      for (let i = 0; i < k; i++) ch[i] = lowerBound(distinct, ch[i]!);
    }
  }
  return distinct;
}

function maxOf(l: U32List): number {
  let max = -1;
  for (let c = 0; c < l.chunks.length; c++) {
    const ch = l.chunks[c]!;
    const k = Math.min(CHUNK, l.length - c * CHUNK);
    for (let i = 0; i < k; i++) if (ch[i]! > max) max = ch[i]!;
  }
  return max;
}

function markBits(l: U32List, bits: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) {
    const ch = l.chunks[c]!;
    const k = Math.min(CHUNK, l.length - c * CHUNK);
    for (let i = 0; i < k; i++) {
      const x = ch[i]!;
      bits[x >>> 5]! |= 1 << (x & 31);
    }
  }
}

function rankInPlace(l: U32List, bits: Uint32Array, rank: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) {
    const ch = l.chunks[c]!;
    const k = Math.min(CHUNK, l.length - c * CHUNK);
    for (let i = 0; i < k; i++) {
      const x = ch[i]!;
      const w = x >>> 5;
      ch[i] = rank[w]! + popcount(bits[w]! & ((1 << (x & 31)) - 1));
    }
  }
}

function countInto(l: U32List, deg: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) {
    const ch = l.chunks[c]!;
    const k = Math.min(CHUNK, l.length - c * CHUNK);
    for (let i = 0; i < k; i++) deg[ch[i]!]!++;
  }
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function identity(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** newId[v]: position of v when sorted by degree descending, ties by id (stable counting sort). */
function degreeOrder(deg: Uint32Array): Uint32Array {
  const n = deg.length;
  let maxDeg = 0;
  for (let v = 0; v < n; v++) if (deg[v]! > maxDeg) maxDeg = deg[v]!;
  const start = new Float64Array(maxDeg + 2);
  for (let v = 0; v < n; v++) start[maxDeg - deg[v]! + 1]!++;
  for (let d = 1; d <= maxDeg + 1; d++) start[d]! += start[d - 1]!;
  const newId = new Uint32Array(n);
  for (let v = 0; v < n; v++) newId[v] = start[maxDeg - deg[v]!]!++;
  return newId;
}

function remap(l: U32List, newId: Uint32Array): void {
  for (let c = 0; c < l.chunks.length; c++) {
    const ch = l.chunks[c]!;
    const k = Math.min(CHUNK, l.length - c * CHUNK);
    for (let i = 0; i < k; i++) ch[i] = newId[ch[i]!]!;
  }
}

/** Scatters raw edges into out-pages; frees each raw chunk once consumed, so the edge list shrinks as pages fill. */
function scatterRaw(raw: RawEdges, set: PageSet, pageEdges: number, directed: boolean, weights: WeightList | undefined): void {
  const f = new PageFiller(set, pageEdges);
  const srcChunks = raw.src.chunks;
  const dstChunks = raw.dst.chunks;
  const wChunks = weights?.chunks;
  const m = raw.src.length;
  for (let c = 0; c < srcChunks.length; c++) {
    const s = srcChunks[c]!;
    const d = dstChunks[c]!;
    const k = Math.min(CHUNK, m - c * CHUNK);
    if (wChunks === undefined) {
      for (let i = 0; i < k; i++) {
        f.placeNbr(s[i]!, d[i]!);
        if (!directed) f.placeNbr(d[i]!, s[i]!);
      }
    } else {
      const w = wChunks[c]!;
      for (let i = 0; i < k; i++) {
        const wi = w[i]!;
        if (!(wi >= 0) && !(wi < 0)) throw new TesseraError(`edge ${c * CHUNK + i + 1} has a NaN weight`, { file: raw.source });
        f.place(s[i]!, d[i]!, wi);
        if (!directed) f.place(d[i]!, s[i]!, wi);
      }
    }
    // Release consumed chunks: keeps peak memory near 8 B/edge + one page set.
    (srcChunks as unknown as (Uint32Array | undefined)[])[c] = undefined;
    (dstChunks as unknown as (Uint32Array | undefined)[])[c] = undefined;
    if (wChunks) (wChunks as unknown as (Float64Array | undefined)[])[c] = undefined;
  }
  raw.src.clear();
  raw.dst.clear();
  weights?.clear();
}

/** Scatters every edge (v -> nbr) of `from` into `to` as (nbr -> v), vertices ascending. */
function transposeInto(from: PageSet, to: PageSet, pageEdges: number): void {
  const f = new PageFiller(to, pageEdges);
  for (const p of from.pages) {
    const { offsets, nbrs, weights } = p;
    for (let v = p.vBegin; v < p.vEnd; v++) {
      const lo = offsets[v - p.vBegin]!;
      const hi = offsets[v - p.vBegin + 1]!;
      if (weights === undefined) for (let e = lo; e < hi; e++) f.placeNbr(nbrs[e]!, v);
      else for (let e = lo; e < hi; e++) f.place(nbrs[e]!, v, weights[e]!);
    }
  }
}

/**
 * Sorts every vertex's list, drops self-loops and repeated neighbours (keeping the smallest weight
 * of parallel edges: what shortest paths use), and rewrites each page into an exact-size buffer.
 * The pieces of a split vertex are merged first, so duplicates across their borders are caught.
 */
function sortDedupe(set: PageSet, degree: Uint32Array, stats: BuildStats): PageSet {
  const pages: Page[] = [];
  const pe = set.pages;
  for (let i = 0; i < pe.length; ) {
    const p = pe[i]!;
    const wt = weightTypeOf(p.weights);
    if (!p.split) {
      let kept = 0;
      const { offsets, nbrs, weights } = p;
      for (let k = 0; k < p.vEnd - p.vBegin; k++) {
        const v = p.vBegin + k;
        const lo = offsets[k]!;
        const hi = offsets[k + 1]!;
        const d = sortUnique(nbrs, weights, lo, hi, v, kept, stats);
        offsets[k] = kept;
        kept += d;
        degree[v] = d;
      }
      offsets[p.vEnd - p.vBegin] = kept;
      const np = allocPage(pages.length, p.vBegin, p.vEnd, kept, false, wt);
      np.offsets.set(offsets);
      np.nbrs.set(nbrs.subarray(0, kept));
      if (weights) np.weights!.set(weights.subarray(0, kept));
      pages.push(np);
      i++;
      continue;
    }
    // A split vertex: gather its pieces, sort them as one list, cut it again into pages.
    let j = i;
    let total = 0;
    while (j < pe.length && pe[j]!.split && pe[j]!.vBegin === p.vBegin) total += pe[j++]!.edges;
    const v = p.vBegin;
    const nbrs = new Uint32Array(total);
    const weights = p.weights ? (p.weights instanceof Float32Array ? new Float32Array(total) : new Float64Array(total)) : undefined;
    for (let at = 0, k = i; k < j; k++) {
      nbrs.set(pe[k]!.nbrs, at);
      weights?.set(pe[k]!.weights!, at);
      at += pe[k]!.edges;
    }
    const d = sortUnique(nbrs, weights, 0, total, v, 0, stats);
    degree[v] = d;
    const per = Math.ceil(d / (j - i)) || 1;
    for (let at = 0; at < d; at += per) {
      const k = Math.min(per, d - at);
      const np = allocPage(pages.length, v, v + 1, k, true, wt);
      np.offsets[1] = k;
      np.nbrs.set(nbrs.subarray(at, at + k));
      if (weights) np.weights!.set(weights.subarray(at, at + k));
      pages.push(np);
    }
    if (d === 0) {
      const np = allocPage(pages.length, v, v + 1, 0, false, wt);
      pages.push(np);
    }
    i = j;
  }
  const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * degree.length));
  for (let k = pages.length - 1; k >= 0; k--) for (let v = pages[k]!.vBegin; v < pages[k]!.vEnd; v++) firstPageOf[v] = k;
  return { orientation: set.orientation, pages, firstPageOf };
}

function weightTypeOf(w: WeightArray | undefined): WeightType | undefined {
  return w === undefined ? undefined : w instanceof Float32Array ? 'float32' : 'float64';
}

/**
 * Sorts nbrs[lo..hi) (weights alongside), removes self-loops (== v) and repeats, and writes the
 * result at nbrs[to..]. Returns the new length. to <= lo, so the write never overtakes the read.
 */
function sortUnique(nbrs: Uint32Array, weights: WeightArray | undefined, lo: number, hi: number, v: number, to: number, stats: BuildStats): number {
  const len = hi - lo;
  if (len > 1) {
    if (weights === undefined) {
      if (len <= 24) insertionSort(nbrs, lo, hi);
      else nbrs.subarray(lo, hi).sort();
    } else if (len <= 24) insertionSortW(nbrs, weights, lo, hi);
    else sortWithWeights(nbrs, weights, lo, hi);
  }
  let j = to;
  for (let e = lo; e < hi; e++) {
    const u = nbrs[e]!;
    if (u === v) {
      stats.selfLoopsDropped++;
      continue;
    }
    if (j > to && nbrs[j - 1] === u) {
      stats.duplicatesDropped++;
      if (weights !== undefined && weights[e]! < weights[j - 1]!) weights[j - 1] = weights[e]!;
      continue;
    }
    nbrs[j] = u;
    if (weights !== undefined) weights[j] = weights[e]!;
    j++;
  }
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

function sortWithWeights(a: Uint32Array, w: WeightArray, lo: number, hi: number): void {
  const idx = Array.from({ length: hi - lo }, (_, i) => lo + i);
  idx.sort((x, y) => a[x]! - a[y]! || w[x]! - w[y]!);
  const na = idx.map((i) => a[i]!);
  const nw = idx.map((i) => w[i]!);
  a.set(na, lo);
  w.set(nw, lo);
}
