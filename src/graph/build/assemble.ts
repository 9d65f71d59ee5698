/**
 * Builder phases 3 and 4: pages.
 *
 * Out-pages: page by page (in the layout planned from raw out-degrees), the page's staging range
 * is copied into a scratch buffer, each list is sorted and deduplicated there (lists.ts), and the
 * result goes into an exact-size page; staging chunks are dropped as soon as they are behind.
 * In-degrees start as the raw counts and lose every dropped edge on the way (few: no pass over
 * the kept ones). Each thread takes a contiguous range of the planned pages.
 *
 * In-pages (directed graphs): laid out from those exact in-degrees and allocated at their final
 * size, then filled by transposing the out-pages: vertices ascending, so every in-list comes out
 * sorted and needs no further pass. Each thread fills the in-pages of its own range of targets,
 * reading all out-pages and skipping the edges of other targets. A cursor is (page, slot),
 * interleaved so that one cache line serves both.
 */
import { allocPage, type PagePlan } from '../pages.js';
import type { Page, PageSet, WeightArray, WeightType } from '../types.js';
import { dropped, releaseScratch, sortUnique } from './lists.js';
import { firstChunkFrom, gather, releaseUpTo, type Staging } from './scatter.js';

function newWeights(wt: WeightType | undefined, len: number): WeightArray | undefined {
  return wt === undefined ? undefined : wt === 'float32' ? new Float32Array(len) : new Float64Array(len);
}

/** Page layout without the per-vertex index (what a helper thread needs of a PagePlan). */
export type PlanRows = Omit<PagePlan, 'firstPageOf'>;

export interface OutRange {
  /** Pages built, indexed from 0 within the range (the caller renumbers). */
  pages: Page[];
  selfLoops: number;
  duplicates: number;
}

/**
 * Builds out-pages for planned pages [i0, i1), whose staging range starts at position pos0
 * (consumed). Writes outDegree of their vertices and, when given, takes every dropped edge off
 * inDeg (raw in-degrees, shared).
 */
export function outPagesRange(
  st: Staging,
  plan: PlanRows,
  i0: number,
  i1: number,
  pos0: number,
  layoutDeg: Uint32Array,
  wt: WeightType | undefined,
  outDegree: Uint32Array,
  inDeg: Uint32Array | undefined,
): OutRange {
  const idBits = 32 - Math.clz32(Math.max(1, layoutDeg.length - 1));
  let scratchLen = 0;
  let maxNv = 0;
  for (let i = i0; i < i1; i++) {
    if (!plan.split[i] && plan.edges[i]! > scratchLen) scratchLen = plan.edges[i]!;
    maxNv = Math.max(maxNv, plan.vEnd[i]! - plan.vBegin[i]!);
  }
  const nb = new Uint32Array(scratchLen);
  const wb = newWeights(wt, scratchLen);
  const offs = new Uint32Array(maxNv + 1);
  const pages: Page[] = [];
  dropped.selfLoops = 0;
  dropped.duplicates = 0;
  let pos = pos0;
  let keep = firstChunkFrom(pos0);
  for (let i = i0; i < i1; ) {
    const vBegin = plan.vBegin[i]!;
    const vEnd = plan.vEnd[i]!;
    if (!plan.split[i]) {
      const len = plan.edges[i]!;
      gather(st, pos, len, nb, wb);
      let kept = 0;
      let lo = 0;
      for (let v = vBegin; v < vEnd; v++) {
        const d0 = layoutDeg[v]!;
        offs[v - vBegin] = kept;
        const d = d0 === 0 ? 0 : sortUnique(nb, wb, lo, lo + d0, v, kept, idBits, inDeg);
        outDegree[v] = d;
        kept += d;
        lo += d0;
      }
      offs[vEnd - vBegin] = kept;
      const p = allocPage(pages.length, vBegin, vEnd, kept, false, wt);
      p.offsets.set(offs.subarray(0, vEnd - vBegin + 1));
      p.nbrs.set(nb.subarray(0, kept));
      if (wb !== undefined) p.weights!.set(wb.subarray(0, kept));
      pages.push(p);
      pos += len;
      keep = releaseUpTo(st, keep, pos);
      i++;
      continue;
    }
    // A split vertex: its whole list is sorted as one (duplicates across piece borders are
    // caught), then cut again into as many pages as it had, or fewer.
    const v = vBegin;
    let j = i;
    while (j < i1 && plan.split[j] && plan.vBegin[j] === v) j++;
    const total = layoutDeg[v]!;
    const nbrs = new Uint32Array(total);
    const weights = newWeights(wt, total);
    gather(st, pos, total, nbrs, weights);
    pos += total;
    keep = releaseUpTo(st, keep, pos);
    const d = sortUnique(nbrs, weights, 0, total, v, 0, idBits, inDeg);
    outDegree[v] = d;
    const per = Math.ceil(d / (j - i)) || 1;
    for (let at = 0; at < d; at += per) {
      const k = Math.min(per, d - at);
      const p = allocPage(pages.length, v, v + 1, k, true, wt);
      p.offsets[1] = k;
      p.nbrs.set(nbrs.subarray(at, at + k));
      if (weights) p.weights!.set(weights.subarray(at, at + k));
      pages.push(p);
    }
    if (d === 0) pages.push(allocPage(pages.length, v, v + 1, 0, false, wt));
    i = j;
  }
  releaseScratch();
  return { pages, selfLoops: dropped.selfLoops, duplicates: dropped.duplicates };
}

/** Page `p` with another index (pages built by several threads are renumbered when joined). */
export function reindexed(p: Page, index: number): Page {
  return p.index === index ? p : { ...p, index };
}

export function firstPages(pages: Page[], n: number): Uint32Array {
  const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * n));
  for (let k = pages.length - 1; k >= 0; k--) firstPageOf.fill(k, pages[k]!.vBegin, pages[k]!.vEnd);
  return firstPageOf;
}

/**
 * Fills in-pages [p0, p1) of `set` (allocated, offsets set) from all out-pages: edge (v, u) goes
 * to u's list when u is held by those pages.
 */
export function inPagesRange(outs: Page[], set: PageSet, p0: number, p1: number, pageEdges: number): void {
  if (p0 >= p1) return;
  const uLo = set.pages[p0]!.vBegin;
  const uHi = set.pages[p1 - 1]!.vEnd;
  // cur[2(u - uLo)] = page, cur[2(u - uLo) + 1] = slot of u's next in-edge.
  const cur = new Uint32Array(2 * (uHi - uLo));
  const nbrsOf: Uint32Array[] = [];
  const weightsOf: WeightArray[] = [];
  for (const p of set.pages) {
    nbrsOf.push(p.nbrs);
    if (p.weights !== undefined) weightsOf.push(p.weights);
  }
  for (let i = p0; i < p1; i++) {
    const p = set.pages[i]!;
    if (p.split) {
      if (set.firstPageOf[p.vBegin] === p.index) cur[2 * (p.vBegin - uLo)] = p.index;
      continue;
    }
    const offsets = p.offsets;
    for (let u = p.vBegin; u < p.vEnd; u++) {
      cur[2 * (u - uLo)] = p.index;
      cur[2 * (u - uLo) + 1] = offsets[u - p.vBegin]!;
    }
  }
  const all = uLo === 0 && uHi === set.firstPageOf.length;
  for (const p of outs) {
    const { offsets, nbrs, weights } = p;
    const vb = p.vBegin;
    for (let v = vb; v < p.vEnd; v++) {
      const lo = offsets[v - vb]!;
      const hi = offsets[v - vb + 1]!;
      if (weights === undefined) {
        for (let e = lo; e < hi; e++) {
          const u = nbrs[e]!;
          if (!all && (u < uLo || u >= uHi)) continue;
          const u2 = 2 * (u - uLo);
          let pg = cur[u2]!;
          let sl = cur[u2 + 1]!;
          // Only a split vertex's list runs past the end of a page (pages of pageEdges each).
          if (sl === pageEdges) {
            pg++;
            sl = 0;
            cur[u2] = pg;
          }
          nbrsOf[pg]![sl] = v;
          cur[u2 + 1] = sl + 1;
        }
      } else {
        for (let e = lo; e < hi; e++) {
          const u = nbrs[e]!;
          if (!all && (u < uLo || u >= uHi)) continue;
          const u2 = 2 * (u - uLo);
          let pg = cur[u2]!;
          let sl = cur[u2 + 1]!;
          if (sl === pageEdges) {
            pg++;
            sl = 0;
            cur[u2] = pg;
          }
          nbrsOf[pg]![sl] = v;
          weightsOf[pg]![sl] = weights[e]!;
          cur[u2 + 1] = sl + 1;
        }
      }
    }
  }
}
