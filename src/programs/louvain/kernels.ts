/**
 * Louvain's CPU kernels (the definition and its semantics: index.ts). All pull over every vertex,
 * each vertex written by its own task only:
 *   louvainFill    the view as a CSR (directed graphs only; the driver runs fillVertices itself
 *                  on small ones): with args.count, |N(v)| of v's merged in- and out-list in
 *                  deg[v], k(v) and a count of bad weights; else the list (the smaller weight
 *                  where both arcs exist) from off[v], the driver's prefix sum of deg;
 *   louvainMove    one synchronous sub-round of local moving (index.ts): a vertex of the round's
 *                  class proposes its best community from the state at the sub-round's start;
 *   louvainIntra   Σ of the weights to neighbours with the same label (the final modularity).
 * Neighbouring communities are summed in a per-worker open-addressing table sized to the degree:
 * nothing allocated per vertex, memory O(max degree) per worker.
 */
import type { CpuKernel, KernelGraph } from '../../engine/kernel.js';
import type { Page, PageSet, WeightArray } from '../../graph/types.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';

// The view's merge and the modularity pass in C++ (native/src/addon_louvain_view.cpp) where the
// addon loads: the same lists and sums, without their JIT warm-up on every thread in a session's
// first run.
const native = nativeCpuKernels();
const st = new Float64Array(2);

export interface FillState {
  deg: Uint32Array;
  off: Float64Array;
  /** Absent: the counting pass (deg and k only). */
  adj?: Uint32Array;
  wt?: Float64Array;
  k: Float64Array;
}
export interface MoveState {
  off: Float64Array;
  adj: Uint32Array;
  wt?: Float64Array;
  k: Float64Array;
  /** Communities at the sub-round's start (ids are vertex ids), their totals and sizes. */
  comm: Uint32Array;
  tot: Float64Array;
  size: Uint32Array;
  /** comm with this sub-round's proposals (the driver keeps the two in step). */
  next: Uint32Array;
  /** With args.measure: w(v, comm[v]), the weight from v into its own community. */
  kin: Float64Array;
  /** v is to be evaluated in its class's sub-round (a neighbour or v moved since it last was); v's task clears it. */
  act: Uint8Array;
  /** v's kin is out of date (it or a neighbour moved since the last measure); v's task clears it. */
  dirty: Uint8Array;
  /** Set by a mover for itself and its neighbours (all write 1); the coordinator folds it into act and dirty. */
  mark: Uint8Array;
}
export interface IntraState {
  off: Float64Array;
  adj: Uint32Array;
  wt?: Float64Array;
  label: Uint32Array;
}

/** A vertex's sub-round class (0..classes-1): a hash, so that hubs (low ids) spread over the classes. */
export function classOf(v: number, classes: number): number {
  return (Math.imul(v, 0x9e3779b1) >>> 0) % classes;
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
  let p: Page | undefined = pages[pi]!;
  if (!p.split) {
    (listN = p.nbrs), (listW = p.weights), (listLo = p.offsets[v - p.vBegin]!), (listHi = p.offsets[v - p.vBegin + 1]!);
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
 * louvainFill's work on vertices [v0, v1) (the driver runs it itself on small graphs): with
 * `count`, deg and k and the bad weights (returned); else each list written from off[v]. On the
 * addon where it loads (`ts`: the TypeScript, the native merge's oracle in tests).
 */
export function fillVertices(g: KernelGraph, st: FillState, v0: number, v1: number, count: number, ts = false): number {
  const { deg, off, adj, wt, k } = st;
  if (!ts && native?.louvainFillNative !== undefined && g.out.stored === undefined && g.in.stored === undefined) {
    const inSet = g.in === g.out ? null : nativePageSet(native, g.in);
    return native.louvainFillNative(nativePageSet(native, g.out), inSet, v0, v1, count, deg, off, adj ?? null, wt ?? null, k);
  }
  let bad = 0;
  if (count !== 0) {
    for (let v = v0; v < v1; v++) (deg[v] = merged(g, v, undefined, undefined, 0)), (k[v] = kSum), (bad += badCount);
  } else for (let v = v0; v < v1; v++) merged(g, v, adj, wt, off[v]!);
  return bad;
}

export const louvainFill: CpuKernel<FillState> = {
  pull(ctx, pages, lo, hi, out) {
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) out.edges += g.outDegree[v0 + i]! + (g.in === g.out ? 0 : g.inDegree[v0 + i]!);
    out.sum += fillVertices(g, ctx.state, v0 + lo, v0 + hi, ctx.args.count!);
  },
};

// The per-worker table: community -> summed weight; `used` lists the filled slots.
let keys = new Int32Array(1 << 10).fill(-1);
let vals = new Float64Array(1 << 10);
let used = new Uint32Array(1 << 10);

/**
 * One vertex of a sub-round: with `mine` (its class's turn and a neighbour moved since it was last
 * evaluated) its proposal, with `stale` (a measure, and its kin out of date) its kin. Returns the
 * edges examined. Pruning (Ozaki, Tezuka, Inaba 2016): a vertex none of whose neighbours moved
 * keeps its choice, so only listed vertices run (the driver's frontier).
 */
function evaluate(st: MoveState, args: Record<string, number>, v: number): number {
  const { off, adj, wt, k, comm, tot, size, next, kin, act, dirty, mark } = st;
  const mine = act[v] === 1 && classOf(v, args.classes!) === args.round;
  const stale = args.measure !== 0 && dirty[v] === 1;
  if (!mine && !stale) return 0;
  if (mine) act[v] = 0;
  if (stale) dirty[v] = 0;
  const cv = comm[v]!;
  const a = off[v]!;
  const b = off[v + 1]!;
  const d = b - a;
  // A table at most half full: 2^ceil(log2(2d)) slots.
  let cap = keys.length;
  if (2 * d > cap) {
    while (2 * d > cap) cap *= 2;
    (keys = new Int32Array(cap).fill(-1)), (vals = new Float64Array(cap)), (used = new Uint32Array(cap));
  }
  const mask = cap - 1;
  const shift = 32 - Math.log2(cap);
  let t = 0;
  let own = 0;
  for (let e = a; e < b; e++) {
    const c = comm[adj[e]!]!;
    const w = wt === undefined ? 1 : wt[e]!;
    if (c === cv) own += w;
    let s = Math.imul(c, 0x9e3779b1) >>> shift;
    while (keys[s] !== -1 && keys[s] !== c) s = (s + 1) & mask;
    if (keys[s] === -1) (keys[s] = c), (vals[s] = w), (used[t++] = s);
    else vals[s]! += w;
  }
  if (stale) kin[v] = own;
  let best = cv;
  if (mine) {
    const kv = k[v]!;
    const f = (args.resolution! * kv) / args.m2!;
    let bestGain = own - f * (tot[cv]! - kv);
    for (let j = 0; j < t; j++) {
      const c = keys[used[j]!]!;
      if (c === cv) continue;
      const x = vals[used[j]!]! - f * tot[c]!;
      if (x > bestGain || (x === bestGain && best !== cv && c < best)) (best = c), (bestGain = x);
    }
    // Lu, Halappanavar, Kalyanaraman 2015 (minimum label): a singleton joins another singleton
    // only of smaller id, so two singletons never swap into each other's community.
    if (best !== cv && size[cv] === 1 && size[best] === 1 && best > cv) best = cv;
  }
  for (let j = 0; j < t; j++) keys[used[j]!] = -1;
  // next equals comm but for the proposals (the driver keeps them in step).
  if (best !== cv) {
    next[v] = best;
    mark[v] = 1;
    for (let e = a; e < b; e++) mark[adj[e]!] = 1;
  }
  return d;
}

/** Pull over every vertex the frontier lists; push over the list (small sub-rounds, run inline). */
export const louvainMove: CpuKernel<MoveState> = {
  pull(ctx, pages, lo, hi, out) {
    const frontier = ctx.frontier!;
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) if (frontier[v0 + i] === 1) out.edges += evaluate(ctx.state, ctx.args, v0 + i);
  },
  push(ctx, lo, hi, out) {
    const list = ctx.frontierList!;
    for (let i = lo; i < hi; i++) out.edges += evaluate(ctx.state, ctx.args, list[i]!);
  },
};

export const louvainIntra: CpuKernel<IntraState> = {
  pull(ctx, pages, lo, hi, out) {
    const { off, adj, wt, label } = ctx.state;
    const v0 = pages[0]!.vBegin;
    if (native?.louvainIntra !== undefined) {
      st.fill(0);
      native.louvainIntra(off, adj, wt ?? null, label, v0, lo, hi, st);
      out.edges += st[0]!;
      out.sum += st[1]!;
      return;
    }
    let inside = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      const l = label[v]!;
      for (let e = off[v]!; e < off[v + 1]!; e++) if (label[adj[e]!] === l) inside += wt === undefined ? 1 : wt[e]!;
      out.edges += off[v + 1]! - off[v]!;
    }
    out.sum += inside;
  },
};
