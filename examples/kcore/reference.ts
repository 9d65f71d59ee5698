/**
 * Reference k-core (serial, for tests): Batagelj-Zaversnik bucket peeling over the undirected
 * view (each vertex's out- and in-neighbours as one set), networkx `core_number(G.to_undirected())`.
 * Internal ids in and out.
 */
import type { Graph, PageSet } from 'tessera';

/** v's list in one page set (all the pages of a split vertex). */
function listOf(set: PageSet, v: number): number[] {
  const out: number[] = [];
  for (let pi = set.firstPageOf[v]!; pi < set.pages.length; pi++) {
    const p = set.pages[pi]!;
    if (p.vBegin > v || (p.split && p.vBegin !== v)) break;
    const a = p.split ? 0 : p.offsets[v - p.vBegin]!;
    const b = p.split ? p.edges : p.offsets[v - p.vBegin + 1]!;
    for (let e = a; e < b; e++) out.push(p.nbrs[e]!);
    if (!p.split) break;
  }
  return out;
}

/** Neighbour lists of the undirected view, each neighbour once. */
export function undirectedLists(g: Graph): number[][] {
  const lists: number[][] = [];
  for (let v = 0; v < g.numVertices; v++) lists.push([...new Set([...listOf(g.out, v), ...listOf(g.in, v)])]);
  return lists;
}

export function referenceKcore(g: Graph): Int32Array {
  const n = g.numVertices;
  const adj = undirectedLists(g);
  const deg = new Int32Array(n);
  let maxDeg = 0;
  for (let v = 0; v < n; v++) maxDeg = Math.max(maxDeg, (deg[v] = adj[v]!.length));
  // Vertices sorted by degree (counting sort); bin[d] = where degree d starts; pos[v] = v's place.
  const bin = new Int32Array(maxDeg + 2);
  for (let v = 0; v < n; v++) bin[deg[v]! + 1]!++;
  for (let d = 1; d <= maxDeg + 1; d++) bin[d]! += bin[d - 1]!;
  const vert = new Int32Array(n);
  const pos = new Int32Array(n);
  const fill = bin.slice();
  for (let v = 0; v < n; v++) (pos[v] = fill[deg[v]!]!++), (vert[pos[v]!] = v);
  for (let i = 0; i < n; i++) {
    const v = vert[i]!;
    for (const u of adj[v]!) {
      if (deg[u]! <= deg[v]!) continue;
      // Move u to the front of its bin, then shrink the bin: u's degree drops by one.
      const du = deg[u]!;
      const pu = pos[u]!;
      const pw = bin[du]!;
      const w = vert[pw]!;
      if (u !== w) (vert[pu] = w), (pos[w] = pu), (vert[pw] = u), (pos[u] = pw);
      bin[du]!++;
      deg[u] = du - 1;
    }
  }
  return deg;
}
