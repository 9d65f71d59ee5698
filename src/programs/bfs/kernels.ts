/**
 * BFS's CPU kernel (the definition and its semantics: index.ts). Pull: an unvisited vertex scans
 * its in-neighbours and stops at the first one in the frontier. Push: a compare-and-swap per
 * target claims it for the next level.
 */
import { outSlices, outSlicesBetween, type CpuKernel } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';

export interface BfsState {
  /** Depth in edges, -1 unreached. */
  depth: Int32Array;
  /** A bit per vertex this kernel has claimed, (n + 31) >>> 5 words. */
  seen: Int32Array;
}

export const bfs: CpuKernel<BfsState> = {
  splitPush: true,
  pull(ctx, pages, lo, hi, out) {
    const depth = ctx.state.depth;
    const fr = ctx.frontier!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    let edges = 0;
    for (const p of pages) {
      const { offsets, nbrs, vBegin } = p;
      for (let i = lo; i < hi; i++) {
        const v = vBegin + i;
        if (depth[v] !== -1) continue;
        const end = offsets[i + 1]!;
        for (let e = offsets[i]!; e < end; e++) {
          if (fr[nbrs[e]!] === 1) {
            depth[v] = level;
            next[v] = 1;
            out.active++;
            edges += e - offsets[i]! + 1;
            break;
          }
        }
        if (depth[v] === -1) edges += end - offsets[i]!;
      }
    }
    out.edges += edges;
  },
  push(ctx, lo, hi, out) {
    const depth = ctx.state.depth;
    const list = ctx.frontierList!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    const found = out.discovered!;
    // `seen`: a bit per vertex this kernel has claimed (32x smaller than depth, so it stays in
    // cache; most pushed edges reach vertices claimed already). A hint only: depth is the truth,
    // vertices claimed elsewhere (pull levels, GPUs) have no bit and are checked in depth, and a
    // bit lost to two threads updating one word at once costs a depth read, never a wrong result.
    const seen = ctx.state.seen;
    // One callback per task, not one per frontier vertex (a closure per vertex, and its captured
    // counters, cost ~40% of the edge scan).
    const scan = (p: Page, a: number, b: number): void => {
      const nbrs = p.nbrs;
      out.edges += b - a;
      for (let e = a; e < b; e++) {
        const v = nbrs[e]!;
        const bit = 1 << (v & 31);
        if ((seen[v >>> 5]! & bit) !== 0) continue;
        if (depth[v] === -1 && Atomics.compareExchange(depth, v, -1, level) === -1) {
          seen[v >>> 5]! |= bit;
          next[v] = 1;
          found.push(v);
          out.active++;
        }
      }
    };
    if (ctx.edgeHi !== undefined) outSlicesBetween(ctx.graph, list[lo]!, ctx.edgeLo ?? 0, ctx.edgeHi, scan);
    else for (let i = lo; i < hi; i++) outSlices(ctx.graph, list[i]!, scan);
  },
};
