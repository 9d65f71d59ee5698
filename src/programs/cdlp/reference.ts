/**
 * Reference CDLP (serial, for tests). Graphalytics semantics (deterministic synchronous label
 * propagation), labels are ORIGINAL ids:
 *   L_0(v) = original id of v
 *   L_i(v) = the most frequent label among L_{i-1}(u) over u ∈ N_in(v) and u ∈ N_out(v), counted
 *            as a multiset: on a directed graph a neighbour linked both ways counts twice. Ties go
 *            to the numerically smallest label. A vertex with no neighbours keeps its label.
 * for i = 1..iterations (fixed count), synchronous. On undirected graphs (g.in === g.out) each
 * neighbour is counted once here; counting it twice (via N_in and N_out) doubles every count and
 * never changes the winner. Weights are ignored.
 *
 * Output per INTERNAL id, Float64Array of original-id labels.
 */
import type { Graph } from '../../graph/types.js';
import { inCsr, outCsr } from '../adjacency.js';

export function referenceCdlp(g: Graph, iterations: number): Float64Array {
  const n = g.numVertices;
  const out = outCsr(g);
  const inn = g.in === g.out ? undefined : inCsr(g);
  let label = Float64Array.from(g.ids.toOriginal);
  let next = new Float64Array(n);
  const hist = new Map<number, number>();
  for (let it = 0; it < iterations; it++) {
    for (let v = 0; v < n; v++) {
      hist.clear();
      for (const c of inn === undefined ? [out] : [out, inn]) {
        for (let e = c.offsets[v]!; e < c.offsets[v + 1]!; e++) {
          const l = label[c.nbrs[e]!]!;
          hist.set(l, (hist.get(l) ?? 0) + 1);
        }
      }
      if (hist.size === 0) {
        next[v] = label[v]!;
        continue;
      }
      let best = Infinity;
      let bestCount = 0;
      for (const [l, c] of hist) {
        if (c > bestCount || (c === bestCount && l < best)) {
          best = l;
          bestCount = c;
        }
      }
      next[v] = best;
    }
    [label, next] = [next, label];
  }
  return label;
}
