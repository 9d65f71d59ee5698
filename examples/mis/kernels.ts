/**
 * MIS's CPU kernel (the definition and its semantics: index.ts). misRound pulls over the round's
 * frontier (the undecided vertices): a neighbour outside the frontier is decided for good, one
 * inside is undecided whatever another task writes to it this round, so each vertex's verdict
 * reads only earlier rounds. Each vertex writes its own entry: no atomics.
 */
import { csrFill, type CpuKernel } from 'tessera/kernel';

export interface MisState {
  /** -1 undecided, 1 in the set, 0 out. */
  mis: Int32Array;
  /** Distinct priorities (index.ts). */
  prio: Uint32Array;
  /** The undirected view (the driver's undirectedCsr): v's neighbours are adj[off[v], off[v + 1]). */
  off: Float64Array;
  adj: Uint32Array;
}

/** The undirected view's two supersteps (undirectedCsr's fill, under this program's name). */
export const misView = csrFill;

export const misRound: CpuKernel<MisState> = {
  pull(ctx, pages, lo, hi, out) {
    const { mis, prio, off, adj } = ctx.state;
    const fr = ctx.frontier!;
    const v0 = pages[0]!.vBegin;
    for (let v = v0 + lo; v < v0 + hi; v++) {
      if (fr[v] === 0) continue;
      const p = prio[v]!;
      // A member neighbour (decided in an earlier round) settles it; a higher undecided one beats v.
      let covered = false;
      let beaten = false;
      const b = off[v + 1]!;
      let e = off[v]!;
      for (; e < b; e++) {
        const u = adj[e]!;
        if (fr[u] === 0) {
          if (mis[u] === 1) {
            covered = true;
            e++;
            break;
          }
        } else if (prio[u]! > p) beaten = true;
      }
      out.edges += e - off[v]!;
      if (covered) mis[v] = 0;
      else if (!beaten) {
        mis[v] = 1;
        out.sum++;
      } else {
        ctx.next[v] = 1;
        out.active++;
      }
    }
  },
};
