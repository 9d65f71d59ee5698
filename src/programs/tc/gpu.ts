/**
 * The GPU side of tc: LCC's native intersection kernel (native/src/kernels_lcc.h) in its raw mode,
 * t / 2 with t = Σ_{u ∈ N(v)} |N(v) ∩ N(u)|, where N(u) comes from every vertex's in+out list
 * (an undirected graph's out-pages are those already).
 */
import { SET_ALLOUT, SET_ALLUNION, type GpuHandler } from '../../../actors/gpu/handler.js';
import { unionPages } from '../../../actors/gpu/pages.js';

/** Controllers (one per graph load) that hold SET_ALLUNION. */
const registered = new WeakSet<object>();

export const tcDirect: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    await a.ensure('tri', 'f64');
    const set = await a.ensureLcc();
    const g = a.graph;
    let outSet = SET_ALLOUT;
    if (g.in !== g.out) {
      outSet = SET_ALLUNION;
      if (!registered.has(a.controller)) {
        await a.register(SET_ALLUNION, unionPages(g.in, g.out, g.inDegree, g.outDegree, [[0, g.numVertices]], g.pageEdges));
        registered.add(a.controller);
      }
    }
    await a.run('lcc', { setId: set, pages: a.rangePages(set), params: { outSet, raw: 1 }, state: { lcc: 'tri' } });
    return a.out({ sync: await a.syncOwned('tri', 'tri', s) });
  },
};
