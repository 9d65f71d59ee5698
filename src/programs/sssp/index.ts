/**
 * SSSP — Graphalytics semantics: the length (sum of float64 edge weights, all >= 0, zero allowed)
 * of the shortest path from the source along out-edges (both directions on undirected graphs);
 * the source has distance 0, unreachable vertices Infinity (written `infinity`). An unweighted
 * graph is treated as having weight 1 on every edge (distances are then hop counts). Negative or
 * NaN weights are an input error, checked when the program starts (one pass over the weights).
 *
 * Delta-stepping with GraphScope GPU's update window w: vertices whose distance improved wait in
 * buckets floor(dist / w); a superstep relaxes the out-edges of the current bucket's vertices
 * (those with dist < bound = (k+1) w), the rest are deferred; when the bucket empties the bound
 * advances to the next non-empty bucket. w = Infinity is frontier Bellman-Ford; the default is
 * the mean edge weight (recorded in the run report as note `window`).
 *
 * Push: relax out-edges of the frontier list with a min-reduce. JS Atomics has no float64 min,
 * so a candidate that beats the plain read takes a striped Int32 spin-lock (lock = v & mask),
 * re-checks and writes under it: no lost update. The lock also serialises activation of v.
 * (The unlocked read is only a filter; V8 does aligned 8-byte loads and stores on x64 and arm64,
 * so it does not tear in practice, and the decision is re-made under the lock.)
 * Pull: each vertex takes the min over its frontier in-neighbours (one writer per vertex).
 * Chaotic relaxation inside a superstep is fine: any vertex whose distance drops is activated
 * and relaxed again, and weights >= 0 keep every improvement in the current bucket or later.
 * CPU kernel: kernels.ts. Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { peers } from './peers.js';
import { deltaSteps } from './delta.js';
import { TesseraError } from '../../errors.js';
import type { Graph } from '../../graph/types.js';
import { allocStripedLocks } from '../locks.js';
import { referenceSssp } from './reference.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';

export const sssp = defineProgram({
  name: 'sssp',
  summary: 'shortest-path length (sum of weights) from a source; unreachable infinity',
  graphalytics: 'sssp',
  params: {
    source: { type: 'vertex', required: true, property: 'source-vertex', description: 'source vertex' },
    // No default: the driver takes the mean edge weight (checkWeights).
    window: { type: 'number', above: 0, max: Infinity, description: 'delta-stepping update window (> 0, Infinity = Bellman-Ford); default: the mean edge weight' },
  },
  state: {
    // Unset: one GPU owning every vertex writes it whole on the device; the driver fills it otherwise.
    dist: { type: 'f64', init: 'unset', reduce: 'min', resident: true },
  },
  output: 'distance',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // dist f64 + frontier u8 + next u8; delta-stepping is push-heavy.
  profile: { mode: 'push', stateBytesPerVertex: 10, passes: 1, unit: 'run', vertexTerm: false, weighted: true },
  reference: (g, { source }) => referenceSssp(g, source),
  // The weight check at create (RMAT 24: ~40 ms, a third of a GPU-only run); a bad weight is the run's error.
  warm(g) {
    try {
      checkWeights(g);
    } catch {
      // checkWeights keeps no answer for a graph that fails: the run checks again and says why.
    }
  },
  demoParams: (g) => ({ source: g.ids.toOriginal[0]! }),
  resumable: true,
  soleGpu: true,
  async run(ctx, { source, window }) {
    const n = ctx.graph.numVertices;
    const mean = checkWeights(ctx.graph);
    const w = window ?? mean;
    if (!(w > 0)) throw new TesseraError(`SSSP window ${w} is not positive`, { key: '--window', fix: 'use a window > 0, e.g. the mean edge weight, or Infinity' });
    ctx.note('window', w);
    const { dist } = ctx.state;
    if (ctx.soleGpu && ctx.forcedMode === undefined && !ctx.checkpointing && ctx.resume() === undefined) {
      // One GPU owning every vertex: every bucket in one call (gpu.ts sssp_steps), the buckets
      // pending flags on the device; dist is set there and copied back once.
      const from = ctx.frontierOf([source]);
      const { sum, next } = await ctx.edgeMap('sssp_steps', from, { dist }, { source, window: w }, { modes: ['push'], gpuOnly: true });
      // Both maps back now (as bfs's levels): the driver holds no frontier past its last superstep.
      ctx.release(next);
      ctx.release(from);
      ctx.note('windowSteps', sum);
      return dist;
    }
    // A resumed run's dist is the checkpoint's.
    if (ctx.resume() === undefined) ctx.fill(dist, Infinity);
    const lock = allocStripedLocks(ctx, n);
    const steps = await deltaSteps(ctx, dist, lock, w, source);
    ctx.note('windowSteps', steps);
    return dist;
  },
});

/** checkWeights' answer per graph: a loaded graph's weights never change (RMAT 24: 263 M weights a run). */
const checkedWeights = new WeakMap<Graph, number>();

/**
 * Checks that every weight is >= 0 and not NaN (TesseraError naming the first bad edge), and
 * returns the mean of the finite weights (1 when unweighted or none is finite and positive).
 * Once per graph; a graph that fails is checked (and fails) again.
 */
export function checkWeights(g: Graph): number {
  let mean = checkedWeights.get(g);
  if (mean === undefined) checkedWeights.set(g, (mean = weightMean(g)));
  return mean;
}

/** checkWeights' pass: per page on the addon's threads where `cpu` has it (the same sums as scanPage's), else here. */
export function weightMean(g: Graph, cpu = nativeCpuKernels()): number {
  const pages = g.out.pages;
  if (pages.length === 0 || pages[0]!.weights === undefined) return 1;
  // Per page: the sum and count of its finite weights, its first bad one's index (-1: none).
  const stats = new Float64Array(3 * pages.length);
  if (cpu?.weightScan !== undefined && pages.length > 1 && g.out.stored === undefined) cpu.weightScan(nativePageSet(cpu, g.out), stats);
  else pages.forEach((p, i) => scanPage(p.weights!, p.edges, stats, 3 * i));
  let sum = 0;
  let count = 0;
  for (let i = 0; i < pages.length; i++) {
    const bad = stats[3 * i + 2]!;
    if (bad >= 0) {
      const p = pages[i]!;
      let v = 0;
      while (p.offsets[v + 1]! <= bad) v++;
      const from = g.ids.toOriginal[p.vBegin + v]!;
      const to = g.ids.toOriginal[p.nbrs[bad]!]!;
      throw new TesseraError(`SSSP needs non-negative edge weights, but edge ${from} -> ${to} weighs ${p.weights![bad]}`, {
        file: g.source,
        fix: 'correct or remove the edges with negative or NaN weights (shortest paths are undefined with them), or run bfs for hop counts',
      });
    }
    sum += stats[3 * i]!;
    count += stats[3 * i + 1]!;
  }
  return count > 0 && sum > 0 ? sum / count : 1;
}

/** One page's part of weightMean (the addon's weightScan: the same sums in the same order). */
function scanPage(w: Float32Array | Float64Array, edges: number, out: Float64Array, at: number): void {
  let sum = 0;
  let count = 0;
  let bad = -1;
  for (let e = 0; e < edges; e++) {
    const x = w[e]!;
    if (x >= 0) {
      if (x !== Infinity) (sum += x), count++;
      continue;
    }
    bad = e;
    break;
  }
  (out[at] = sum), (out[at + 1] = count), (out[at + 2] = bad);
}
