/**
 * Triangle counting — networkx `triangles` of the undirected view: for every vertex, the number of
 * triangles {v, u, w} of the simple undirected graph underlying the input (an edge in either
 * direction links two vertices; self-loops and repeated edges do not count); the run's note
 * `triangles` is the total, each triangle once (GAPBS `tc` on the symmetrised graph).
 *
 * LCC's degree-ordered enumeration (lcc/index.ts; GAP tc / Schank–Wagner "forward"): each
 * triangle is found once, at its vertex of highest internal id, and adds 1 to each of its three
 * corners (LCC adds the opposite edge's multiplicity instead: here every multiplicity is 1). On
 * GPU topologies the GPUs enumerate at their own vertices with the native kernel (lcc/gpu.ts,
 * re-exported by gpu.ts) beside the sockets. Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { TesseraError } from '../../errors.js';
import { peers } from './peers.js';
import { referenceTriangles } from './reference.js';
import { enumerateTriangles } from '../lcc/enumerate.js';

export const tc = defineProgram({
  name: 'tc',
  aliases: ['triangles'],
  summary: 'triangles through each vertex (undirected view); total in the notes',
  params: {},
  state: { count: { type: 'u32', init: 0, reduce: 'owner' } },
  output: 'int',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // count u32 (+ scratch); pull only (three passes: count and fill on the CPU sockets).
  profile: { mode: 'pull', stateBytesPerVertex: 12, passes: 1, unit: 'pass', vertexTerm: true },
  reference: (g) => Uint32Array.from(referenceTriangles(g)),
  demoParams: () => ({}),
  resumable: true,
  readsWeights: false,
  async run(ctx) {
    const n = ctx.graph.numVertices;
    const count = ctx.state.count;
    const tri = (await enumerateTriangles(ctx, true)).t;
    let total = 0;
    for (let v = 0; v < n; v++) {
      const t = tri[v]!;
      if (t > 0xffffffff) {
        // A vertex's triangles are at most the edges among its neighbours: only past 2^32 edges.
        throw new TesseraError(`vertex ${ctx.graph.ids.toOriginal[v]} lies in ${t} triangles, more than a per-vertex count holds (2^32 - 1)`, { fix: 'this graph needs 64-bit counts, which tc does not have yet' });
      }
      count[v] = t;
      total += t;
    }
    ctx.note('triangles', total / 3);
    return count;
  },
});
