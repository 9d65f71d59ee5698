/**
 * Reference HITS (serial, for tests): the formula of index.ts with plain loops over each
 * vertex's in- and out-lists, in list order. Internal ids in and out; returns authorities.
 */
import type { Graph, PageSet } from 'tessera';

/** Sums x over v's list in `set` (all the pages of a split vertex). */
function sumOver(set: PageSet, v: number, x: Float64Array): number {
  let s = 0;
  for (let pi = set.firstPageOf[v]!; pi < set.pages.length; pi++) {
    const p = set.pages[pi]!;
    if (p.vBegin > v || (p.split && p.vBegin !== v)) break;
    const a = p.split ? 0 : p.offsets[v - p.vBegin]!;
    const b = p.split ? p.edges : p.offsets[v - p.vBegin + 1]!;
    for (let e = a; e < b; e++) s += x[p.nbrs[e]!]!;
    if (!p.split) break;
  }
  return s;
}

/** x /= its L2 norm (a zero vector stays zero). */
function normalise(x: Float64Array): void {
  let squares = 0;
  for (const y of x) squares += y * y;
  if (squares > 0) {
    const f = 1 / Math.sqrt(squares);
    for (let v = 0; v < x.length; v++) x[v]! *= f;
  }
}

export function referenceHits(g: Graph, iterations: number): Float64Array {
  const n = g.numVertices;
  const hub = new Float64Array(n).fill(1);
  const auth = new Float64Array(n).fill(1);
  for (let it = 0; it < iterations; it++) {
    for (let v = 0; v < n; v++) auth[v] = sumOver(g.in, v, hub);
    normalise(auth);
    for (let v = 0; v < n; v++) hub[v] = sumOver(g.out, v, auth);
    normalise(hub);
  }
  return auth;
}
