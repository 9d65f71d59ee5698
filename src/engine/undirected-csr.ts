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
 * place: the program's kernels module exports `csrFill` under a name of its own, passed here), on
 * the coordinator below INLINE_FILL arcs; an undirected graph's out-pages are the view already.
 * Views of at most VIEW_CACHE entries are kept per graph, so a session's later runs start from it.
 */
import type { CpuKernel, KernelGraph } from './kernel.js';
import { sharedArray } from './kernel.js';
import type { Frontier, RunContext } from './program.js';
import type { Graph, PageSet, WeightArray } from '../graph/types.js';
import { nativeCpuKernels, nativePageSet } from '../../actors/gpu/native-host.js';

/** The view: off (n + 1), adj (off[n] entries), wt (null where the graph has no weights), k (each vertex's weights summed), and how many negative or NaN weights it met (counted from both ends). */
export interface UndirectedCsr {
  off: Float64Array;
  adj: Uint32Array;
  wt: Float64Array | undefined;
  k: Float64Array;
  bad: number;
}

export interface FillState {
  deg: Uint32Array;
  off: Float64Array;
  /** Absent: the counting pass (deg and k only). */
  adj?: Uint32Array;
  wt?: Float64Array;
  k: Float64Array;
}

// The merge in C++ (native/src/addon_louvain_view.cpp) where the addon loads: the same lists and
// sums, without their JIT warm-up on every thread in a session's first run.
const native = nativeCpuKernels();

// Per-worker buffers (each worker thread has its own module instance): a split vertex's list
// (a hub's, over several pages) copied whole; any other is read in its page.
let outN = new Uint32Array(1 << 10);
let outW = new Float64Array(1 << 10);
let inN = new Uint32Array(1 << 10);
let inW = new Float64Array(1 << 10);

/** The list `list` found (listed): its ids and weights (undefined: every weight 1) in [listLo, listHi). */
let listN: Uint32Array = outN;
let listW: WeightArray | Float64Array | undefined;
let listLo = 0;
let listHi = 0;

/** v's whole list in `set`: in its page, or (a split vertex) copied into nb/wb from 0. */
function listed(set: PageSet, v: number, nb: Uint32Array, wb: Float64Array): void {
  const pages = set.pages;
  let pi = set.firstPageOf[v]!;
  let p = pages[pi];
  if (!p!.split) {
    (listN = p!.nbrs), (listW = p!.weights), (listLo = p!.offsets[v - p!.vBegin]!), (listHi = p!.offsets[v - p!.vBegin + 1]!);
    return;
  }
  let k = 0;
  while (p !== undefined && p.split && p.vBegin === v) {
    nb.set(p.nbrs.subarray(0, p.edges), k);
    if (p.weights === undefined) wb.fill(1, k, k + p.edges);
    else wb.set(p.weights.subarray(0, p.edges), k);
    k += p.edges;
    p = pages[++pi];
  }
  (listN = nb), (listW = wb), (listLo = 0), (listHi = k);
}

/**
 * Walks v's undirected neighbours in ascending order (the sorted out- and in-lists merged; the
 * smaller weight where both hold u); with `adj`, writes them from `at`. Returns their number and
 * leaves their weight sum in `kSum`, the count of negative or NaN weights in `badCount`.
 */
let kSum = 0;
let badCount = 0;
function merged(g: KernelGraph, v: number, adj: Uint32Array | undefined, wt: Float64Array | undefined, at: number): number {
  const ko = g.outDegree[v]!;
  if (ko > outN.length) (outN = new Uint32Array(Math.max(ko, 2 * outN.length))), (outW = new Float64Array(outN.length));
  listed(g.out, v, outN, outW);
  const oN = listN, oW = listW, oHi = listHi;
  let a = listLo;
  let iN = oN, iW = oW, b = 0, iHi = 0;
  if (g.in !== g.out) {
    const ki = g.inDegree[v]!;
    if (ki > inN.length) (inN = new Uint32Array(Math.max(ki, 2 * inN.length))), (inW = new Float64Array(inN.length));
    listed(g.in, v, inN, inW);
    (iN = listN), (iW = listW), (b = listLo), (iHi = listHi);
  }
  let d = 0;
  let sum = 0;
  let bad = 0;
  while (a < oHi || b < iHi) {
    const x = a < oHi ? oN[a]! : 0xffffffff;
    const y = b < iHi ? iN[b]! : 0xffffffff;
    let u: number;
    let w: number;
    if (x < y) (u = x), (w = oW === undefined ? 1 : oW[a]!), a++;
    else if (y < x) (u = y), (w = iW === undefined ? 1 : iW[b]!), b++;
    else (u = x), (w = Math.min(oW === undefined ? 1 : oW[a]!, iW === undefined ? 1 : iW[b]!)), a++, b++;
    if (!(w >= 0)) bad++;
    if (adj !== undefined) {
      adj[at + d] = u;
      if (wt !== undefined) wt[at + d] = w;
    }
    sum += w;
    d++;
  }
  kSum = sum;
  badCount = bad;
  return d;
}

/**
 * The fill's work on vertices [v0, v1) (the driver runs it itself on small graphs): with
 * `count`, deg and k and the bad weights (returned); else each list written from off[v]. On the
 * addon where it loads (`ts`: the TypeScript, the native merge's oracle in tests).
 */
export function fillVertices(g: KernelGraph, st: FillState, v0: number, v1: number, count: number, ts = false): number {
  const { deg, off, adj, wt, k } = st;
  if (!ts && native?.undirectedFill !== undefined && g.out.stored === undefined && g.in.stored === undefined) {
    const inSet = g.in === g.out ? null : nativePageSet(native, g.in);
    return native.undirectedFill(nativePageSet(native, g.out), inSet, v0, v1, count, deg, off, adj ?? null, wt ?? null, k);
  }
  let bad = 0;
  if (count !== 0) {
    for (let v = v0; v < v1; v++) (deg[v] = merged(g, v, undefined, undefined, 0)), (k[v] = kSum), (bad += badCount);
  } else for (let v = v0; v < v1; v++) merged(g, v, adj, wt, off[v]!);
  return bad;
}

/** The view's two supersteps (a pull over every vertex, each written by its own task): args.count as fillVertices's. */
export const csrFill: CpuKernel<FillState> = {
  pull(ctx, pages, lo, hi, out) {
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) out.edges += g.outDegree[v0 + i]! + (g.in === g.out ? 0 : g.inDegree[v0 + i]!);
    out.sum += fillVertices(g, ctx.state, v0 + lo, v0 + hi, ctx.args.count!);
  },
};

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
  let arcs = 0;
  for (let v = 0; v < n; v++) arcs += g.outDegree[v]! + (g.in === g.out ? 0 : g.inDegree[v]!);
  const keep = arcs <= VIEW_CACHE;
  // A kept view's arrays are its own (zeroed shared memory, as the run's pools give), else the run's.
  const a = {
    f64: (len: number) => (keep ? sharedArray('f64', len) : ctx.alloc('f64', 0, len)) as Float64Array,
    u32: (len: number) => (keep ? sharedArray('u32', len) : ctx.alloc('u32', 0, len)) as Uint32Array,
  };
  const k = a.f64(n);
  const off = a.f64(n + 1);
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
