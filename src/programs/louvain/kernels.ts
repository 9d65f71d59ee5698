/**
 * Louvain's CPU kernels (the definition and its semantics: index.ts). All pull over every vertex,
 * each vertex written by its own task only:
 *   louvainFill    the undirected view as a CSR (the engine's csrFill, undirected-csr.ts);
 *   louvainMove    one synchronous sub-round of local moving (index.ts): a vertex of the round's
 *                  class proposes its best community from the state at the sub-round's start;
 *   louvainIntra   Σ of the weights to neighbours with the same label (the final modularity).
 * Neighbouring communities are summed in a per-worker open-addressing table sized to the degree:
 * nothing allocated per vertex, memory O(max degree) per worker.
 */
import type { CpuKernel } from '../../engine/kernel.js';
import { csrFill } from '../../engine/csr-fill.js';
import { nativeCpuKernels } from '../../../actors/gpu/native-host.js';

// The modularity pass in C++ (native/src/addon_louvain_view.cpp) where the addon loads: the same
// sums, without their JIT warm-up on every thread in a session's first run.
const native = nativeCpuKernels();
const st = new Float64Array(2);

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

/** The undirected view's two supersteps (src/engine/undirected-csr.ts). */
export const louvainFill = csrFill;

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
