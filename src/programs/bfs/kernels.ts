/** BFS's CPU kernel (semantics: index.ts). Pull: an unvisited vertex stops at its first frontier
 * in-neighbour. Push: a compare-and-swap per target claims it for the next level. The same two
 * loops serve the supersteps (bfs) and the team that runs every level at once (bfs_team, team.ts). */
import { IdList, outSlices, outSlicesBetween, type CpuKernel, type KernelGraph } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';
import { nativeCpuKernels, nativePageSet, type Flags } from '../../../actors/gpu/native-host.js';
import { idsDegreeSum } from '../../engine/run-tasks.js';

export { bfs_team } from './team.js';

// The same loops in C++ (native/src/addon_cpu.cpp) where the addon loads: the pull ~2x on one
// core; the push needs no JIT warm-up (RMAT 20's first level from the hub took 19-41 ms in the
// first two runs of a session as TypeScript, 3 ms later).
const native = nativeCpuKernels();
const stats = new Float64Array(2);
/** Where the push writes its claimed ids when the engine wants no list. */
const unlisted = new IdList();

export interface BfsState {
  depth: Int32Array; // depth in edges, -1 unreached
  seen: Int32Array; // a bit per vertex this kernel has claimed, (n + 31) >>> 5 words
}

/** Flags v in `f` (bits: other threads set bits of the same word). */
function mark(f: Flags, v: number): void {
  if (f instanceof Uint8Array) f[v] = 1;
  else Atomics.or(f, v >>> 5, 1 << (v & 31));
}

/**
 * Bottom-up over vertices [lo, hi) of `pages` (one page, or the split pages of one vertex): an
 * unreached vertex with an in-neighbour flagged in `fr` gets depth `level` and its flag in
 * `next` (both bytes or both bits). Adds the edges walked to st[0] and the vertices reached to st[1].
 */
export function pullRange(pages: readonly Page[], lo: number, hi: number, depth: Int32Array, fr: Flags, next: Flags, level: number, st: Float64Array): void {
  if (native !== undefined) {
    for (const p of pages) native.bfsPull(p.offsets, p.nbrs, p.vBegin, lo, hi, depth, fr, next, level, st);
    return;
  }
  if (!(fr instanceof Uint8Array)) return pullBits(pages, lo, hi, depth, fr, next, level, st);
  let edges = 0, active = 0;
  for (const p of pages) {
    const { offsets, nbrs, vBegin } = p;
    // One offset read a vertex, the verdict kept in e (re-reading both cost ~15% of a level).
    let start = offsets[lo]!;
    for (let i = lo; i < hi; i++) {
      const end = offsets[i + 1]!;
      const v = vBegin + i;
      if (depth[v] === -1) {
        let e = start;
        while (e < end && fr[nbrs[e]!] !== 1) e++;
        if (e < end) (depth[v] = level), mark(next, v), active++, (edges += e - start + 1);
        else edges += end - start;
      }
      start = end;
    }
  }
  st[0] += edges;
  st[1] += active;
}

/** pullRange over bit maps, without the addon. */
function pullBits(pages: readonly Page[], lo: number, hi: number, depth: Int32Array, fr: Uint32Array, next: Flags, level: number, st: Float64Array): void {
  for (const p of pages) {
    const { offsets, nbrs, vBegin } = p;
    for (let i = lo; i < hi; i++) {
      const v = vBegin + i;
      if (depth[v] !== -1) continue;
      const a = offsets[i]!, b = offsets[i + 1]!;
      let e = a;
      while (e < b && ((fr[nbrs[e]! >>> 5]! >>> (nbrs[e]! & 31)) & 1) === 0) e++;
      if (e < b) (depth[v] = level), mark(next, v), st[1]!++, (st[0]! += e - a + 1);
      else st[0]! += b - a;
    }
  }
}

/**
 * Top-down from list[lo, hi) (or, edgeLo >= 0, list[lo]'s out-edges [edgeLo, edgeHi) counted from
 * its first): each unreached target is claimed by compare-and-swap, gets depth `level`, its flag in
 * `next` and its id appended to `found`. Adds the edges walked to st[0] and the claims to st[1].
 */
export function pushRange(g: KernelGraph, list: Uint32Array, lo: number, hi: number, edgeLo: number, edgeHi: number, depth: Int32Array, seen: Int32Array, next: Flags, level: number, found: IdList, st: Float64Array): void {
  if (native !== undefined && g.out.stored === undefined) {
    const room = edgeLo >= 0 ? edgeHi - edgeLo : idsDegreeSum(g.outDegree, list.subarray(lo, hi), hi - lo);
    const k0 = st[1]!;
    native.bfsPush(nativePageSet(native, g.out), list, lo, hi, edgeLo, edgeHi, depth, seen, next, level, found.room(room), st);
    found.added(st[1]! - k0);
    return;
  }
  // `seen` (32x smaller than depth: stays in cache) is a hint: depth is the truth, and a bit lost
  // to a racing word update costs a depth read. One callback per range (one per vertex cost ~40%).
  const scan = (p: Page, a: number, b: number): void => {
    const nbrs = p.nbrs;
    st[0] += b - a;
    for (let e = a; e < b; e++) {
      const v = nbrs[e]!;
      const bit = 1 << (v & 31);
      if ((seen[v >>> 5]! & bit) !== 0) continue;
      if (depth[v] === -1 && Atomics.compareExchange(depth, v, -1, level) === -1) {
        seen[v >>> 5]! |= bit;
        mark(next, v);
        found.push(v);
        st[1]!++;
      }
    }
  };
  if (edgeLo >= 0) outSlicesBetween(g, list[lo]!, edgeLo, edgeHi, scan);
  else for (let i = lo; i < hi; i++) outSlices(g, list[i]!, scan);
}

export const bfs: CpuKernel<BfsState> = {
  splitPush: true,
  pull(ctx, pages, lo, hi, out) {
    stats[0] = stats[1] = 0;
    pullRange(pages, lo, hi, ctx.state.depth, ctx.frontier!, ctx.next, ctx.args.level! + 1, stats);
    out.edges += stats[0]!;
    out.active += stats[1]!;
  },
  push(ctx, lo, hi, out) {
    stats[0] = stats[1] = 0;
    // The claimed ids go straight into the task's list (room for every edge).
    const d = out.discovered ?? unlisted;
    if (d === unlisted) d.clear();
    const split = ctx.edgeHi !== undefined;
    pushRange(ctx.graph, ctx.frontierList!, lo, hi, split ? (ctx.edgeLo ?? 0) : -1, split ? ctx.edgeHi! : -1, ctx.state.depth, ctx.state.seen, ctx.next, ctx.args.level! + 1, d, stats);
    out.edges += stats[0]!;
    out.active += stats[1]!;
  },
};
