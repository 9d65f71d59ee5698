/**
 * Flattens a paged graph into plain CSR arrays for the serial reference implementations
 * (reference/*.ts). Memory-hungry on purpose (one copy of every edge, float64 weights): the
 * references are for tests and validation, not for speed.
 *
 * Pages are walked in order; a vertex that spans several consecutive split pages gets the
 * concatenation of its parts, so its list stays sorted when the parts are (types.ts: split pages
 * of one vertex hold consecutive slices of its sorted list).
 */
import type { Graph, PageSet } from '../graph/types.js';

export interface Csr {
  /** Number of vertices (internal ids 0..n-1). */
  readonly n: number;
  /** offsets[v]..offsets[v+1] index nbrs/weights for vertex v; length n + 1. Float64 so m may exceed 2^32. */
  readonly offsets: Float64Array;
  /** Neighbour internal ids. */
  readonly nbrs: Uint32Array;
  /** Edge weights as float64, parallel to nbrs, when the page set is weighted. */
  readonly weights?: Float64Array;
}

/** Plain CSR of one PageSet (g.out or g.in). */
export function flatten(set: PageSet): Csr {
  const n = set.firstPageOf.length;
  const offsets = new Float64Array(n + 1);
  let weighted = false;
  for (const p of set.pages) {
    if (p.weights !== undefined) weighted = true;
    for (let v = p.vBegin; v < p.vEnd; v++) offsets[v + 1]! += p.offsets[v - p.vBegin + 1]! - p.offsets[v - p.vBegin]!;
  }
  for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
  const m = offsets[n]!;
  const nbrs = new Uint32Array(m);
  const weights = weighted ? new Float64Array(m) : undefined;
  const cur = offsets.slice(0, n);
  for (const p of set.pages) {
    for (let v = p.vBegin; v < p.vEnd; v++) {
      const lo = p.offsets[v - p.vBegin]!;
      const hi = p.offsets[v - p.vBegin + 1]!;
      let at = cur[v]!;
      for (let e = lo; e < hi; e++, at++) {
        nbrs[at] = p.nbrs[e]!;
        if (weights !== undefined) weights[at] = p.weights === undefined ? 1 : p.weights[e]!;
      }
      cur[v] = at;
    }
  }
  return { n, offsets, nbrs, weights };
}

/** Out-edge CSR of a graph. */
export function outCsr(g: Graph): Csr {
  return flatten(g.out);
}

/** In-edge CSR of a graph (the out CSR again for undirected graphs, where g.in === g.out). */
export function inCsr(g: Graph): Csr {
  return flatten(g.in);
}

/**
 * N(v) = N_in(v) ∪ N_out(v) as sorted, duplicate-free lists (direction ignored, no weights). A
 * self-loop, if a graph had one, would appear as v in its own list.
 */
export function undirectedCsr(g: Graph): Csr {
  const out = flatten(g.out);
  if (g.in === g.out) return dedupeSorted(out);
  const inn = flatten(g.in);
  const n = out.n;
  const lists: Uint32Array[] = new Array(n);
  let m = 0;
  for (let v = 0; v < n; v++) {
    const s = new Set<number>();
    for (let e = out.offsets[v]!; e < out.offsets[v + 1]!; e++) s.add(out.nbrs[e]!);
    for (let e = inn.offsets[v]!; e < inn.offsets[v + 1]!; e++) s.add(inn.nbrs[e]!);
    const l = Uint32Array.from(s).sort();
    lists[v] = l;
    m += l.length;
  }
  const offsets = new Float64Array(n + 1);
  const nbrs = new Uint32Array(m);
  for (let v = 0; v < n; v++) {
    nbrs.set(lists[v]!, offsets[v]!);
    offsets[v + 1] = offsets[v]! + lists[v]!.length;
  }
  return { n, offsets, nbrs };
}

function dedupeSorted(c: Csr): Csr {
  const offsets = new Float64Array(c.n + 1);
  const nbrs: number[] = [];
  for (let v = 0; v < c.n; v++) {
    const l = Array.from(new Set(c.nbrs.subarray(c.offsets[v]!, c.offsets[v + 1]!))).sort((a, b) => a - b);
    for (const u of l) nbrs.push(u);
    offsets[v + 1] = nbrs.length;
  }
  return { n: c.n, offsets, nbrs: Uint32Array.from(nbrs) };
}

/** Number of entries of v's list. */
export function degree(c: Csr, v: number): number {
  return c.offsets[v + 1]! - c.offsets[v]!;
}
