/**
 * MIS's CPU kernel (the definition and its semantics: index.ts). misRound pulls over the round's
 * frontier (the undecided vertices): a neighbour outside the frontier is decided for good, one
 * inside is undecided whatever another task writes to it this round, so each vertex's verdict
 * reads only earlier rounds. Each vertex writes its own entry: no atomics.
 */
import { undirectedNeighbours, type CpuKernel } from 'tessera/kernel';

export interface MisState {
  /** -1 undecided, 1 in the set, 0 out. */
  mis: Int32Array;
  /** Distinct priorities (index.ts). */
  prio: Uint32Array;
}

const BEATEN = 1;
const COVERED = 2;

export const misRound: CpuKernel<MisState> = {
  pull(ctx, pages, lo, hi, out) {
    const { mis, prio } = ctx.state;
    const fr = ctx.frontier!;
    let p = 0;
    let verdict = 0;
    // COVERED (a member neighbour) settles it: stop the walk; BEATEN may still become COVERED.
    const look = (u: number): boolean => {
      if (fr[u] === 0) {
        if (mis[u] === 1) return ((verdict = COVERED), false);
      } else if (prio[u]! > p) verdict = BEATEN;
      return true;
    };
    const v0 = pages[0]!.vBegin;
    for (let v = v0 + lo; v < v0 + hi; v++) {
      if (fr[v] === 0) continue;
      p = prio[v]!;
      verdict = 0;
      out.edges += undirectedNeighbours(ctx.graph, v, look);
      if (verdict === COVERED) mis[v] = 0;
      else if (verdict === 0) {
        mis[v] = 1;
        out.sum++;
      } else {
        ctx.next[v] = 1;
        out.active++;
      }
    }
  },
};
