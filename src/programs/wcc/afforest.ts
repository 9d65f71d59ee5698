/**
 * Afforest (Sutton, Ben-Nun and Barak, IPDPS 2018; GAPBS cc.cc), WCC on the CPU sockets: a
 * union-find forest `comp` (every vertex's parent, a root its own) hooked by compare-and-swap.
 * One pass links each vertex with its first two out-neighbours (GAPBS's two rounds); then the
 * largest component is guessed from the roots of 1024 samples and only vertices outside it link
 * the rest of their out-edges (and, on directed graphs, their in-edges: an edge from inside the big
 * component is then seen from its other end). Most of an RMAT graph's edges are never read. GAPBS
 * compresses the trees before the final pass; here each vertex climbs its own path in the final
 * pass (inTree), a superstep less.
 * Labels: each tree's smallest original id, as label propagation gives (index.ts).
 */
import type { CpuKernel, TaskOut } from '../../engine/kernel.js';
import type { Page, PageSet } from '../../graph/types.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';

// The same loops in C++ (native/src/addon_cpu.cpp) where the addon loads.
const native = nativeCpuKernels();
const stats = new Float64Array(2);
const handle = (set: PageSet) => nativePageSet(native!, set);

export interface AfforestState {
  /** Union-find parents (internal ids). */
  comp: Int32Array;
  /** Original ids in, each vertex's component label out. */
  label: Uint32Array;
}

/** Hooks the trees of u and v, the larger root under the smaller (GAPBS Link). */
function link(comp: Int32Array, u: number, v: number): void {
  let p1 = comp[u]!;
  let p2 = comp[v]!;
  while (p1 !== p2) {
    const high = p1 > p2 ? p1 : p2;
    const low = p1 + p2 - high;
    const pHigh = comp[high]!;
    // Already under `low`, or this CAS put it there; else someone hooked `high` first: climb.
    if (pHigh === low || (pHigh === high && Atomics.compareExchange(comp, high, high, low) === high)) return;
    p1 = comp[comp[high]!]!;
    p2 = comp[low]!;
  }
}

/**
 * Whether v's tree is `skip`'s: climbs from v until `skip` or a root and points v there (an
 * ancestor: safe beside concurrent hooks, which only move roots). Stopping at `skip` rather than at
 * the root keeps GAPBS's test (its compressed comp[v] == skip) when `skip` itself gets hooked
 * under a smaller root during the pass.
 */
export function inTree(comp: Int32Array, v: number, skip: number): boolean {
  let x = comp[v]!;
  for (let up: number; x !== skip && (up = comp[x]!) !== x; x = up);
  if (x !== comp[v]) comp[v] = x;
  return x === skip;
}

/** Links v with its neighbours in `set` from its `from`-th on (all its pages). */
function linkAll(comp: Int32Array, set: PageSet, v: number, from: number, out: TaskOut): void {
  const pages = set.pages;
  let pi = set.firstPageOf[v]!;
  let p: Page | undefined = pages[pi]!;
  let skip = from;
  for (;;) {
    const a = p.split ? 0 : p.offsets[v - p.vBegin]!;
    const b = p.split ? p.edges : p.offsets[v - p.vBegin + 1]!;
    const nbrs = p.nbrs;
    const s = Math.min(b, a + skip);
    skip -= s - a;
    for (let e = s; e < b; e++) link(comp, v, nbrs[e]!);
    out.edges += b - s;
    if (!p.split) return;
    p = pages[++pi];
    if (p === undefined || !p.split || p.vBegin !== v) return;
  }
}

/**
 * Pull over out-pages, args.rounds R: each vertex links with its first R out-neighbours. GAPBS
 * runs the rounds as R passes with a compression after each; one pass saves a superstep and a
 * vertex map per round (the trees are compressed once after it).
 */
export const affSample: CpuKernel<AfforestState> = {
  pull(ctx, pages, lo, hi, out) {
    const comp = ctx.state.comp;
    const rounds = ctx.args.rounds!;
    const p = pages[0]!;
    if (pages.length > 1 || p.split) {
      // One hub over several pages: its first `rounds` edges, across as many pages as they take
      // (affFinal skips that many wherever they lie: a page shorter than `rounds` lost the rest).
      let left = rounds;
      for (let i = 0; i < pages.length && left > 0; i++) {
        const q = pages[i]!;
        const b = Math.min(q.edges, left);
        for (let e = 0; e < b; e++) link(comp, q.vBegin, q.nbrs[e]!);
        out.edges += b;
        left -= b;
      }
      return;
    }
    if (native !== undefined) {
      stats[0] = 0;
      native.affSample(p.offsets, p.nbrs, p.vBegin, lo, hi, comp, rounds, stats);
      out.edges += stats[0]!;
      return;
    }
    const { offsets, nbrs } = p;
    for (let i = lo; i < hi; i++) {
      const a = offsets[i]!;
      const b = Math.min(offsets[i + 1]!, a + rounds);
      for (let e = a; e < b; e++) link(comp, p.vBegin + i, nbrs[e]!);
      out.edges += b - a;
    }
  },
};

/**
 * Pull over out-pages: vertices outside the sampled component args.skip link their out-edges from
 * the args.from-th on, and on directed graphs all their in-edges.
 */
export const affFinal: CpuKernel<AfforestState> = {
  pull(ctx, pages, lo, hi, out) {
    const comp = ctx.state.comp;
    const { skip, from } = ctx.args as { skip: number; from: number };
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    const split = pages.length > 1 || pages[0]!.split;
    if (native !== undefined && g.out.stored === undefined) {
      stats[0] = 0;
      native.affFinal(handle(g.out), g.in !== g.out ? handle(g.in) : null, v0 + (split ? 0 : lo), v0 + (split ? 1 : hi), comp, skip, from, stats);
      out.edges += stats[0]!;
      return;
    }
    for (let i = split ? 0 : lo; i < (split ? 1 : hi); i++) {
      const v = v0 + i;
      // Nothing left to link (as the native pass): not even the climb.
      if ((g.outDegree[v]! <= from && (g.in === g.out || g.inDegree[v] === 0)) || inTree(comp, v, skip)) continue;
      linkAll(comp, g.out, v, from, out);
      if (g.in !== g.out) linkAll(comp, g.in, v, 0, out);
    }
  },
};

/**
 * Vertex map after the last linking: every vertex points at its root (path halving: no hook
 * changes a root any more), then each root's label becomes its tree's smallest original id. Only
 * roots are lowered, and a non-root's label is still its own id, so reading it is safe.
 */
export const affCompressMin: CpuKernel<AfforestState> = {
  vertex(ctx, lo, hi) {
    const { comp, label } = ctx.state;
    if (native !== undefined) return native.affVertex(0, comp, label, lo, hi);
    for (let v = lo; v < hi; v++) {
      while (comp[v] !== comp[comp[v]!]) comp[v] = comp[comp[v]!]!;
      const r = comp[v]!;
      if (r === v) continue;
      const x = label[v]!;
      let cur = label[r]!;
      while (x < cur) {
        const seen = Atomics.compareExchange(label, r, cur, x);
        if (seen === cur) break;
        cur = seen;
      }
    }
  },
};

/** Vertex map after affCompressMin: every vertex takes its root's label (roots are not written). */
export const affSpread: CpuKernel<AfforestState> = {
  vertex(ctx, lo, hi) {
    const { comp, label } = ctx.state;
    if (native !== undefined) return native.affVertex(1, comp, label, lo, hi);
    for (let v = lo; v < hi; v++) {
      const r = comp[v]!;
      if (r !== v) label[v] = label[r]!;
    }
  },
};

/** The addon's team words (addon_team.h) for wcc_team. */
export const TEAM_CTL = 32;
/** Vertices a chunk of wcc_team's phases (GAPBS's dynamic schedules take 16384 in the final link). */
const TEAM_PIECE = 4096;

/**
 * Afforest whole as one team, on the addon (cpu.wccTeam: the driver's steps below in phases of
 * vertex pieces, their last finisher starting the next): a superstep and two vertex maps' round
 * trips less, and no JavaScript a chunk for V8 to compile in a session's first runs. The driver
 * runs it only where the addon has it (index.ts).
 */
export const wcc_team: CpuKernel<AfforestState & { ctl: Float64Array; orig: Uint32Array }> = {
  team(ctx, _t, out) {
    const g = ctx.graph;
    const { comp, label, ctl, orig } = ctx.state;
    stats[0] = 0;
    native!.wccTeam!(handle(g.out), g.in !== g.out ? handle(g.in) : null, orig, comp, label, ctl, ctx.args.rounds!, TEAM_PIECE, stats);
    out.edges += stats[0]!;
  },
};

/** The most frequent root among 1024 sampled vertices (GAPBS SampleFrequentElement), fixed seed; the trees need not be compressed. */
export function mostFrequent(comp: Int32Array): number {
  const n = comp.length;
  const counts = new Map<number, number>();
  let x = 0x9e3779b9;
  for (let i = 0; i < 1024; i++) {
    // xorshift32: the sample only steers the work, never the labels.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    let c = comp[(x >>> 0) % n]!;
    while (comp[c] !== c) c = comp[c]!;
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best = 0;
  let most = -1;
  for (const [c, k] of counts) if (k > most) (best = c), (most = k);
  return best;
}
