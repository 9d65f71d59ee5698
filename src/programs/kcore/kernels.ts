/**
 * k-core's CPU kernels (the definition and its semantics: index.ts). Neighbours are those of the
 * undirected view (undirectedNeighbours: u->v and v->u count once).
 */
import { undirectedNeighbours, type CpuKernel } from '../../engine/kernel.js';

export interface KcoreState {
  /** Neighbours not yet peeled (peeled ones may go on being decremented: never read again). */
  deg: Int32Array;
  /** Coreness; -1 while the vertex is not peeled. */
  core: Int32Array;
}

/** deg = the number of neighbours in the undirected view. */
export const kcoreInit: CpuKernel<Pick<KcoreState, 'deg'>> = {
  vertex(ctx, lo, hi, out) {
    const { deg } = ctx.state;
    let d = 0;
    const count = (): void => void d++;
    for (let v = lo; v < hi; v++) {
      d = 0;
      out.edges += undirectedNeighbours(ctx.graph, v, count);
      deg[v] = d;
    }
  },
};

/**
 * Level c's first peel: every unpeeled vertex with deg <= c gets core c and is marked; the others
 * are counted (out.sum) and lower lowest[0] to their smallest deg (the level to try when this one
 * marks none).
 */
export const kcoreSelect: CpuKernel<KcoreState & { lowest: Int32Array }> = {
  vertex(ctx, lo, hi, out) {
    const { deg, core, lowest } = ctx.state;
    const c = ctx.args.c!;
    let left = 0;
    let min = 0x7fffffff;
    for (let v = lo; v < hi; v++) {
      if (core[v] !== -1) continue;
      const d = deg[v]!;
      if (d <= c) {
        core[v] = c;
        ctx.next[v] = 1;
        out.active++;
      } else {
        left++;
        if (d < min) min = d;
      }
    }
    // Tasks on every thread lower one shared word: a compare-and-swap min loop.
    for (let cur = lowest[0]!; min < cur; ) {
      const seen = Atomics.compareExchange(lowest, 0, cur, min);
      if (seen === cur) break;
      cur = seen;
    }
    out.sum += left;
  },
};

/** Peels the frontier (vertices given core c) off their neighbours; those dropping to c follow. */
export const kcorePeel: CpuKernel<KcoreState> = {
  push(ctx, lo, hi, out) {
    const { deg, core } = ctx.state;
    const c = ctx.args.c!;
    const list = ctx.frontierList!;
    const next = ctx.next;
    // Several tasks may decrement one vertex: Atomics.sub returns the old value, and exactly one
    // decrement takes it from c + 1 to c (peeled vertices are at c or below and never get there).
    const hit = (u: number): void => {
      if (Atomics.sub(deg, u, 1) === c + 1) {
        core[u] = c;
        next[u] = 1;
        out.discovered?.push(u);
        out.active++;
      }
    };
    for (let i = lo; i < hi; i++) out.edges += undirectedNeighbours(ctx.graph, list[i]!, hit);
  },
  pull(ctx, pages, lo, hi, out) {
    const { deg, core } = ctx.state;
    const c = ctx.args.c!;
    const fr = ctx.frontier!;
    let k = 0;
    const count = (u: number): void => void (k += fr[u]!);
    const v0 = pages[0]!.vBegin;
    // One writer per vertex: its own deg, no atomics; the whole undirected list (graph.out/in).
    for (let v = v0 + lo; v < v0 + hi; v++) {
      if (core[v] !== -1) continue;
      k = 0;
      out.edges += undirectedNeighbours(ctx.graph, v, count);
      if (k === 0) continue;
      const d = (deg[v] = deg[v]! - k);
      if (d <= c) {
        core[v] = c;
        ctx.next[v] = 1;
        out.active++;
      }
    }
  },
};
