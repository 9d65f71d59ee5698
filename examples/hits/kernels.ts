/**
 * HITS's CPU kernels (the definition and its semantics: index.ts). `hitsGather` pulls: each
 * vertex sums `src` over the neighbours its task's pages list (in-pages for authorities, out-pages
 * for hubs) and writes `dst`, one writer per vertex, so no atomics; out.sum is the sum of squares.
 * `hitsScale` multiplies a vector by args.f.
 */
import type { CpuKernel } from 'tessera';

export interface GatherState {
  src: Float64Array;
  dst: Float64Array;
}

export const hitsGather: CpuKernel<GatherState> = {
  pull(ctx, pages, lo, hi, out) {
    const { src, dst } = ctx.state;
    let squares = 0;
    if (pages.length > 1 || pages[0]!.split) {
      // One split vertex: its list spans the pages, in order.
      let s = 0;
      for (const p of pages) {
        const nbrs = p.nbrs;
        for (let e = 0; e < p.edges; e++) s += src[nbrs[e]!]!;
        out.edges += p.edges;
      }
      dst[pages[0]!.vBegin] = s;
      squares = s * s;
    } else {
      const { offsets, nbrs, vBegin } = pages[0]!;
      let e = offsets[lo]!;
      out.edges += offsets[hi]! - e;
      for (let i = lo; i < hi; i++) {
        const end = offsets[i + 1]!;
        let s = 0;
        for (; e < end; e++) s += src[nbrs[e]!]!;
        dst[vBegin + i] = s;
        squares += s * s;
      }
    }
    out.sum += squares;
  },
};

export const hitsScale: CpuKernel<{ x: Float64Array }> = {
  vertex(ctx, lo, hi) {
    const { x } = ctx.state;
    const f = ctx.args.f!;
    for (let v = lo; v < hi; v++) x[v]! *= f;
  },
};
