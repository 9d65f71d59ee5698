/**
 * PageRank's CPU kernels (the definition and its semantics: index.ts). `pr` pulls: each vertex
 * sums its in-neighbours' contributions and writes its rank, its next contribution and the
 * dangling mass in the same pass (no atomics, one writer per vertex). The first iteration reads no
 * contributions: with `args.r0` every vertex starts at rank r0, so u's contribution is r0 / outdeg(u)
 * (0 for a sink), computed where it is read (no pass writing rank and contrib before the run).
 * `prSinks` counts the sinks (the first iteration's dangling mass is r0 times that).
 */
import type { CpuKernel } from '../../engine/kernel.js';

export interface PrState {
  /** rank / outdeg of the previous iteration (0 for sinks): what in-neighbours read. Absent in the first iteration (args.r0). */
  contrib?: Float64Array;
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
    const r0 = ctx.args.r0;
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
    if (contrib === undefined) {
      // The first iteration (every rank r0): u's contribution r0 / outdeg(u), the same IEEE
      // division a stored one would hold, so later iterations agree bitwise. Shaped as below.
      if (r0 === undefined) throw new Error("kernel 'pr' needs state contrib, or args.r0 in the first iteration");
      if (pages.length > 1) {
        let s = 0;
        for (const p of pages) {
          const nb = p.nbrs;
          for (let e = 0; e < p.edges; e++) {
            const k = outDeg[nb[e]!]!;
            if (k !== 0) s += r0 / k;
          }
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
          for (; e < end; e++) {
            const k = outDeg[nbrs[e]!]!;
            if (k !== 0) s += r0 / k;
          }
          apply(vBegin + i, s);
        }
      }
    } else if (pages.length > 1) {
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

/** The sinks (out-degree 0) of [lo, hi), counted in `sum`: the first iteration's dangling mass over r0. */
export const prSinks: CpuKernel<Record<string, never>> = {
  vertex(ctx, lo, hi, out) {
    const outDeg = ctx.graph.outDegree;
    let sinks = 0;
    for (let v = lo; v < hi; v++) if (outDeg[v] === 0) sinks++;
    out.sum += sinks;
  },
};
