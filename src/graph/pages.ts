/**
 * Page layout and allocation. A page is one run of bytes [offsets | nbrs | weights] (8-byte
 * aligned parts) in a SharedArrayBuffer, its own or one it shares with other pages (pageView), so
 * it can be handed to a worker, copied to a GPU or written to a .tsr file as one blob (GTS slotted
 * pages; Garaph shards).
 */
import type { Orientation, Page, PageSet, WeightArray, WeightType } from './types.js';

const align8 = (x: number): number => (x + 7) & ~7;

export function weightBytes(t: WeightType | undefined): number {
  return t === undefined ? 0 : t === 'float32' ? 4 : 8;
}

/** Byte size of a page's buffer. */
export function pageByteLength(vertices: number, edges: number, wt: WeightType | undefined): number {
  return align8(4 * (vertices + 1)) + align8(4 * edges) + weightBytes(wt) * edges;
}

/**
 * A page's own bytes [offsets | nbrs | weights] within its buffer: the whole buffer of a page
 * allocated alone, a part of one that holds several (a .tsr's pages are read into one buffer per
 * read batch: tsr-read.ts).
 */
export function pageView(p: Page): Uint8Array {
  const wt: WeightType | undefined = p.weights === undefined ? undefined : p.weights.BYTES_PER_ELEMENT === 4 ? 'float32' : 'float64';
  return new Uint8Array(p.buffer, p.offsets.byteOffset, pageByteLength(p.vEnd - p.vBegin, p.edges, wt));
}

/**
 * Views a page over an existing buffer laid out by pageByteLength (used by builders and .tsr), from
 * byte `base` (8-aligned; a page store's arena holds many pages).
 */
export function pageOver(
  buffer: SharedArrayBuffer,
  index: number,
  vBegin: number,
  vEnd: number,
  edges: number,
  split: boolean,
  wt: WeightType | undefined,
  base = 0,
): Page {
  const nv = vEnd - vBegin;
  const offsets = new Uint32Array(buffer, base, nv + 1);
  const nbrOff = base + align8(4 * (nv + 1));
  const nbrs = new Uint32Array(buffer, nbrOff, edges);
  const wOff = nbrOff + align8(4 * edges);
  let weights: WeightArray | undefined;
  if (wt === 'float32') weights = new Float32Array(buffer, wOff, edges);
  else if (wt === 'float64') weights = new Float64Array(buffer, wOff, edges);
  return { index, vBegin, vEnd, split, edges, offsets, nbrs, weights, buffer };
}

/** Allocates a page (allocPage, or a builder's own placement). */
export type PageAlloc = (index: number, vBegin: number, vEnd: number, edges: number, split: boolean, wt: WeightType | undefined) => Page;

export function allocPage(
  index: number,
  vBegin: number,
  vEnd: number,
  edges: number,
  split: boolean,
  wt: WeightType | undefined,
): Page {
  const buf = new SharedArrayBuffer(pageByteLength(vEnd - vBegin, edges, wt));
  return pageOver(buf, index, vBegin, vEnd, edges, split, wt);
}

/** Where pages start and end, before any buffer is allocated (see planPages). */
export interface PagePlan {
  vBegin: number[];
  vEnd: number[];
  edges: number[];
  split: boolean[];
  /** Index of the first page that holds each vertex. */
  firstPageOf: Uint32Array;
}

/**
 * Cuts [0, n) into pages of about `pageEdges` edges given each vertex's degree. A vertex with more
 * than pageEdges edges gets consecutive split pages of its own (pageEdges each, the rest in the
 * last). Pages also hold at most pageEdges vertices, so offsets stay small on graphs with many
 * isolated vertices.
 */
export function planPages(degree: Uint32Array, pageEdges: number, shared = true): PagePlan {
  const n = degree.length;
  const plan: PagePlan = {
    vBegin: [],
    vEnd: [],
    edges: [],
    split: [],
    firstPageOf: shared ? new Uint32Array(new SharedArrayBuffer(4 * n)) : new Uint32Array(n),
  };
  const firstPageOf = plan.firstPageOf;
  const push = (b: number, e: number, edges: number, split: boolean): void => {
    plan.vBegin.push(b);
    plan.vEnd.push(e);
    plan.edges.push(edges);
    plan.split.push(split);
  };
  let begin = 0;
  let edges = 0;
  for (let v = 0; v < n; v++) {
    const d = degree[v]!;
    if (d > pageEdges) {
      if (v > begin) push(begin, v, edges, false);
      edges = 0;
      firstPageOf[v] = plan.vBegin.length;
      for (let done = 0; done < d; done += pageEdges) push(v, v + 1, Math.min(pageEdges, d - done), true);
      begin = v + 1;
      continue;
    }
    if (edges + d > pageEdges || v - begin >= pageEdges) {
      if (v > begin) push(begin, v, edges, false);
      begin = v;
      edges = 0;
    }
    firstPageOf[v] = plan.vBegin.length;
    edges += d;
  }
  if (n > begin) push(begin, n, edges, false);
  return plan;
}

/**
 * Lays out and allocates the pages of `planPages`, with offsets filled in (so each vertex's slot
 * is known) and `firstPageOf`. With `offsets` false, only split pages' offsets are set: the caller
 * fills the others (the builder's threads do, build/transpose.ts).
 */
export function layoutPages(
  orientation: Orientation,
  degree: Uint32Array,
  pageEdges: number,
  wt: WeightType | undefined,
  offsets = true,
): PageSet {
  const plan = planPages(degree, pageEdges);
  const pages: Page[] = [];
  for (let i = 0; i < plan.vBegin.length; i++) {
    if (offsets || plan.split[i]) pages.push(laidOutPage(plan, i, degree, wt));
    else pages.push(allocPage(i, plan.vBegin[i]!, plan.vEnd[i]!, plan.edges[i]!, false, wt));
  }
  return { orientation, pages, firstPageOf: plan.firstPageOf };
}

/** Page i of a plan, allocated, with its offsets from `degree` (a split page: its one list). */
export function laidOutPage(plan: Omit<PagePlan, 'firstPageOf'>, i: number, degree: Uint32Array, wt: WeightType | undefined, alloc: PageAlloc = allocPage): Page {
  const b = plan.vBegin[i]!;
  const e = plan.vEnd[i]!;
  const p = alloc(i, b, e, plan.edges[i]!, plan.split[i]!, wt);
  if (plan.split[i]) p.offsets[1] = plan.edges[i]!;
  else {
    let acc = 0;
    for (let v = b; v < e; v++) {
      p.offsets[v - b] = acc;
      acc += degree[v]!;
    }
    p.offsets[e - b] = acc;
  }
  return p;
}

/** Calls fn(v, nbr, weight) for every edge of a PageSet, vertices ascending. */
export function forEachEdge(set: PageSet, fn: (v: number, nbr: number, w: number) => void): void {
  for (const p of set.pages) {
    const { offsets, nbrs, weights } = p;
    for (let v = p.vBegin; v < p.vEnd; v++) {
      const lo = offsets[v - p.vBegin]!;
      const hi = offsets[v - p.vBegin + 1]!;
      for (let e = lo; e < hi; e++) fn(v, nbrs[e]!, weights === undefined ? 1 : weights[e]!);
    }
  }
}

/** Total edges per vertex over a PageSet (split pages summed). */
export function degreesOf(set: PageSet, n: number): Uint32Array {
  const deg = new Uint32Array(new SharedArrayBuffer(4 * n));
  for (const p of set.pages) {
    for (let v = p.vBegin; v < p.vEnd; v++) deg[v]! += p.offsets[v - p.vBegin + 1]! - p.offsets[v - p.vBegin]!;
  }
  return deg;
}

/** The first index in [lo, hi) of the ascending `sorted` whose value is at least `x` (hi if none). */
export function lowerBound(sorted: ArrayLike<number>, x: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
