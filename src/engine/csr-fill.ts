/**
 * The undirected view's fill (undirected-csr.ts builds the view with it): a vertex's sorted in- and
 * out-lists merged into its undirected neighbours, counted or written into a CSR. A program's
 * kernels module exports `csrFill` under a name of its own (`tessera/kernel` has it) and passes
 * that name to `undirectedCsr`. Natively (native/src/addon_louvain_view.cpp) where the addon loads:
 * the same lists and sums, without their JIT warm-up on every thread in a session's first run.
 */
import type { CpuKernel, KernelGraph } from './kernel.js';
import type { PageSet, WeightArray } from '../graph/types.js';
import { nativeCpuKernels, nativePageSet } from '../../actors/gpu/native-host.js';

export interface FillState {
  deg: Uint32Array;
  off: Float64Array;
  /** Absent: the counting pass (deg and k only). */
  adj?: Uint32Array;
  wt?: Float64Array;
  k: Float64Array;
}

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
  const native = ts ? undefined : nativeCpuKernels();
  if (native?.undirectedFill !== undefined && g.out.stored === undefined && g.in.stored === undefined) {
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
