/**
 * A graph's undirected view as a flat CSR, for programs that walk N_in(v) ∪ N_out(v) many times
 * (louvain, kcore): u and v are linked when u→v or v→u, each neighbour once and in ascending
 * order, the link's weight the smaller of the two arcs' where both exist (the graph the same edges
 * give read as undirected, whose builder keeps the smallest of repeated edges), 1 on unweighted
 * pages. Merging a vertex's sorted in- and out-lists costs ~10 ns an entry in TypeScript (a branch
 * per entry); walking the merged list after that costs what an out-list does, so a program that
 * reads the view more than once builds it once (undirectedCsr) and reads off/adj as state.
 *
 * Built in two supersteps on a directed graph (counting, then filling each vertex's list in its
 * place: the program's kernels module exports `csrFill`, csr-fill.ts, under a name of its own,
 * passed here), on the coordinator below INLINE_FILL arcs; an undirected graph's out-pages are
 * the view already. Views of at most VIEW_CACHE entries are kept per graph, so a session's later
 * runs start from it. Drivers reach it as `undirectedCsr` from 'tessera'.
 */
import { sharedArray } from './kernel.js';
import type { Frontier, RunContext } from './program.js';
import type { Graph } from '../graph/types.js';
import { fillVertices, type FillState } from './csr-fill.js';

/** The view: off (n + 1), adj (off[n] entries), wt (null where the graph has no weights), k (each vertex's weights summed), and how many negative or NaN weights it met (counted from both ends). */
export interface UndirectedCsr {
  off: Float64Array;
  adj: Uint32Array;
  wt: Float64Array | undefined;
  k: Float64Array;
  bad: number;
}

/** Directed graphs of at most this many arcs (out plus in) merge their view on the coordinator: a superstep's round trip costs more (wiki-Vote: 3 ms against 5). */
export const INLINE_FILL = 1 << 18;
/** Views of at most this many entries are kept per graph (about the largest graph graphology's Louvain is compared on). */
export const VIEW_CACHE = 1 << 22;

/**
 * Kept views, per graph: every run on a graph builds the same one (a session's runs, the harness's
 * repetitions), and its arrays are read, never written, by the runs. Larger views come from the
 * run's pools each time. A view kept without weights serves only runs that read none.
 */
const views = new WeakMap<Graph, UndirectedCsr & { weighted: boolean }>();

/**
 * The run's graph's undirected view. `fill` names the program's kernel that is csrFill; `all` the
 * run's frontier of every vertex. Without `weights`, wt is undefined (k still sums the weights).
 */
export async function undirectedCsr(ctx: RunContext, all: Frontier, fill: string, weights = true): Promise<UndirectedCsr> {
  const g = ctx.graph;
  const want = weights && g.weightType !== undefined;
  const had = views.get(g);
  if (had !== undefined && (had.weighted || !want)) return had;
  const n = g.numVertices;
  // Out- plus in-lists' entries (numEdges counts one orientation's stored arcs).
  const arcs = g.in === g.out ? g.numEdges : 2 * g.numEdges;
  const keep = arcs <= VIEW_CACHE;
  // A kept view's arrays are its own (fresh shared memory), else the run's: the lists unfilled, as
  // every entry is written below (clearing a pooled adj first cost as much as filling it).
  const a = {
    f64: (len: number, fill: 0 | 'unset' = 'unset') => (keep ? sharedArray('f64', len) : ctx.alloc('f64', fill, len)) as Float64Array,
    u32: (len: number) => (keep ? sharedArray('u32', len) : ctx.alloc('u32', 'unset', len)) as Uint32Array,
  };
  const k = a.f64(n, 0);
  const off = a.f64(n + 1, 0);
  let adj: Uint32Array;
  let wt: Float64Array | undefined;
  let bad = 0;
  if (g.in === g.out) {
    // Undirected: the view is the out-pages, whose lists already are in vertex order; copied whole.
    for (let v = 0; v < n; v++) off[v + 1] = off[v]! + g.outDegree[v]!;
    adj = a.u32(off[n]!);
    wt = want ? a.f64(off[n]!) : undefined;
    let at = 0;
    for (const p of g.out.pages) {
      adj.set(p.nbrs.subarray(0, p.edges), at);
      const w = p.weights;
      if (w !== undefined) {
        if (wt !== undefined) wt.set(w.subarray(0, p.edges), at);
        // k: each vertex's weights summed in list order (a split vertex's pages follow in order).
        for (let i = 0; i < p.vEnd - p.vBegin; i++) {
          let s = k[p.vBegin + i]!;
          for (let e = p.offsets[i]!; e < p.offsets[i + 1]!; e++) (s += w[e]!), (bad += w[e]! >= 0 ? 0 : 1);
          k[p.vBegin + i] = s;
        }
      }
      at += p.edges;
    }
    if (g.weightType === undefined) for (let v = 0; v < n; v++) k[v] = g.outDegree[v]!;
  } else {
    // Directed: each vertex's in- and out-lists merged, twice: once to count its neighbours (and
    // k), then into its place in the view, so nothing is moved afterwards.
    const deg = ctx.alloc('u32') as Uint32Array;
    const run = async (st: FillState & Record<string, Uint32Array | Float64Array>, count: number): Promise<number> => {
      if (arcs <= INLINE_FILL) return fillVertices(g, st, 0, n, count);
      const step = await ctx.edgeMap(fill, all, st, { count }, { modes: ['pull'], cpuOnly: true });
      ctx.release(step.next);
      return step.sum;
    };
    bad = await run({ deg, off, k }, 1);
    for (let v = 0; v < n; v++) off[v + 1] = off[v]! + deg[v]!;
    adj = a.u32(off[n]!);
    wt = want ? a.f64(off[n]!) : undefined;
    await run({ deg, off, adj, ...(wt !== undefined ? { wt } : {}), k }, 0);
  }
  const view = { off, adj, wt, k, bad };
  if (keep) views.set(g, { ...view, weighted: want });
  return view;
}
