/**
 * k-core's CPU kernels (the definition and its semantics: index.ts). Neighbours are those of the
 * undirected view, each once, read from its CSR (off, adj: the engine's undirectedCsr, built by
 * kcoreView): a peel walks every list several times, a merge of the in- and out-lists each time
 * cost ~10 ns an entry. A graph read from disk page by page (host memory bounded) gets no CSR (it
 * would hold the whole graph): the kernels then merge the lists from the pages (off undefined).
 */
import { undirectedNeighbours, type CpuKernel, type TaskOut } from '../../engine/kernel.js';
import { csrFill } from '../../engine/csr-fill.js';

export interface KcoreState {
  /** Neighbours not yet peeled (peeled ones may go on being decremented: never read again). */
  deg: Int32Array;
  /** Coreness; -1 while the vertex is not peeled. */
  core: Int32Array;
}

/** The undirected view: v's neighbours are adj[off[v], off[v + 1]); absent on a graph read from disk. */
export interface KcoreView {
  off?: Float64Array;
  adj?: Uint32Array;
}

/** The undirected view's two supersteps (src/engine/undirected-csr.ts). */
export const kcoreView = csrFill;

/** deg = the number of neighbours in the undirected view. */
export const kcoreInit: CpuKernel<Pick<KcoreState, 'deg'> & Pick<KcoreView, 'off'>> = {
  vertex(ctx, lo, hi, out) {
    const { deg, off } = ctx.state;
    if (off !== undefined) {
      for (let v = lo; v < hi; v++) deg[v] = off[v + 1]! - off[v]!;
      out.edges += off[hi]! - off[lo]!;
      return;
    }
    let d = 0;
    const count = (): void => void d++;
    for (let v = lo; v < hi; v++) {
      d = 0;
      out.edges += undirectedNeighbours(ctx.graph, v, count);
      deg[v] = d;
    }
  },
};

/** Vertices per block of `alive` (kcoreSelect). */
export const ALIVE_SHIFT = 10;

/**
 * Level c's first peel: every unpeeled vertex with deg <= c gets core c and is marked; the others'
 * view entries (without the CSR: their deg; nonzero either way) are summed (out.sum: what a pull
 * over them reads) and lower lowest[0] to their smallest deg (the level to try when this one marks
 * none). alive[b]: the unpeeled vertices of block b (2^ALIVE_SHIFT vertices) when a select last
 * walked it, never fewer than now (vertices are only ever peeled): a block at 0 is skipped, so late
 * levels walk the few blocks where the dense core's vertices are (ids follow degree: the hubs' low
 * ids) instead of every vertex. Only a task holding a whole block writes its count.
 */
export const kcoreSelect: CpuKernel<KcoreState & Pick<KcoreView, 'off'> & { lowest: Int32Array; alive: Int32Array }> = {
  vertex(ctx, lo, hi, out) {
    const { deg, core, off, lowest, alive } = ctx.state;
    const c = ctx.args.c!;
    let left = 0;
    let min = 0x7fffffff;
    for (let b0 = lo; b0 < hi; ) {
      const b = b0 >>> ALIVE_SHIFT;
      const blockEnd = (b + 1) << ALIVE_SHIFT;
      const end = Math.min(hi, blockEnd);
      const whole = b0 === b << ALIVE_SHIFT && end === blockEnd;
      if (whole && alive[b] === 0) {
        b0 = end;
        continue;
      }
      let unpeeled = 0;
      for (let v = b0; v < end; v++) {
        if (core[v] !== -1) continue;
        const d = deg[v]!;
        if (d <= c) {
          core[v] = c;
          ctx.next[v] = 1;
          out.active++;
        } else {
          unpeeled++;
          left += off !== undefined ? off[v + 1]! - off[v]! : d;
          if (d < min) min = d;
        }
      }
      if (whole) alive[b] = unpeeled;
      b0 = end;
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

// A push task's neighbours in blocks (per worker): each block's degrees are read first, plain
// loads whose cache misses overlap, then decremented (an atomic waits for the loads before it).
const BLOCK = 64;
const blockIds = new Uint32Array(BLOCK);
const blockDeg = new Int32Array(BLOCK);

/** Decrements the block's first k neighbours that are not peeled; peels those reaching c. Returns how many it peeled. */
function peelBlock(deg: Int32Array, core: Int32Array, next: Uint8Array, found: TaskOut['discovered'], c: number, k: number): number {
  for (let j = 0; j < k; j++) blockDeg[j] = deg[blockIds[j]!]!;
  let peeled = 0;
  // Several tasks may decrement one vertex: Atomics.sub returns the old value, and exactly one
  // decrement takes it from c + 1 to c. A peeled neighbour's deg (at c or below) is never read
  // again: no atomic for it (a read racing a decrement to c is harmless: the atomic returns <= c).
  for (let j = 0; j < k; j++) {
    if (blockDeg[j]! <= c) continue;
    const u = blockIds[j]!;
    if (Atomics.sub(deg, u, 1) === c + 1) {
      core[u] = c;
      next[u] = 1;
      found?.push(u);
      peeled++;
    }
  }
  return peeled;
}

/** Peels the frontier (vertices given core c) off their neighbours; those dropping to c follow. */
export const kcorePeel: CpuKernel<KcoreState & KcoreView> = {
  push(ctx, lo, hi, out) {
    const { deg, core, off, adj } = ctx.state;
    const c = ctx.args.c!;
    const list = ctx.frontierList!;
    let k = 0;
    if (off === undefined || adj === undefined) {
      const add = (u: number): void => {
        blockIds[k++] = u;
        if (k === BLOCK) (out.active += peelBlock(deg, core, ctx.next, out.discovered, c, k)), (k = 0);
      };
      for (let i = lo; i < hi; i++) out.edges += undirectedNeighbours(ctx.graph, list[i]!, add);
    } else {
      for (let i = lo; i < hi; i++) {
        const v = list[i]!;
        const b = off[v + 1]!;
        for (let e = off[v]!; e < b; e++) {
          blockIds[k++] = adj[e]!;
          if (k === BLOCK) (out.active += peelBlock(deg, core, ctx.next, out.discovered, c, k)), (k = 0);
        }
        out.edges += b - off[v]!;
      }
    }
    out.active += peelBlock(deg, core, ctx.next, out.discovered, c, k);
  },
  pull(ctx, pages, lo, hi, out) {
    const { deg, core, off, adj } = ctx.state;
    const c = ctx.args.c!;
    const fr = ctx.frontier!;
    const v0 = pages[0]!.vBegin;
    let k = 0;
    const count = (u: number): void => void (k += fr[u]!);
    // One writer per vertex: its own deg, no atomics.
    for (let v = v0 + lo; v < v0 + hi; v++) {
      if (core[v] !== -1) continue;
      k = 0;
      if (off === undefined || adj === undefined) out.edges += undirectedNeighbours(ctx.graph, v, count);
      else {
        const b = off[v + 1]!;
        for (let e = off[v]!; e < b; e++) k += fr[adj[e]!]!;
        out.edges += b - off[v]!;
      }
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
