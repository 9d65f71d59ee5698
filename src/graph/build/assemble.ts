/**
 * Builder phase 3: out-pages.
 *
 * Out-pages: page by page (in the layout planned from raw out-degrees), the page's staging range
 * is copied into a scratch buffer, each list is sorted and deduplicated there (lists.ts), and the
 * result goes into an exact-size page; staging chunks are dropped as soon as they are behind.
 * In-degrees start as the raw counts and lose every dropped edge on the way (few: no pass over
 * the kept ones). The threads take the planned pages one at a time (outPagesTaken).
 *
 * In-pages (directed graphs) are filled from the out-pages in transpose.ts.
 */
import { allocPage, type PageAlloc, type PagePlan } from '../pages.js';
import type { Page, WeightArray, WeightType } from '../types.js';
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
 * inDeg (raw in-degrees, shared). `alloc` places the pages (the bounded builder reuses one area).
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
  alloc: PageAlloc = allocPage,
  scratch: OutScratch = outScratch(plan, i0, i1, wt),
): OutRange {
  const idBits = 32 - Math.clz32(Math.max(1, layoutDeg.length - 1));
  const { nb, wb, offs } = scratch;
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
      const p = alloc(pages.length, vBegin, vEnd, kept, false, wt);
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
      const p = alloc(pages.length, v, v + 1, k, true, wt);
      p.offsets[1] = k;
      p.nbrs.set(nbrs.subarray(at, at + k));
      if (weights) p.weights!.set(weights.subarray(at, at + k));
      pages.push(p);
    }
    if (d === 0) pages.push(alloc(pages.length, v, v + 1, 0, false, wt));
    i = j;
  }
  releaseScratch();
  return { pages, selfLoops: dropped.selfLoops, duplicates: dropped.duplicates };
}

/** Buffers outPagesRange sorts a page's lists in. */
export interface OutScratch {
  nb: Uint32Array;
  wb: WeightArray | undefined;
  offs: Uint32Array;
}

/** Scratch large enough for planned pages [i0, i1). */
export function outScratch(plan: PlanRows, i0: number, i1: number, wt: WeightType | undefined): OutScratch {
  let scratchLen = 0;
  let maxNv = 0;
  for (let i = i0; i < i1; i++) {
    if (!plan.split[i] && plan.edges[i]! > scratchLen) scratchLen = plan.edges[i]!;
    maxNv = Math.max(maxNv, plan.vEnd[i]! - plan.vBegin[i]!);
  }
  return { nb: new Uint32Array(scratchLen), wb: newWeights(wt, scratchLen), offs: new Uint32Array(maxNv + 1) };
}

/**
 * Units of out-page work: each planned page, or the pages of one split vertex together. Returns
 * their boundaries (unit u is planned pages [at[u], at[u + 1])) and each one's staging position.
 */
export function outUnits(plan: PlanRows): { at: number[]; pos: number[] } {
  const at = [0];
  const pos: number[] = [];
  let p = 0;
  for (let i = 0; i < plan.edges.length; i++) {
    const inside = i > 0 && plan.split[i] && plan.split[i - 1] && plan.vBegin[i] === plan.vBegin[i - 1];
    if (i > 0 && !inside) at.push(i);
    if (!inside) pos.push(p);
    p += plan.edges[i]!;
  }
  if (plan.edges.length > 0) at.push(plan.edges.length);
  return { at, pos };
}

/** Out-pages of the units this thread took, with their unit. */
export type OutTaken = Array<{ unit: number } & OutRange>;

/**
 * Builds the out-pages of units taken one at a time from the shared counter `next` (whichever
 * thread is free takes the next: the pages' costs per edge differ by list length more than a
 * static cut could weigh them). A thread's units only grow, so it drops the staging chunks behind
 * each one it takes.
 */
export function outPagesTaken(
  st: Staging,
  plan: PlanRows,
  units: { at: number[]; pos: number[] },
  next: Int32Array,
  layoutDeg: Uint32Array,
  wt: WeightType | undefined,
  outDegree: Uint32Array,
  inDeg: Uint32Array | undefined,
): OutTaken {
  const taken: OutTaken = [];
  const scratch = outScratch(plan, 0, plan.edges.length, wt);
  let keep = 0;
  for (let u = Atomics.add(next, 0, 1); u < units.pos.length; u = Atomics.add(next, 0, 1)) {
    keep = releaseUpTo(st, keep, units.pos[u]!);
    taken.push({ unit: u, ...outPagesRange(st, plan, units.at[u]!, units.at[u + 1]!, units.pos[u]!, layoutDeg, wt, outDegree, inDeg, allocPage, scratch) });
  }
  return taken;
}

/** Page `p` with another index (pages built by several threads are renumbered when joined). */
export function reindexed(p: Page, index: number): Page {
  return p.index === index ? p : { ...p, index };
}

