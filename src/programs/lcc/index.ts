/**
 * LCC — Graphalytics semantics (local clustering coefficient):
 *   N(v) = N_in(v) ∪ N_out(v), distinct neighbours, direction ignored; d = |N(v)|
 *   LCC(v) = 0 when d <= 1, else t / (d (d-1)), t = Σ_{u ∈ N(v)} |N(v) ∩ N_out(u)|
 * i.e. the ORDERED neighbour pairs (u, w) with an edge u→w, direction respected (undirected:
 * each neighbour-neighbour edge counts twice, the usual 2·triangles / (d(d-1)); directed: a
 * reciprocal pair counts twice). Equivalently t(v) = Σ over the triangles {v, u, w} of the
 * underlying undirected graph of mult(u, w) = [u→w] + [w→u]. Weights are ignored. Pages hold no
 * self-loops (the builder drops them), so v is never its own neighbour.
 *
 * Degree-ordered triangle enumeration (GAP tc / Schank–Wagner "forward"), three supersteps:
 *   lccCount   (pull) d(v) = |N(v)| and d+(v) = |N+(v)|, N+(v) = the neighbours with a smaller
 *              internal id — renumbering is by descending degree, so N+ holds the higher-degree
 *              neighbours and |N+(v)| <= sqrt(2|E|);
 *   lccFill    (pull) N+(v) as a flat sorted CSR (offsets from a prefix sum on the coordinator)
 *              with mult(v, u) ∈ {1, 2} per entry;
 *   lccTri     (pull) each triangle w < u < v is found once, at v: for each u = N+(v)[j], the
 *              sorted prefix N+(v)[0..j) (all < u) is intersected with the sorted N+(u) — a linear
 *              merge, or a galloping search of the shorter list in the longer when their lengths
 *              differ 16-fold. Each corner gets mult of the opposite edge: v's share is a local
 *              sum; the shares of u and w (both in N+(v)) are summed per position of N+(v) in a
 *              per-worker buffer and added once per (v, x ∈ N+(v)) with Atomics.add on a Uint32
 *              low word plus an exact carry into a high word (other tasks add to the same
 *              vertices: no lost update; counts up to 2^53).
 * LCC = t / (d (d-1)) is applied on the coordinator. The work is Σ_v Σ_{u ∈ N+(v)} (|N+(u)| +
 * position of u) instead of the Σ_{(u,v)} min(d_u, d_v) of per-vertex intersections of full
 * lists: hubs have short N+ lists, so skewed graphs stay fast (RMAT scale 18: ~10x less work).
 * No hash sets, nothing allocated per vertex; per worker only O(max degree) buffers. Any vertex
 * order gives the right counts; the builder's degree order gives the speed.
 * GPU topologies: lccCount and lccFill run on the CPU sockets (`cpuOnly`, O(E)); in lccTri each
 * GPU uploads N+ whole and enumerates at the vertices v it owns with the native kernel (gpu.ts,
 * native/src/kernels_tri.h: Green et al.'s / TriCore's per-element binary searches, balanced by
 * a scan of their counts), its corners' counts folded by 'sum' beside the sockets' (enumerate.ts).
 * CPU kernels: kernels.ts. Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { referenceLcc } from './reference.js';
import { enumerateTriangles } from './enumerate.js';

export const lcc = defineProgram({
  name: 'lcc',
  summary: 'local clustering coefficient (neighbours in either direction, ordered pairs linked u→w)',
  graphalytics: 'lcc',
  params: {},
  // The enumeration's counts (deg, fwdDeg, N+, and tLo/tHi that lccTri adds to other vertices)
  // are scratch of the run (enumerate.ts).
  state: { lcc: { type: 'f64', init: 0, reduce: 'owner' } },
  output: 'float',
  kernels: new URL('./kernels.js', import.meta.url),
  // lccTri's GPU side (lccCount / lccFill run on the CPU sockets on every topology).
  gpu: new URL('./gpu.js', import.meta.url),
  // lcc f64; pull only.
  profile: { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: true },
  reference: (g) => referenceLcc(g),
  demoParams: () => ({}),
  resumable: true,
  readsWeights: false,
  async run(ctx) {
    const n = ctx.graph.numVertices;
    const res = ctx.state.lcc;
    const { deg, t } = await enumerateTriangles(ctx, false);
    for (let v = 0; v < n; v++) {
      const d = deg[v]!;
      if (d > 1) res[v] = t[v]! / (d * (d - 1));
    }
    return res;
  },
});
