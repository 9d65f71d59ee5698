/**
 * Page layout and allocation. A page is one SharedArrayBuffer [offsets | nbrs | weights]
 * (8-byte aligned parts), so it can be handed to a worker, copied to a GPU or written to a .tsr
 * file as one blob (GTS slotted pages; Garaph shards).
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

/** Views a page over an existing buffer laid out by pageByteLength (used by builders and .tsr). */
export function pageOver(
  buffer: SharedArrayBuffer,
  index: number,
  vBegin: number,
  vEnd: number,
  edges: number,
  split: boolean,
  wt: WeightType | undefined,
): Page {
  const nv = vEnd - vBegin;
  const offsets = new Uint32Array(buffer, 0, nv + 1);
  const nbrOff = align8(4 * (nv + 1));
  const nbrs = new Uint32Array(buffer, nbrOff, edges);
  const wOff = nbrOff + align8(4 * edges);
  let weights: WeightArray | undefined;
  if (wt === 'float32') weights = new Float32Array(buffer, wOff, edges);
  else if (wt === 'float64') weights = new Float64Array(buffer, wOff, edges);
  return { index, vBegin, vEnd, split, edges, offsets, nbrs, weights, buffer };
}

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

/**
 * Cuts [0, n) into pages of about `pageEdges` edges given each vertex's degree. A vertex with more
 * than pageEdges edges gets consecutive split pages of its own. Pages also hold at most pageEdges
 * vertices, so offsets stay small on graphs with many isolated vertices. Returns the pages with
 * offsets filled in (so each vertex's slot is known) and `firstPageOf`.
 */
export function layoutPages(
  orientation: Orientation,
  degree: Uint32Array,
  pageEdges: number,
  wt: WeightType | undefined,
): PageSet {
  const n = degree.length;
  const pages: Page[] = [];
  const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * n));
  let begin = 0;
  let edges = 0;
  const close = (end: number): void => {
    if (end === begin) return;
    const p = allocPage(pages.length, begin, end, edges, false, wt);
    let acc = 0;
    for (let v = begin; v < end; v++) {
      p.offsets[v - begin] = acc;
      acc += degree[v]!;
      firstPageOf[v] = p.index;
    }
    p.offsets[end - begin] = acc;
    pages.push(p);
    begin = end;
    edges = 0;
  };
  for (let v = 0; v < n; v++) {
    const d = degree[v]!;
    if (d > pageEdges) {
      close(v);
      firstPageOf[v] = pages.length;
      for (let done = 0; done < d; done += pageEdges) {
        const k = Math.min(pageEdges, d - done);
        const p = allocPage(pages.length, v, v + 1, k, true, wt);
        p.offsets[1] = k;
        pages.push(p);
      }
      begin = v + 1;
      continue;
    }
    if (edges + d > pageEdges || v - begin >= pageEdges) close(v);
    edges += d;
  }
  close(n);
  return { orientation, pages, firstPageOf };
}

/**
 * Places edges into a laid-out PageSet: call place(v, nbr, w) once per edge; within a vertex,
 * edges keep the order they come in. The hot path is two loads per edge (page, slot) and one
 * store; split vertices take a slower path.
 */
export class PageFiller {
  /** Next slot of each vertex in its page (split vertices: position within its whole list). */
  private readonly cur: Uint32Array;
  /** Page of each vertex, or SPLIT. */
  private readonly pg: Uint32Array;
  private readonly nbrs: Uint32Array[];
  private readonly weights: (WeightArray | undefined)[];
  private static readonly SPLIT = 0xffffffff;

  constructor(
    private readonly set: PageSet,
    private readonly pageEdges: number,
  ) {
    const n = set.firstPageOf.length;
    this.cur = new Uint32Array(n);
    this.pg = new Uint32Array(n);
    this.nbrs = set.pages.map((p) => p.nbrs);
    this.weights = set.pages.map((p) => p.weights);
    for (const p of set.pages) {
      for (let v = p.vBegin; v < p.vEnd; v++) {
        this.pg[v] = p.split ? PageFiller.SPLIT : p.index;
        if (!p.split) this.cur[v] = p.offsets[v - p.vBegin]!;
      }
    }
  }

  private slow(v: number): [number, number] {
    const at = this.cur[v]++;
    return [this.set.firstPageOf[v]! + Math.floor(at / this.pageEdges), at % this.pageEdges];
  }

  place(v: number, nbr: number, w: number): void {
    let p = this.pg[v]!;
    let pos: number;
    if (p === PageFiller.SPLIT) [p, pos] = this.slow(v);
    else pos = this.cur[v]++;
    this.nbrs[p]![pos] = nbr;
    const wa = this.weights[p];
    if (wa !== undefined) wa[pos] = w;
  }

  /** Unweighted fast path. */
  placeNbr(v: number, nbr: number): void {
    const p = this.pg[v]!;
    if (p === PageFiller.SPLIT) {
      const [q, pos] = this.slow(v);
      this.nbrs[q]![pos] = nbr;
    } else this.nbrs[p]![this.cur[v]++] = nbr;
  }
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
