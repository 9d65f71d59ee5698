/**
 * SCC's CPU kernels (the definition and its semantics: index.ts). Among the vertices not yet in a
 * component (`scc` -1): sccColor restarts colors, sccForward lowers colors along out-edges (push:
 * compare-and-swap min; pull: each vertex takes the smallest color of its active in-neighbours),
 * sccRoots claims the vertices that kept their own color, and sccBackward (pull over out-lists)
 * claims vertices with an out-neighbour just claimed in their color.
 */
import { outSlices, type CpuKernel } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';

export interface SccState {
  /** The component's representative (an internal id), -1 until found. */
  scc: Int32Array;
  /** The smallest id reaching the vertex among the unassigned (the forward closure). */
  color: Int32Array;
}

/** color = own id for every unassigned vertex; out.sum counts them. */
export const sccColor: CpuKernel<SccState> = {
  vertex(ctx, lo, hi, out) {
    const { scc, color } = ctx.state;
    for (let v = lo; v < hi; v++) if (scc[v] === -1) (color[v] = v), out.sum++;
  },
};

export const sccForward: CpuKernel<SccState> = {
  push(ctx, lo, hi, out) {
    const { scc, color } = ctx.state;
    const list = ctx.frontierList!;
    const next = ctx.next;
    let c = 0;
    const scan = (p: Page, a: number, b: number): void => {
      out.edges += b - a;
      for (let e = a; e < b; e++) {
        const v = p.nbrs[e]!;
        if (scc[v] !== -1) continue;
        for (let cur = color[v]!; c < cur; ) {
          const seen = Atomics.compareExchange(color, v, cur, c);
          if (seen === cur) {
            if (next[v] === 0) {
              next[v] = 1;
              out.discovered?.push(v);
              out.active++;
            }
            break;
          }
          cur = seen;
        }
      }
    };
    for (let i = lo; i < hi; i++) {
      const u = list[i]!;
      if (scc[u] !== -1) continue;
      c = color[u]!;
      outSlices(ctx.graph, u, scan);
    }
  },
  pull(ctx, pages, lo, hi, out) {
    const { scc, color } = ctx.state;
    const fr = ctx.frontier!;
    for (const p of pages)
      for (let i = lo; i < hi; i++) {
        const v = p.vBegin + i;
        if (scc[v] !== -1) continue;
        const a = p.offsets[i]!;
        const b = p.offsets[i + 1]!;
        out.edges += b - a;
        let m = color[v]!;
        for (let e = a; e < b; e++) {
          const u = p.nbrs[e]!;
          if (fr[u] === 1 && scc[u] === -1 && color[u]! < m) m = color[u]!;
        }
        if (m < color[v]!) {
          color[v] = m;
          ctx.next[v] = 1;
          out.active++;
        }
      }
  },
};

/** The roots: unassigned vertices whose color is their own id take it as their component. */
export const sccRoots: CpuKernel<SccState> = {
  vertex(ctx, lo, hi, out) {
    const { scc, color } = ctx.state;
    for (let v = lo; v < hi; v++)
      if (scc[v] === -1 && color[v] === v) {
        scc[v] = v;
        ctx.next[v] = 1;
        out.active++;
      }
  },
};

/** Pull over out-lists: an unassigned vertex with an out-neighbour claimed last step in its color joins. */
export const sccBackward: CpuKernel<SccState> = {
  pull(ctx, pages, lo, hi, out) {
    const { scc, color } = ctx.state;
    const fr = ctx.frontier!;
    for (const p of pages)
      for (let i = lo; i < hi; i++) {
        const v = p.vBegin + i;
        if (scc[v] !== -1) continue;
        const c = color[v]!;
        for (let e = p.offsets[i]!; e < p.offsets[i + 1]!; e++) {
          const w = p.nbrs[e]!;
          out.edges++;
          if (fr[w] === 1 && color[w] === c) {
            scc[v] = c;
            ctx.next[v] = 1;
            out.active++;
            break;
          }
        }
      }
  },
};
