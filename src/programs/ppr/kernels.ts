/**
 * Personalized PageRank's CPU kernels (the definition and its semantics: index.ts). pprInit:
 * out-weights, x = 1/n, contributions, the sinks' rank. pprGather pulls: each vertex sums its
 * in-neighbours' contributions (times the edge weight when weighted) into xn and adds |xn - x| to
 * out.sum; pprApply takes xn as x and makes the next contributions and the sinks' rank.
 */
import type { CpuKernel } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';

export interface PprState {
  x: Float64Array;
  xn: Float64Array;
  /** x / out-weight (0 for sinks): what out-neighbours read. */
  contrib: Float64Array;
  /** Personalization: uniform over the sources (1/n each without). */
  p: Float64Array;
  /** Out-weight (out-degree when unweighted). */
  outW: Float64Array;
}

export const pprInit: CpuKernel<Pick<PprState, 'x' | 'contrib' | 'outW'>> = {
  vertex(ctx, lo, hi, out) {
    const { x, contrib, outW } = ctx.state;
    const x0 = ctx.args.x0!;
    const g = ctx.graph;
    if (ctx.args.weighted !== 1) for (let v = lo; v < hi; v++) outW[v] = g.outDegree[v]!;
    else {
      // Each vertex's out-weights summed in list order, page by page over [lo, hi) (a hub's running
      // sum carried over its split pages): a closure a vertex cost ~0.2 us a vertex on the box.
      const pages = g.out.pages;
      outW.fill(0, lo, hi);
      for (let pi = g.out.firstPageOf[lo]!; pi < pages.length; pi++) {
        const p = pages[pi]!;
        if (p.vBegin >= hi) break;
        const w = p.weights;
        if (p.split) {
          let t = outW[p.vBegin]!;
          if (w === undefined) t += p.edges;
          else for (let e = 0; e < p.edges; e++) t += w[e]!;
          outW[p.vBegin] = t;
          continue;
        }
        const off = p.offsets;
        for (let v = Math.max(lo, p.vBegin), end = Math.min(hi, p.vEnd); v < end; v++) {
          const e0 = off[v - p.vBegin]!, e1 = off[v - p.vBegin + 1]!;
          let t = 0;
          if (w === undefined) t = e1 - e0;
          else for (let e = e0; e < e1; e++) t += w[e]!;
          outW[v] = t;
        }
      }
    }
    for (let v = lo; v < hi; v++) {
      const w = outW[v]!;
      x[v] = x0;
      if (w > 0) contrib[v] = x0 / w;
      else (contrib[v] = 0), (out.sum += x0);
    }
  },
};

export const pprGather: CpuKernel<Omit<PprState, 'outW'>> = {
  pull(ctx, pages, lo, hi, out) {
    const { x, xn, contrib, p } = ctx.state;
    const d = ctx.args.alpha!;
    const s = ctx.args.dangling!;
    const weighted = ctx.args.weighted === 1;
    const sum = (pg: Page, a: number, b: number): number => {
      let t = 0;
      const nb = pg.nbrs;
      const w = weighted ? pg.weights : undefined;
      if (w === undefined) for (let e = a; e < b; e++) t += contrib[nb[e]!]!;
      else for (let e = a; e < b; e++) t += contrib[nb[e]!]! * w[e]!;
      out.edges += b - a;
      return t;
    };
    const apply = (v: number, t: number): void => {
      const r = d * (t + s * p[v]!) + (1 - d) * p[v]!;
      xn[v] = r;
      out.sum += Math.abs(r - x[v]!);
    };
    if (pages.length > 1 || pages[0]!.split) {
      // One split vertex: its in-edges span the pages, in order.
      let t = 0;
      for (const pg of pages) t += sum(pg, 0, pg.edges);
      apply(pages[0]!.vBegin, t);
      return;
    }
    const pg = pages[0]!;
    for (let i = lo; i < hi; i++) apply(pg.vBegin + i, sum(pg, pg.offsets[i]!, pg.offsets[i + 1]!));
  },
};

export const pprApply: CpuKernel<Pick<PprState, 'x' | 'xn' | 'contrib' | 'outW'>> = {
  vertex(ctx, lo, hi, out) {
    const { x, xn, contrib, outW } = ctx.state;
    for (let v = lo; v < hi; v++) {
      const r = (x[v] = xn[v]!);
      const w = outW[v]!;
      if (w > 0) contrib[v] = r / w;
      else (contrib[v] = 0), (out.sum += r);
    }
  },
};
