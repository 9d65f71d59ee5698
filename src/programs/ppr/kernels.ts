/**
 * Personalized PageRank's CPU kernels (the definition and its semantics: index.ts). pprInit (a
 * pull over out-lists): out-weights, x = 1/n, contributions, the sinks' rank. pprGather pulls: each vertex sums its
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
  // A pull over the out-pages: each vertex's out-weights summed in list order (a hub's split pages
  // in order), so that GPUs run it over the pages they hold (a CPU pass over RMAT 24's 263 M
  // weights took ~0.35 s of a weighted PageRank GPU run).
  pull(ctx, pages, lo, hi, out) {
    const { x, contrib, outW } = ctx.state;
    const x0 = ctx.args.x0!;
    const weighted = ctx.args.weighted === 1;
    const set = (v: number, t: number): void => {
      outW[v] = t;
      x[v] = x0;
      if (t > 0) contrib[v] = x0 / t;
      else (contrib[v] = 0), (out.sum += x0);
    };
    if (pages.length > 1 || pages[0]!.split) {
      let t = 0;
      for (const pg of pages) {
        const w = weighted ? pg.weights : undefined;
        if (w === undefined) t += pg.edges;
        else for (let e = 0; e < pg.edges; e++) t += w[e]!;
        out.edges += pg.edges;
      }
      set(pages[0]!.vBegin, t);
      return;
    }
    const pg = pages[0]!;
    const off = pg.offsets;
    const w = weighted ? pg.weights : undefined;
    for (let i = lo; i < hi; i++) {
      const e0 = off[i]!, e1 = off[i + 1]!;
      let t = 0;
      if (w === undefined) t = e1 - e0;
      else for (let e = e0; e < e1; e++) t += w[e]!;
      set(pg.vBegin + i, t);
    }
    out.edges += off[hi]! - off[lo]!;
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
