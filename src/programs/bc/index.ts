/**
 * BC — Brandes betweenness centrality on hop counts (unweighted shortest paths along out-edges,
 * both ways on undirected graphs; weights ignored), UNNORMALISED:
 *   BC(v) = Σ_{s ∈ S} Σ_{t ≠ s, t ≠ v, v ≠ s} σ_st(v) / σ_st
 * with S = every vertex (exact, the default), K vertices sampled deterministically by seed, or an
 * explicit list. Directed graphs: the sum above (ordered pairs). Undirected graphs: the sum
 * divided by 2, so each unordered pair counts once — networkx
 * betweenness_centrality(normalized=False) / graphology betweenness(normalized: false). A source
 * subset gets the same halving and no other rescaling (networkx's k-sampling would multiply by
 * n/k; this does not).
 *
 * TOTEM's BSP phases, per source:
 *   forward  (bcFwd, one superstep per BFS level L): level-synchronous BFS that also counts
 *            shortest paths σ. Push: a CAS on dist discovers level L+1; σ[v] += σ[u] is a float64
 *            add, so it is taken under a striped Int32 spin-lock (no lost update). Pull: each
 *            unvisited vertex sums σ over its in-neighbours in the frontier (one writer).
 *   backward (bcBack, levels max-1 .. 1): δ[v] = Σ_{w ∈ N_out(v), dist[w] = L+1}
 *            σ[v]/σ[w] (1 + δ[w]); then BC[v] += δ[v]. Every write is to the vertex itself, so
 *            both modes are race-free: push walks the out-edges of the level's vertex list, pull
 *            walks the out-pages (edgeMap pullPages: 'out') for the vertices of the level.
 * A push level's list is kept from the forward phase; a pull level (its frontier a byte map) is
 * kept as its depth, and its backward step takes the vertices at that depth over every vertex
 * (args.byDist), so the coordinator makes no list of it. The reset between sources: the lists'
 * vertices where every level was a list (a small reach), else a vertex map on the sockets.
 * One GPU owning every vertex runs a whole source in one superstep (gpu.ts bcSource: the same
 * kernels, the levels on the device, no state crossing the link but bc, up and back once a run).
 * CPU kernels: kernels.ts. Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { peers } from './peers.js';
import { TesseraError } from '../../errors.js';
import { Xoshiro128 } from '../../graph/generate/rng.js';
import type { Graph } from '../../graph/types.js';
import { allocStripedLocks } from '../locks.js';
import { referenceBetweenness } from './reference.js';

export const bc = defineProgram({
  name: 'bc',
  aliases: ['betweenness'],
  summary: 'Brandes betweenness centrality on hop counts, unnormalised; exact or over sampled sources',
  params: {
    sources: { type: 'int', min: 1, description: 'sample size K: K sources drawn by seed (default: every vertex, exact)' },
    sourceList: { type: 'vertices', description: 'explicit source vertices (excludes sources)' },
    seed: { type: 'int', min: 0, description: 'seed of the source sample (with sources; default 1)' },
  },
  state: {
    // Filled by the driver (-1, 0, 0) and re-initialised per source for the vertices it reached;
    // one GPU owning every vertex keeps its own on the device (unset: no fill for it).
    dist: { type: 'i32', init: 'unset', reduce: 'claim' },
    sigma: { type: 'f64', init: 'unset', reduce: 'sum' },
    // bcBack writes only the vertex itself.
    delta: { type: 'f64', init: 'unset', reduce: 'owner' },
    // The driver reads it only once the run is over: one GPU owning every vertex keeps its sums
    // on the device from source to source (gpu.ts bcSource).
    bc: { type: 'f64', init: 0, reduce: 'owner', resident: 'device' },
  },
  output: 'float',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // depth i32 + sigma f64 + delta f64 + bc f64 + frontier u8 + next u8; forward and backward phases.
  profile: { mode: 'push', stateBytesPerVertex: 30, passes: 2, unit: 'pass', vertexTerm: false,
    // The two top hubs (internal ids 0 and 1): a sampled source may be isolated on RMAT.
    calibration: (g) => ({ sourceList: g.numVertices > 1 ? [g.ids.toOriginal[0]!, g.ids.toOriginal[1]!] : [g.ids.toOriginal[0]!] }),
  },
  /** The source vertices (internal ids); undefined = every vertex (exact). */
  prepare({ sources, sourceList, seed }, g): { sources: Uint32Array | undefined } {
    if (sources !== undefined && sourceList !== undefined) {
      throw new TesseraError('sources (--sources) and sourceList (--source-list) cannot be used together', { key: 'sources', fix: 'give either a sample size (sources: K, --sources K) or a list of sources (sourceList, --source-list FILE)' });
    }
    // A seed alone would change nothing (every vertex is a source): refused, not ignored.
    if (seed !== undefined && sources === undefined)
      throw new TesseraError('seed draws the sample of sources, and no sample size was given', { key: 'seed', fix: 'give sources (--sources K) with it, or leave seed out' });
    if (sourceList !== undefined) return { sources: sourceList };
    if (sources !== undefined) return { sources: sampleSources(g, sources, seed ?? 1) };
    return { sources: undefined };
  },
  reference: (g, { sources }) => referenceBetweenness(g, sources),
  demoParams: () => ({ sources: 8, seed: 1 }),
  resumable: true,
  readsWeights: false,
  soleGpu: true,
  async run(ctx, { sources }) {
    const g = ctx.graph;
    const n = g.numVertices;
    const { dist, sigma, delta, bc } = ctx.state;
    const lock = allocStripedLocks(ctx, n);
    const count = sources === undefined ? n : sources.length;
    ctx.note('sources', count);
    // One GPU owning every vertex runs each source on the device (bcSource below). Elsewhere, and
    // where checkpoints record the arrays (a resume may take another path), they start filled; a
    // resumed run's are the checkpoint's.
    const onDevice = ctx.soleGpu && ctx.forcedMode === undefined;
    if (ctx.resume() === undefined && (!onDevice || ctx.checkpointing)) (ctx.fill(dist, -1), ctx.fill(sigma, 0), ctx.fill(delta, 0));
    // A safe point per source: between sources dist, sigma and delta are back at their initial
    // values and bc holds the sum so far, so the source index is the whole carry.
    for (let si = ctx.resume<{ si: number }>()?.si ?? 0; si < count; si++) {
      await ctx.checkpoint({ si });
      const s = sources === undefined ? si : sources[si]!;
      if (onDevice) {
        // One GPU owning every vertex: the whole source on the device in one superstep (gpu.ts
        // bcSource); the host's dist, sigma and delta are not touched.
        ctx.release((await ctx.edgeMap('bcSource', ctx.all(), { dist, sigma, delta, bc }, { source: s, pullAbove: g.numEdges / ctx.pullDivisor }, { modes: ['pull'], gpuOnly: true })).next);
        continue;
      }
      dist[s] = 0;
      sigma[s] = 1;
      // Forward: BFS levels with path counts; keep each level's vertex list, or undefined for a
      // level that came as a byte map (a pull step): its vertices are those at its depth, which
      // the backward step picks itself over every vertex, where a list made here would cost the
      // coordinator a pass over n (and the list's frontier another).
      const levels: (Uint32Array | undefined)[] = [Uint32Array.of(s)];
      // Each level's map goes back to the pool once used (edgeMap takes back those it made):
      // held to the run's end, the run would need a map a level.
      const first = ctx.frontierOf(levels[0]!);
      let frontier = first;
      for (let level = 0; ; level++) {
        ({ next: frontier } = await ctx.edgeMap('bcFwd', frontier, { dist, sigma, lock }, { level }, { readsFrontier: true, pullIf: { state: 'dist', value: -1 } }));
        if (level === 0) ctx.release(first);
        if (frontier.size === 0) break;
        levels.push(frontier.list?.slice());
      }
      ctx.release(frontier);
      // Backward: dependencies from the deepest level up; the deepest level has δ = 0, and
      // level 0 is the source itself (no BC for it).
      for (let level = levels.length - 2; level >= 1; level--) {
        const l = levels[level];
        if (l === undefined) {
          ctx.release((await ctx.edgeMap('bcBack', ctx.all(), { dist, sigma, delta, bc }, { level, byDist: 1 }, { pullPages: 'out', readsFrontier: true })).next);
          continue;
        }
        const f = ctx.frontierOf(l);
        ctx.release((await ctx.edgeMap('bcBack', f, { dist, sigma, delta, bc }, { level }, { pullPages: 'out', readsFrontier: true })).next);
        ctx.release(f);
      }
      if (levels.includes(undefined)) await ctx.vertexMap('bcReset', { dist, sigma, delta });
      else
        for (const l of levels) for (let k = 0; k < l!.length; k++) {
          const v = l![k]!;
          dist[v] = -1;
          sigma[v] = 0;
          delta[v] = 0;
        }
    }
    if (g.in === g.out) await ctx.vertexMap('bcHalf', { bc });
    return bc;
  },
});

/**
 * K distinct source vertices drawn by seed (partial Fisher-Yates over the vertices in ascending
 * original id, xoshiro128**), returned as internal ids in ascending original id. The choice
 * depends only on (set of original ids, k, seed), not on renumbering or page size.
 */
export function sampleSources(g: Graph, k: number, seed: number): Uint32Array {
  const n = g.numVertices;
  const byOriginal = g.ids.byOriginal;
  if (k >= n) return Uint32Array.from(byOriginal);
  const rng = new Xoshiro128(seed, 0x6263); // stream 'bc'
  const swapped = new Map<number, number>();
  const picked = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const j = i + rng.nextBelow(n - i);
    const at = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    picked[i] = at;
  }
  picked.sort();
  return Uint32Array.from(picked, (pos) => byOriginal[pos]!);
}
