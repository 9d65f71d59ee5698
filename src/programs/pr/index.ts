/**
 * PageRank — Graphalytics semantics: PR_0 = 1/n; for a fixed number of iterations
 *   PR_i(v) = (1-d)/n + d * sum_{u in N_in(v)} PR_{i-1}(u)/outdeg(u) + d/n * sum_{w dangling} PR_{i-1}(w)
 * (dangling = out-degree 0; its rank is spread over every vertex), synchronous. Past 100
 * iterations a state that repeats (fixed point, or two states alternating) ends the loop with the
 * ranks the full count gives (fixed-point.ts), and the run's notes say so.
 *
 * Pull only: each vertex sums its in-neighbours' contributions (rank/outdeg) from the previous
 * iteration — no atomics, every page written by one task. The kernel also computes the next
 * contribution and the dangling mass in the same pass, so an iteration reads each edge once
 * (kernels.ts). Serial reference: reference.ts.
 *
 * With `weighted` 1 or a `tolerance` > 0 the run is networkx's pagerank (transitions by edge
 * weight, a stop when the sum of changes is below n * tolerance, `iterations` the most), which
 * ppr computes without sources: `delegate` hands it there (report note `ranAs`).
 */
import { defineProgram } from '../../engine/define.js';
import { ppr } from '../ppr/index.js';
import { peers } from './peers.js';
import { referencePageRank } from './reference.js';
import { StateWatch, WATCH_FROM } from './fixed-point.js';
import { nativeCountEqual } from '../../../actors/gpu/native-host.js';

export const pr = defineProgram({
  name: 'pr',
  aliases: ['pagerank'],
  summary: 'PageRank over a fixed number of iterations; dangling rank spread over every vertex',
  graphalytics: 'pr',
  params: {
    iterations: { type: 'int', default: 10, min: 0, property: 'num-iterations', description: 'number of iterations (fixed count; past 100, a repeating state ends it with the same ranks)' },
    damping: { type: 'number', default: 0.85, min: 0, max: 1, property: 'damping-factor', description: 'damping factor d' },
    weighted: { type: 'int', default: 0, min: 0, max: 1, description: '1: transitions follow edge weights (networkx pagerank weight=); runs as ppr' },
    tolerance: { type: 'number', default: 0, min: 0, description: 'stop once the sum of changes is below n * tolerance, iterations then the most (networkx tol); > 0 runs as ppr' },
  },
  state: {
    // Only a vertex's owner writes its rank and contributions (pull); the driver swaps the two and
    // never writes them (resident: GPUs keep their copies across the swap). Every entry written
    // before it is read: each pull superstep writes every vertex's rank and nextContrib, the first
    // reading no contributions (no fill of three arrays per run).
    contrib: { type: 'f64', init: 'unset', reduce: 'owner', resident: true },
    nextContrib: { type: 'f64', init: 'unset', reduce: 'owner', resident: true },
    rank: { type: 'f64', init: 'unset', reduce: 'owner' },
  },
  output: 'float',
  kernels: new URL('./kernels.js', import.meta.url),
  // prSinks is a vertexMap: CPU threads only (once per graph, where the addon does not count them).
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // contrib f64 + next f64; pull only; 10 iterations by default (Graphalytics).
  profile: { mode: 'pull', stateBytesPerVertex: 16, passes: 10, unit: 'pass', vertexTerm: true, calibration: () => ({ iterations: 5 }) },
  reference: (g, params) => {
    const nx = asNetworkx(params);
    return nx !== undefined ? ppr.reference!(g, nx) : referencePageRank(g, params);
  },
  demoParams: () => ({ iterations: 10, damping: 0.85 }),
  resumable: true,
  readsWeights: false,
  delegate: (params) => {
    const nx = asNetworkx(params);
    return nx !== undefined ? { program: ppr, params: nx } : undefined;
  },
  async run(ctx, { iterations, damping }) {
    const n = ctx.graph.numVertices;
    const r0 = 1 / n;
    const { rank } = ctx.state;
    const all = ctx.all();
    // No iteration: PR_0, 1/n everywhere (rank is declared unset, written by the iterations).
    if (iterations === 0) return rank.fill(r0);
    let c = ctx.resume<{ it: number; dangling: number; contrib: Float64Array; nextContrib: Float64Array }>();
    if (c === undefined && ctx.gpusOwnAll && ctx.forcedMode === undefined && !ctx.checkpointing && n > 0 && iterations >= 1) {
      // GPUs owning every vertex (one, or several exchanging their contributions each iteration)
      // run the iterations in one call (gpu.ts pr_iterations): no superstep's host round trip per
      // iteration; the ranks are the supersteps' below. Past WATCH_FROM the state watch needs the
      // states on the host: the call runs the first WATCH_FROM and hands its last contributions
      // back (`handBack`), and the supersteps below go on from there.
      const k = await sinks(ctx);
      const oneCall = iterations <= WATCH_FROM + 1;
      const calls = oneCall ? iterations : WATCH_FROM;
      const { contrib, nextContrib } = ctx.state;
      const step = await ctx.edgeMap('pr_iterations', all, oneCall ? { rank } : { rank, contrib }, { iterations: calls, damping, r0, dangling: k === 0 ? 0 : k * r0, ...(oneCall ? {} : { handBack: 1 }) }, { modes: ['pull'], gpuOnly: true });
      ctx.release(step.next);
      if (oneCall) return rank;
      // The last iteration's mass: each GPU's own, summed by the engine.
      c = { it: calls, dangling: step.sum, contrib, nextContrib };
    }
    if (c === undefined || c.it === 0) {
      // rank = 1/n everywhere: the first iteration computes each contribution (r0 / outdeg) where
      // it reads it, so no pass writes rank and contrib first (on a GPU that pass and the upload of
      // contrib took a quarter of a run); the dangling mass is r0 times the sinks.
      const { contrib, nextContrib } = ctx.state;
      const k = await sinks(ctx);
      c = { it: 0, dangling: k === 0 ? 0 : k * r0, contrib, nextContrib };
    }
    let { it, dangling, contrib, nextContrib } = c;
    const watch = new StateWatch();
    let settled = false;
    for (; it < iterations; it++) {
      await ctx.checkpoint({ it, dangling, contrib, nextContrib });
      const base = (1 - damping) / n + (damping * dangling) / n;
      // last: ranks are read only after the final iteration (a GPU actor copies its range back
      // then). Checkpointed and watched runs leave it out: contributions come back every step.
      const watching = !settled && it >= WATCH_FROM && it < iterations - 1;
      const last = it === iterations - 1 ? 1 : 0;
      const args: Record<string, number> = ctx.checkpointing || watching ? { base, damping } : { base, damping, last };
      const state: Record<string, Float64Array> = it === 0 ? { nextContrib, rank } : { contrib, nextContrib, rank };
      const step = await ctx.edgeMap('pr', all, state, it === 0 ? { ...args, r0 } : args, { modes: ['pull'] });
      dangling = step.sum;
      // Its next flags go unread: the bitmap serves the next iteration (a fresh 16 MB one a step
      // cost ~1.3 ms of page faults in a session's first run, RMAT 24).
      ctx.release(step.next);
      [contrib, nextContrib] = [nextContrib, contrib];
      const period = watching ? watch.period(contrib, dangling) : 0;
      if (period > 0) {
        // State it+1 recurs with this period: skip whole periods, leaving the final iteration
        // (it runs with last = 1, so GPUs send their ranks) to compute from the same state.
        const skip = Math.floor((iterations - 2 - it) / period) * period;
        ctx.note('stopped', `${period === 1 ? 'a fixed point' : 'two states alternating'} after iteration ${it + 1} of ${iterations}: ${skip} iterations that repeat it were skipped`);
        it += skip;
        settled = true;
      }
    }
    return rank;
  },
});

/**
 * The graph's sinks (out-degree 0), counted once per graph: on the addon's threads, else by a
 * vertex map on the CPU threads (cold in a session's first run: ~35 ms at RMAT 24).
 */
const sinkCounts = new WeakMap<object, number>();
async function sinks(ctx: { graph: { numVertices: number; outDegree: Uint32Array }; vertexMap(k: string, s: Record<string, never>): Promise<{ sum: number }> }): Promise<number> {
  let k = sinkCounts.get(ctx.graph);
  if (k === undefined) {
    const count = nativeCountEqual();
    k = count !== undefined ? count(ctx.graph.outDegree.subarray(0, ctx.graph.numVertices), 0) : (await ctx.vertexMap('prSinks', {})).sum;
    sinkCounts.set(ctx.graph, k);
  }
  return k;
}

/** networkx's pagerank (ppr without sources) is Graphalytics' with weights and a tolerance stop: its parameters, when asked for. */
function asNetworkx(p: { iterations: number; damping: number; weighted: number; tolerance: number }) {
  const { iterations, damping, weighted, tolerance } = p;
  return weighted === 1 || tolerance > 0 ? { sources: undefined, damping, iterations, tolerance, weighted } : undefined;
}
