/**
 * Personalized, weighted PageRank with a tolerance stop — networkx `pagerank(G, alpha=damping,
 * personalization={s: 1 for s in sources}, max_iter=iterations, tol=tolerance, weight='weight'
 * or None)`: x_0 = 1/n; each iteration x' = d (x A + s p) + (1 - d) p, where A[u][v] = w(u, v) /
 * W(u) (W: u's out-weight; every weight 1 when unweighted or weighted=0), s is the rank of the
 * vertices with W = 0 (spread like p, networkx's default for dangling vertices), p uniform over the
 * distinct sources (1/n each without sources). Stops after the first iteration whose sum of
 * |x' - x| is below n * tolerance (note `converged`), or after `iterations` (networkx raises
 * then; here the last ranks are returned with converged = false). `pr` is the Graphalytics one.
 *
 * Kernels: kernels.ts (CPU; pull only, each vertex written by its owner), gpu.cu (GPU operators:
 * the gather, and the apply as a vertex pass where GPUs own every vertex);
 * serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { referencePpr } from './reference.js';

export const ppr = defineProgram({
  name: 'ppr',
  aliases: ['personalized-pagerank'],
  summary: 'personalized / weighted PageRank to a tolerance (networkx pagerank)',
  params: {
    sources: { type: 'vertices', description: 'personalization: the walk restarts at these vertices (default: anywhere)' },
    damping: { type: 'number', default: 0.85, min: 0, max: 1, description: 'damping factor (networkx alpha)' },
    iterations: { type: 'int', default: 100, min: 1, description: 'at most this many iterations (networkx max_iter)' },
    tolerance: { type: 'number', default: 1e-6, min: 0, description: 'stop when the sum of changes is below n * tolerance (networkx tol)' },
    weighted: { type: 'int', default: 1, min: 0, max: 1, description: '1: transitions follow edge weights (when the graph has them); 0: every edge weighs 1' },
  },
  // The iterations' arrays stay on GPUs owning every vertex until the run ends (the driver reads
  // none of them between its supersteps); outW (the first superstep's) and p go up or back once.
  state: {
    x: { type: 'f64', init: 0, reduce: 'owner', resident: 'device' },
    xn: { type: 'f64', init: 0, reduce: 'owner', resident: 'device' },
    contrib: { type: 'f64', init: 0, reduce: 'owner', resident: 'device' },
    p: { type: 'f64', init: 0, reduce: 'none', resident: true },
    outW: { type: 'f64', init: 0, reduce: 'owner', resident: true },
  },
  output: 'float',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: {
    source: new URL('./gpu.cu', import.meta.url),
    kernels: {
      pprInit: {
        modes: ['pull'],
        state: { x: 'f64', contrib: 'f64', outW: 'f64' },
        args: { x0: 'f64', weighted: 'i32' },
        fills: ['x', 'contrib', 'outW'],
      },
      pprGather: {
        modes: ['pull'],
        state: { contrib: 'f64', x: 'f64', xn: 'f64', p: 'f64' },
        args: { alpha: 'f64', dangling: 'f64', weighted: 'i32' },
        reads: ['contrib', 'x', 'p'],
        fills: ['xn'],
      },
      pprApply: {
        modes: ['vertex'],
        state: { x: 'f64', xn: 'f64', contrib: 'f64', outW: 'f64' },
        reads: ['xn', 'outW'],
        fills: ['x', 'contrib'],
      },
    },
  },
  // x, xn, contrib, p, outW f64; one pull pass per iteration (typically tens).
  profile: { mode: 'pull', stateBytesPerVertex: 40, passes: 30, unit: 'pass', vertexTerm: true, weighted: true, calibration: () => ({ iterations: 3, tolerance: 0 }) },
  reference: (g, params) => referencePpr(g, { ...params, sources: params.sources ?? [] }).values,
  demoParams: (g) => ({ sources: [g.ids.toOriginal[0]!] }),
  resumable: true,
  async run(ctx, { sources, damping, iterations, tolerance, weighted }) {
    const n = ctx.graph.numVertices;
    const { x, xn, contrib, p, outW } = ctx.state;
    let c = ctx.resume<{ it: number; converged: boolean; dangling: number }>();
    const all = ctx.all();
    if (c === undefined) {
      // In place (p is zeroed state): a fresh array of n entries and its copy cost ~50 ms at RMAT 24.
      const distinct = new Set(sources ?? []);
      if (distinct.size === 0) ctx.fill(p, 1 / n);
      else for (const s of distinct) p[s] = 1 / distinct.size;
      const init = await ctx.edgeMap('pprInit', all, { x, contrib, outW }, { x0: 1 / n, weighted }, { modes: ['pull'], pullPages: 'out' });
      ctx.release(init.next);
      c = { it: 0, converged: false, dangling: init.sum };
    }
    let { it, converged, dangling } = c;
    while (it < iterations && !converged) {
      await ctx.checkpoint({ it, converged, dangling });
      it++;
      const { sum: err, next } = await ctx.edgeMap('pprGather', all, { contrib, x, xn, p }, { alpha: damping, dangling, weighted }, { modes: ['pull'] });
      ctx.release(next);
      dangling = (await ctx.vertexMap('pprApply', { x, xn, contrib, outW })).sum;
      converged = err < n * tolerance;
    }
    ctx.note('iterations', it);
    ctx.note('converged', converged);
    return x;
  },
});
