/**
 * RawEdges (original ids) -> Graph (pages in internal ids).
 *
 * 1. densify: original ids -> dense ids in ascending original order;
 * 2. renumber by total degree, descending (Graphie-style renaming: degree-homogeneous pages, so
 *    TOTEM's HIGH/LOW partitioning is a cut at a page boundary);
 * 3. three counting-sort passes over pages, GAP-style: edges -> in-pages (unsorted lists),
 *    in-pages -> out-pages (lists come out sorted; self-loops and duplicates dropped there),
 *    out-pages -> in-pages (sorted, exact). Undirected graphs stop after the second pass.
 * Peak memory is the raw edge list (8 B/edge) plus one page set (4 B/edge), plus weights.
 */
import { TesseraError } from '../errors.js';
import { CHUNK, type U32List, type WeightList } from './chunked.js';
import { PageFiller, degreesOf, layoutPages, allocPage } from './pages.js';
import type { Graph, Page, PageSet, RawEdges, WeightType } from './types.js';
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

  // Degrees before dedupe steer the renumbering and the first layout.
  const deg = new Uint32Array(n);
  raw.src.forEachChunk((c, k) => {
    for (let i = 0; i < k; i++) deg[c[i]!]!++;
  });
  raw.dst.forEachChunk((c, k) => {
    for (let i = 0; i < k; i++) deg[c[i]!]!++;
  });
  const newId = opts.renumber === 'none' ? identity(n) : degreeOrder(deg);
  remap(raw.src, newId);
  remap(raw.dst, newId);

  // Pass 1: edges -> pages grouped by destination (both ends when undirected).
  const deg1 = new Uint32Array(n);
  if (directed) {
    raw.dst.forEachChunk((c, k) => {
      for (let i = 0; i < k; i++) deg1[c[i]!]!++;
    });
  } else {
    for (let v = 0; v < n; v++) deg1[newId[v]!] = deg[v]!;
  }
  const in1 = layoutPages('in', deg1, pageEdges, wt);
  scatterRaw(raw, in1, pageEdges, directed, weights);

  // Pass 2: by-destination pages -> out-pages, sorted by target; drop self-loops and duplicates.
  const degOut = degreesFromScatter(in1, n);
  const out0 = layoutPages('out', degOut, pageEdges, wt);
  transposeInto(in1, out0, pageEdges);
  const stats: BuildStats = { selfLoopsDropped: 0, duplicatesDropped: 0 };
  const out = compact(out0, stats);
  const outDegree = degreesOf(out, n);

  let inSet: PageSet = out;
  let inDegree = outDegree;
  if (directed) {
    // Pass 3: out-pages -> in-pages, lists sorted by source.
    inDegree = degreesFromScatter(out, n);
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
  let max = -1;
  let count = raw.src.length * 2;
  const scanMax = (l: U32List): void =>
    l.forEachChunk((c, k) => {
      for (let i = 0; i < k; i++) if (c[i]! > max) max = c[i]!;
    });
  scanMax(raw.src);
  scanMax(raw.dst);
  if (raw.vertices) {
    scanMax(raw.vertices);
    count += raw.vertices.length;
  }
  if (max < 0) return new Uint32Array(0);
  const lists = [raw.src, raw.dst, ...(raw.vertices ? [raw.vertices] : [])];
  if (max + 1 <= 8 * count + (1 << 24)) {
    // Bitmap of present ids + per-word rank: memory ~ (max/32)*8 bytes.
    const words = (max >>> 5) + 1;
    const bits = new Uint32Array(words);
    for (const l of lists)
      l.forEachChunk((c, k) => {
        for (let i = 0; i < k; i++) bits[c[i]! >>> 5]! |= 1 << (c[i]! & 31);
      });
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
    const toDense = (x: number): number => rank[x >>> 5]! + popcount(bits[x >>> 5]! & ((1 << (x & 31)) - 1));
    for (const l of [raw.src, raw.dst])
      l.forEachChunk((c, k) => {
        for (let i = 0; i < k; i++) c[i] = toDense(c[i]!);
      });
    return distinct;
  }
  // Sparse id space: sort all ids, unique, binary search.
  const all = new Uint32Array(count);
  let j = 0;
  for (const l of lists)
    l.forEachChunk((c, k) => {
      all.set(c.subarray(0, k), j);
      j += k;
    });
  all.sort();
  let u = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[u++] = all[i]!;
  const distinct = all.slice(0, u);
  for (const l of [raw.src, raw.dst])
    l.forEachChunk((c, k) => {
      for (let i = 0; i < k; i++) c[i] = lowerBound(distinct, c[i]!);
    });
  return distinct;
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
  l.forEachChunk((c, k) => {
    for (let i = 0; i < k; i++) c[i] = newId[c[i]!]!;
  });
}

/** Pass 1 scatter: frees each raw chunk once consumed, so the edge list shrinks as pages fill. */
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
        f.placeNbr(d[i]!, s[i]!);
        if (!directed) f.placeNbr(s[i]!, d[i]!);
      }
    } else {
      const w = wChunks[c]!;
      for (let i = 0; i < k; i++) {
        const wi = w[i]!;
        if (!(wi >= 0) && !(wi < 0)) throw new TesseraError(`edge ${c * CHUNK + i + 1} has a NaN weight`, { file: raw.source });
        f.place(d[i]!, s[i]!, wi);
        if (!directed) f.place(s[i]!, d[i]!, wi);
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

/** Degree of each neighbour id in a page set (what the transposed set's degrees will be). */
function degreesFromScatter(set: PageSet, n: number): Uint32Array {
  const deg = new Uint32Array(new SharedArrayBuffer(4 * n));
  for (const p of set.pages) {
    const nb = p.nbrs;
    for (let e = 0; e < p.edges; e++) deg[nb[e]!]!++;
  }
  return deg;
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
 * Drops self-loops and repeated neighbours from sorted lists (keeping the smallest weight of a
 * repeated edge). Pages are rewritten into exact-size buffers; split pages of one vertex share
 * the "last neighbour" so duplicates across their border are caught.
 */
function compact(set: PageSet, stats: BuildStats): PageSet {
  const pages: Page[] = [];
  let lastVertex = -1;
  let last = -1;
  let lastPage: Page | undefined;
  let lastPos = -1;
  for (const p of set.pages) {
    const { offsets, nbrs, weights } = p;
    const newOff = new Uint32Array(p.vEnd - p.vBegin + 1);
    const keep = new Uint8Array(p.edges);
    let kept = 0;
    for (let v = p.vBegin; v < p.vEnd; v++) {
      const lo = offsets[v - p.vBegin]!;
      const hi = offsets[v - p.vBegin + 1]!;
      if (v !== lastVertex) {
        lastVertex = v;
        last = -1;
      }
      for (let e = lo; e < hi; e++) {
        const u = nbrs[e]!;
        if (u === v) {
          stats.selfLoopsDropped++;
          continue;
        }
        if (u === last) {
          stats.duplicatesDropped++;
          if (weights !== undefined) {
            // Keep the minimum weight of parallel edges (what shortest paths would use).
            const target = lastPage === undefined ? weights : lastPage.weights!;
            if (weights[e]! < target[lastPos]!) target[lastPos] = weights[e]!;
          }
          continue;
        }
        keep[e] = 1;
        last = u;
        lastPage = undefined;
        lastPos = e;
        kept++;
      }
      newOff[v - p.vBegin + 1] = kept;
    }
    const np = allocPage(pages.length, p.vBegin, p.vEnd, kept, p.split, weights === undefined ? undefined : weights instanceof Float32Array ? 'float32' : 'float64');
    np.offsets.set(newOff);
    let j = 0;
    for (let e = 0; e < p.edges; e++) {
      if (keep[e] === 0) continue;
      np.nbrs[j] = nbrs[e]!;
      if (weights !== undefined) np.weights![j] = weights[e]!;
      j++;
    }
    // A duplicate at the start of the next split page refers back into this (old) page's weights;
    // those were copied above already, so later minimums must target the new page.
    if (p.split && kept > 0 && lastPos >= 0) {
      lastPage = np;
      lastPos = kept - 1;
    }
    pages.push(np);
  }
  return { orientation: set.orientation, pages, firstPageOf: set.firstPageOf };
}
