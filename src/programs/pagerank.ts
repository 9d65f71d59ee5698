/**
 * PageRank — Graphalytics semantics: PR_0 = 1/n; for a fixed number of iterations
 *   PR_i(v) = (1-d)/n + d * sum_{u in N_in(v)} PR_{i-1}(u)/outdeg(u) + d/n * sum_{w dangling} PR_{i-1}(w)
 * (dangling = out-degree 0; its rank is spread over every vertex), synchronous, no early stop.
 *
 * Pull only: each vertex sums its in-neighbours' contributions (rank/outdeg) from the previous
 * iteration — no atomics, every page written by one task. The kernel also computes the next
 * contribution and the dangling mass in the same pass, so an iteration reads each edge once.
 * Serial reference: reference/pagerank.ts.
 */
import type { CpuKernel } from '../engine/kernel.js';
import type { Program } from '../engine/program.js';

export interface PageRankParams {
  iterations: number;
  damping: number;
}

export const pagerankKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const contrib = ctx.state.contrib as Float64Array;
    const nextContrib = ctx.state.nextContrib as Float64Array;
    const rank = ctx.state.rank as Float64Array;
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
export const pagerankInitKernel: CpuKernel = {
  vertex(ctx, lo, hi, out) {
    const rank = ctx.state.rank as Float64Array;
    const contrib = ctx.state.contrib as Float64Array;
    const outDeg = ctx.graph.outDegree;
    const r0 = ctx.args.r0!;
    let dangling = 0;
    for (let v = lo; v < hi; v++) {
      rank[v] = r0;
      const k = outDeg[v]!;
      if (k === 0) dangling += r0;
      else contrib[v] = r0 / k;
    }
    out.sum += dangling;
  },
};

export const pagerank: Program<PageRankParams> = {
  name: 'pr',
  output: 'float',
  async run(ctx, { iterations, damping }) {
    const n = ctx.graph.numVertices;
    const rank = ctx.alloc('f64', 0) as Float64Array;
    let contrib = ctx.alloc('f64', 0) as Float64Array;
    let nextContrib = ctx.alloc('f64', 0) as Float64Array;
    // rank = 1/n, contrib = rank/outdeg, dangling mass = the sinks' rank: on every CPU thread (a
    // loop here took 180 ms of a 470 ms GPU run on RMAT 24, most of it first-touching the arrays).
    let dangling = (await ctx.vertexMap('pr-init', { rank, contrib }, { r0: 1 / n })).sum;
    const all = ctx.all();
    for (let it = 0; it < iterations; it++) {
      const base = (1 - damping) / n + (damping * dangling) / n;
      // last: ranks are read only after the final iteration (a GPU actor copies its range back then).
      const last = it === iterations - 1 ? 1 : 0;
      const step = await ctx.edgeMap('pr', all, { contrib, nextContrib, rank }, { base, damping, last }, { modes: ['pull'] });
      dangling = step.sum;
      [contrib, nextContrib] = [nextContrib, contrib];
    }
    return rank;
  },
};
