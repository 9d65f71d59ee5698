/**
 * PageRank's CPU kernels (the definition and its semantics: index.ts). `pr` pulls: each vertex
 * sums its in-neighbours' contributions and writes its rank, its next contribution and the
 * dangling mass in the same pass (no atomics, one writer per vertex). `prInit` is the start.
 */
import type { CpuKernel } from '../../engine/kernel.js';

export interface PrState {
  /** rank / outdeg of the previous iteration (0 for sinks): what in-neighbours read. */
  contrib: Float64Array;
  /** The contributions this iteration writes (the driver swaps the two). */
  nextContrib: Float64Array;
  rank: Float64Array;
}

export const pr: CpuKernel<PrState> = {
  pull(ctx, pages, lo, hi, out) {
    const contrib = ctx.state.contrib;
    const nextContrib = ctx.state.nextContrib;
    const rank = ctx.state.rank;
    const outDeg = ctx.graph.outDegree;
    const base = ctx.args.base!;
    const d = ctx.args.damping!;
    let dangling = 0;
    const apply = (v: number, s: number): void => {
      const r = base + d * s;
      rank[v] = r;
      const k = outDeg[v]!;
      if (k === 0) {
        nextContrib[v] = 0;
        dangling += r;
      } else nextContrib[v] = r / k;
    };
    if (pages.length > 1) {
      // One split vertex: its in-edges span several pages.
      let s = 0;
      for (const p of pages) {
        const nb = p.nbrs;
        for (let e = 0; e < p.edges; e++) s += contrib[nb[e]!]!;
        out.edges += p.edges;
      }
      apply(pages[0]!.vBegin, s);
    } else {
      const { offsets, nbrs, vBegin } = pages[0]!;
      let e = offsets[lo]!;
      out.edges += offsets[hi]! - e;
      for (let i = lo; i < hi; i++) {
        const end = offsets[i + 1]!;
        let s = 0;
        for (; e < end; e++) s += contrib[nbrs[e]!]!;
        apply(vBegin + i, s);
      }
    }
    out.sum += dangling;
  },
};

/** PageRank's start: rank = r0 and contrib = r0 / outdeg over [lo, hi); sums the sinks' rank. */
export const prInit: CpuKernel<Pick<PrState, 'rank' | 'contrib'>> = {
  vertex(ctx, lo, hi, out) {
    const rank = ctx.state.rank;
    const contrib = ctx.state.contrib;
    const outDeg = ctx.graph.outDegree;
    const r0 = ctx.args.r0!;
    let dangling = 0;
    for (let v = lo; v < hi; v++) {
      rank[v] = r0;
      const k = outDeg[v]!;
      if (k === 0) (dangling += r0), (contrib[v] = 0);
      else contrib[v] = r0 / k;
    }
    out.sum += dangling;
  },
};
