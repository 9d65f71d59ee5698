/**
 * Reference WCC (serial, for tests). Graphalytics semantics: two vertices share a label exactly
 * when a path joins them with edge directions ignored; a vertex without edges is its own
 * component. Label = the smallest ORIGINAL id in the component (g.ids.toOriginal), the
 * convention of the Graphalytics expected files (validation only compares the partition).
 *
 * Union-find over every stored out-edge (each undirected edge is stored both ways, each
 * directed edge once: enough to join its endpoints). Output per INTERNAL id, Float64Array of
 * original-id labels.
 */
import type { Graph } from '../../graph/types.js';
import { outCsr } from '../adjacency.js';

export function referenceWcc(g: Graph): Float64Array {
  const n = g.numVertices;
  const { offsets, nbrs } = outCsr(g);
  const parent = new Uint32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[x] !== r) {
      const nx = parent[x]!;
      parent[x] = r;
      x = nx;
    }
    return r;
  };
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
      const a = find(v);
      const b = find(nbrs[e]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const toOriginal = g.ids.toOriginal;
  const minLabel = new Float64Array(n).fill(Infinity);
  for (let v = 0; v < n; v++) {
    const r = find(v);
    if (toOriginal[v]! < minLabel[r]!) minLabel[r] = toOriginal[v]!;
  }
  const label = new Float64Array(n);
  for (let v = 0; v < n; v++) label[v] = minLabel[find(v)]!;
  return label;
}
