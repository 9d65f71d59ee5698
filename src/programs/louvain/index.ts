/**
 * Louvain community detection (modularity). Semantics:
 *   - the undirected view: u and v are linked when u→v or v→u; the link's weight is the graph's
 *     weight (the smaller of the two where both arcs exist: the graph the same edges give read as
 *     undirected, whose builder keeps the smallest of repeated edges), 1 on unweighted graphs.
 *     No self-loops (the builder drops them). Negative or NaN weights are refused.
 *   - the modularity of networkx `modularity` / graphology on that undirected graph, with
 *     `resolution` γ: Q = Σ_c [ in_c / 2m - γ (tot_c / 2m)^2 ] (serial.ts).
 *   - output per vertex: its community's label, the smallest original id in it. Notes:
 *     `modularity` (Q of the output, computed afresh from the labels by a last pass over the
 *     view, not from the optimiser's running totals), `levels` (levels that merged communities),
 *     `communities`, `rounds` and `sweeps` (level 0's), and on the synchronous path `coarseMs`
 *     (the serial coarse levels' time).
 *   - deterministic, and the same on any number of threads, sockets or GPUs: the labels depend on
 *     the graph, `resolution` and `inlineEdges` only (below). The GPU runs level 0's synchronous
 *     sub-rounds (gpu.ts), computing every gain as the CPU kernel does to the last bit.
 *
 * Algorithm (Blondel et al. 2008, levels of local moving and aggregation). The view is built as a
 * CSR (the engine's undirectedCsr, its fill the kernel louvainFill: two supersteps on a directed
 * graph; small views kept per graph, so a session's later runs on it start from the same one).
 * Then level 0's local moving, one of two ways:
 *   sequential, on the coordinator, for views of at most `inlineEdges` adjacency entries
 *   (default 2^22, about the largest graph graphology's Louvain is compared on) — serial.ts
 *   moveOrdered: Gauss-Seidel moves (each on the live totals, so its gain is exact) in the
 *   synchronous path's class order, pruned to vertices whose neighbourhood changed (Leiden's fast
 *   local move: the neighbours outside the community a vertex joined), with the minimum-label
 *   rule below. Each move sees the ones before it, so level 0 converges in a few sweeps where
 *   the synchronous path needs tens of sub-rounds (wiki-Vote: 0.9 M edges examined against
 *   5.6 M), and a superstep's round trip (1-3 ms) costs as much as a sweep of these graphs:
 *   this path runs no superstep but the view's merge on larger directed graphs (the modularity
 *   pass too is here), so a crash reruns it from the start (it has no safe point).
 *   Vertex-parallel variants with sequential moves inside fixed blocks lost modularity on RMAT
 *   (stale totals across blocks) and examined more edges than they spread over the threads.
 *   synchronous, on the engine, above `inlineEdges` — vertex-parallel local moving as in
 *   Grappolo (Lu, Halappanavar, Kalyanaraman 2015, "Parallel heuristics for scalable community
 *   detection"): sweeps of CLASSES synchronous sub-rounds; in sub-round r the vertices of hash
 *   class r (kernels.ts classOf) each take their best neighbouring community by the gain
 *   w(v, c) - γ k_v tot_c / 2m, reading communities, totals and sizes as they were at the
 *   sub-round's start, with the paper's minimum-label rule (a singleton joins another singleton
 *   only of smaller id). A class is a part of every neighbourhood, so fewer neighbours move at
 *   once on stale information (the paper's colouring, without computing one). Only vertices a
 *   neighbour's move touched are evaluated again (pruning). The coordinator applies the moves
 *   (O(n), serial: the totals are a sum over movers). Each sweep's first sub-round also
 *   measures Q; sweeps stop once Q gains < TOL, keeping the best partition. The modularity
 *   note's pass is a superstep here (louvainIntra).
 *   coarse levels, on the coordinator (serial.ts) — aggregation and sequential Louvain (the
 *   addon's native passes where it loads: the same arrays to the bit). Synchronous moves on the
 *   first coarse level, which on RMAT is about as large as level 0, were tried: RMAT 20 examined
 *   4x the edges and lost 5% of the modularity (0.0818 -> 0.0775).
 *   rounds — level 0 runs again from the result (every vertex free to leave its community),
 *   then the coarse levels, while a round's level 0 gains at least ROUND_TOL (its moves kept
 *   either way; at most MAX_ROUNDS; the sequential path also stops once the coarse levels merge
 *   nothing): a vertex can be better off outside the
 *   community its coarse vertex joined (RMAT 12: Q 0.112 -> 0.118 on the synchronous path).
 * CPU kernels: kernels.ts; GPU: gpu.ts (louvainMove; the view's merge and the modularity pass
 * are CPU-only supersteps). Serial reference (the same algorithm in plain loops): reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import { TesseraError } from '../../errors.js';
import { referenceLouvain } from './reference.js';
import { peers } from './peers.js';
import { INLINE_FILL, undirectedCsr } from '../../engine/undirected-csr.js';
import { applyMoves, CLASSES, endRound, identity, INLINE_EDGES, measured, relabel, sequentialRounds, smallestOriginal, startRound, sweepQ, toEvaluate, type LevelZero, type SweepState } from './serial.js';

export const louvain = defineProgram({
  name: 'louvain',
  aliases: ['communities'],
  summary: 'Louvain communities (modularity, undirected view); labels are the smallest original id; modularity in the notes',
  params: {
    resolution: { type: 'number', default: 1, above: 0, description: 'modularity resolution γ (networkx, graphology): above 1 gives smaller communities' },
    inlineEdges: { type: 'int', default: INLINE_EDGES, min: 0, description: 'level 0 runs sequentially on the coordinator when the undirected view has at most this many adjacency entries (both directions), else in synchronous sub-rounds on the sockets; the labels depend on it, not on the topology' },
  },
  state: { label: { type: 'u32', init: 0, reduce: 'owner' } },
  output: 'label',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // CSR of the view (u32 + f64 weights per edge: counted per vertex at ~16 average degree is
  // beyond this figure; it is the per-vertex arrays): offsets, k, comm, tot, size, next, kin, label.
  profile: { mode: 'pull', stateBytesPerVertex: 48, passes: 20, unit: 'pass', vertexTerm: true },
  reference: (g, { resolution, inlineEdges }) => referenceLouvain(g, resolution, inlineEdges),
  demoParams: () => ({}),
  resumable: true,
  readsWeights: false,
  async run(ctx, { resolution, inlineEdges }) {
    const g = ctx.graph;
    const n = g.numVertices;
    const all = ctx.all();
    type Carry = SweepState & LevelZero & { off: Float64Array; adj: Uint32Array; wt: Float64Array | undefined; k: Float64Array; m2: number; kin: Float64Array; final: Uint32Array; done: boolean; sweeps: number; coarseMs: number };
    let c = ctx.resume<Carry>();
    if (c === undefined) {
      const { off, adj, wt, k, bad } = await undirectedCsr(ctx, all, 'louvainFill');
      if (bad > 0) throw new TesseraError(`louvain: ${bad} edge weights are negative or NaN (counted from both ends)`, { fix: 'give non-negative weights, or read the graph without weights' });
      let m2 = 0;
      for (let v = 0; v < n; v++) m2 += k[v]!;
      const inline = adj.length <= inlineEdges;
      // Level 0's synchronous state: not needed by the sequential path (empty arrays).
      const len = inline ? 0 : n;
      const [comm, best, size, next] = [0, 1, 2, 3].map(() => ctx.alloc('u32', 0, len) as Uint32Array) as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
      const [act, dirty, mark] = [0, 1, 2].map(() => ctx.alloc('u8', 0, len) as Uint8Array) as [Uint8Array, Uint8Array, Uint8Array];
      const final = ctx.alloc('u32') as Uint32Array;
      final.set(identity(n));
      c = { off, adj, wt, k, m2, kin: ctx.alloc('f64', 0, len) as Float64Array, comm, next, tot: ctx.alloc('f64', 0, len) as Float64Array, size, best, act, dirty, mark, final, done: m2 === 0, sweeps: 0, coarseMs: 0, rounds: 0, levels: 0, sweep: 0, round: 0, startQ: 0, bestQ: 0, prevQ: 0 };
      if (!inline) startRound(c, final, k, c);
    }
    const s = c;
    const { off, adj, wt, k, m2, kin, comm, next, tot, size, best, act, dirty, mark } = s;
    const view = { n, off, adj, wt, k, loop: new Float64Array(n) };
    if (!s.done && adj.length <= inlineEdges) {
      // Small views: level 0 sequential, here (see the header).
      const r = sequentialRounds(view, resolution, m2);
      s.final.set(r.comm);
      Object.assign(s, { done: true, levels: r.levels, rounds: r.rounds, sweeps: r.sweeps });
    }
    if (!s.done) {
      const ids = new Uint32Array(n);
      const state = { off, adj, ...(wt !== undefined ? { wt } : {}), k, comm, tot, size, next, kin, act, dirty, mark };
      for (;;) {
        await ctx.checkpoint({ ...s });
        const measure = s.round === 0 ? 1 : 0;
        // Only the vertices this sub-round evaluates: late ones are small, pushed and run inline.
        const todo = ctx.frontierOf(ids.subarray(0, toEvaluate(s, s.round, ids)));
        const step = await ctx.edgeMap('louvainMove', todo, state, { resolution, m2, classes: CLASSES, round: s.round, measure }, { readsFrontier: true });
        ctx.release(todo);
        ctx.release(step.next);
        if (measure === 1 && measured(s, sweepQ(kin, tot, m2, resolution), comm, best)) {
          s.sweeps += s.sweep + 1;
          // The coarse levels: serial on the coordinator (see the header).
          const t0 = performance.now();
          const end = endRound(view, s, s, resolution, m2);
          s.coarseMs += performance.now() - t0;
          if (end === undefined) {
            s.final.set(best);
            break;
          }
          s.final.set(end.comm);
          if (!end.again) break;
          startRound(s, s.final, k, s);
          continue;
        }
        applyMoves(comm, next, tot, size, k, mark, act, dirty);
        if (++s.round === CLASSES) (s.round = 0), s.sweep++;
      }
      s.done = true;
    }
    ctx.note('sweeps', s.sweeps);
    ctx.note('rounds', s.rounds);
    // Where a large run's time goes besides the supersteps (the header: the serial coarse levels).
    if (s.coarseMs > 0) ctx.note('coarseMs', Math.round(s.coarseMs));
    const dense = s.final.slice();
    const communities = relabel(dense);
    const label = smallestOriginal(dense, g.ids.toOriginal, ctx.state.label);
    // Q afresh from the labels: the weights inside communities (here on a view small enough that
    // a superstep costs more than the pass), totals from k.
    let inside = 0;
    if (adj.length <= INLINE_FILL) {
      for (let v = 0; v < n; v++) for (let e = off[v]!; e < off[v + 1]!; e++) if (dense[adj[e]!] === dense[v]) inside += wt === undefined ? 1 : wt[e]!;
    } else {
      // The synchronous path's safe point before the last superstep (the sequential one has none).
      if (adj.length > inlineEdges) await ctx.checkpoint({ ...s });
      const step = await ctx.edgeMap('louvainIntra', all, { off, adj, ...(wt !== undefined ? { wt } : {}), label }, {}, { modes: ['pull'], cpuOnly: true });
      ctx.release(step.next);
      inside = step.sum;
    }
    const totals = new Float64Array(n);
    for (let v = 0; v < n; v++) totals[dense[v]!]! += k[v]!;
    let sq = 0;
    for (let v = 0; v < n; v++) sq += totals[v]! * totals[v]!;
    ctx.note('modularity', m2 > 0 ? inside / m2 - (resolution * sq) / (m2 * m2) : 0);
    ctx.note('levels', s.levels);
    ctx.note('communities', communities);
    return label;
  },
});
