/**
 * WCC's CPU kernel (the definition and its semantics: index.ts): min-label propagation through
 * in- AND out-edges. Push lowers neighbours' labels with a compare-and-swap min loop; pull has
 * each vertex (one writer) take the minimum over its active neighbours.
 */
import type { CpuKernel, KernelCtx, TaskOut } from '../../engine/kernel.js';
import type { PageSet } from '../../graph/types.js';

export { affCompressMin, affFinal, affSample, affSpread, wcc_team } from './afforest.js';

export interface WccState {
  /** Component label: an original id, lowered to the component's smallest. */
  label: Uint32Array;
}

/** Min of the labels of v's active neighbours in one page set (all of its pages), or `best`. */
function minOver(set: PageSet, v: number, label: Uint32Array, fr: Uint8Array, best: number, out: TaskOut): number {
  const pages = set.pages;
  let pi = set.firstPageOf[v]!;
  let p = pages[pi]!;
  let a: number;
  let b: number;
  if (p.split) (a = 0), (b = p.edges);
  else (a = p.offsets[v - p.vBegin]!), (b = p.offsets[v - p.vBegin + 1]!);
  for (;;) {
    const nbrs = p.nbrs;
    out.edges += b - a;
    for (let e = a; e < b; e++) {
      const u = nbrs[e]!;
      if (fr[u] === 1 && label[u]! < best) best = label[u]!;
    }
    if (!p.split) return best;
    p = pages[++pi]!;
    if (p === undefined || !p.split || p.vBegin !== v) return best;
    a = 0;
    b = p.edges;
  }
}

/** Lowers the labels of u's neighbours in one page set to `l`, activating those it lowers. */
function pushOver(ctx: KernelCtx<WccState>, set: PageSet, u: number, l: number, out: TaskOut): void {
  const label = ctx.state.label;
  const next = ctx.next;
  const pages = set.pages;
  let pi = set.firstPageOf[u]!;
  let p = pages[pi]!;
  let a: number;
  let b: number;
  if (p.split) (a = 0), (b = p.edges);
  else (a = p.offsets[u - p.vBegin]!), (b = p.offsets[u - p.vBegin + 1]!);
  for (;;) {
    const nbrs = p.nbrs;
    out.edges += b - a;
    for (let e = a; e < b; e++) {
      const v = nbrs[e]!;
      let cur = label[v]!;
      while (l < cur) {
        const seen = Atomics.compareExchange(label, v, cur, l);
        if (seen === cur) {
          if (next[v] === 0 && Atomics.compareExchange(next, v, 0, 1) === 0) {
            out.discovered!.push(v);
            out.active++;
          }
          break;
        }
        cur = seen;
      }
    }
    if (!p.split) return;
    p = pages[++pi]!;
    if (p === undefined || !p.split || p.vBegin !== u) return;
    a = 0;
    b = p.edges;
  }
}

export const wcc: CpuKernel<WccState> = {
  pull(ctx, pages, lo, hi, out) {
    const label = ctx.state.label;
    const fr = ctx.frontier!;
    const next = ctx.next;
    const g = ctx.graph;
    const both = g.in !== g.out;
    const v0 = pages[0]!.vBegin;
    const split = pages.length > 1 || pages[0]!.split;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      let best = label[v]!;
      if (split) {
        for (const p of pages) {
          const nbrs = p.nbrs;
          for (let e = 0; e < p.edges; e++) {
            const u = nbrs[e]!;
            if (fr[u] === 1 && label[u]! < best) best = label[u]!;
          }
          out.edges += p.edges;
        }
      } else {
        const { offsets, nbrs } = pages[0]!;
        const end = offsets[i + 1]!;
        for (let e = offsets[i]!; e < end; e++) {
          const u = nbrs[e]!;
          if (fr[u] === 1 && label[u]! < best) best = label[u]!;
        }
        out.edges += end - offsets[i]!;
      }
      if (both) best = minOver(g.out, v, label, fr, best, out);
      if (best < label[v]!) {
        label[v] = best;
        next[v] = 1;
        out.active++;
      }
    }
  },
  push(ctx, lo, hi, out) {
    const label = ctx.state.label;
    const list = ctx.frontierList!;
    const g = ctx.graph;
    for (let k = lo; k < hi; k++) {
      const u = list[k]!;
      const l = label[u]!;
      pushOver(ctx, g.out, u, l, out);
      if (g.in !== g.out) pushOver(ctx, g.in, u, l, out);
    }
  },
};
