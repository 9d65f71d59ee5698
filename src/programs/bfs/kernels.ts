/** BFS's CPU kernel (semantics: index.ts). Pull: an unvisited vertex stops at its first frontier
 * in-neighbour. Push: a compare-and-swap per target claims it for the next level. */
import { IdList, outSlices, outSlicesBetween, type CpuKernel, type KernelCtx, type TaskOut } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';

// The same loops in C++ (native/src/addon_cpu.cpp) where the addon loads: the pull ~2x on one
// core; the push needs no JIT warm-up (RMAT 20's first level from the hub took 19-41 ms in the
// first two runs of a session as TypeScript, 3 ms later).
const native = nativeCpuKernels();
const stats = new Float64Array(2);
/** Where the native push writes its claimed ids when the engine wants no list. */
const unlisted = new IdList();

export interface BfsState {
  depth: Int32Array; // depth in edges, -1 unreached
  seen: Int32Array; // a bit per vertex this kernel has claimed, (n + 31) >>> 5 words
}

export const bfs: CpuKernel<BfsState> = {
  splitPush: true,
  pull(ctx, pages, lo, hi, out) {
    const { depth } = ctx.state, fr = ctx.frontier!, next = ctx.next, level = ctx.args.level! + 1;
    if (native !== undefined) {
      stats[0] = stats[1] = 0;
      for (const p of pages) native.bfsPull(p.offsets, p.nbrs, p.vBegin, lo, hi, depth, fr, next, level, stats);
      out.edges += stats[0]!;
      out.active += stats[1]!;
      return;
    }
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
          if (e < end) (depth[v] = level), (next[v] = 1), active++, (edges += e - start + 1);
          else edges += end - start;
        }
        start = end;
      }
    }
    out.edges += edges;
    out.active += active;
  },
  push(ctx, lo, hi, out) {
    if (native !== undefined && ctx.graph.out.stored === undefined) return nativePush(ctx, lo, hi, out);
    const { depth, seen } = ctx.state, list = ctx.frontierList!, next = ctx.next, level = ctx.args.level! + 1, found = out.discovered!;
    // `seen` (32x smaller than depth: stays in cache) is a hint: depth is the truth, and a bit lost
    // to a racing word update costs a depth read. One callback per task (one per vertex cost ~40%).
    const scan = (p: Page, a: number, b: number): void => {
      const nbrs = p.nbrs;
      out.edges += b - a;
      for (let e = a; e < b; e++) {
        const v = nbrs[e]!;
        const bit = 1 << (v & 31);
        if ((seen[v >>> 5]! & bit) !== 0) continue;
        if (depth[v] === -1 && Atomics.compareExchange(depth, v, -1, level) === -1) {
          seen[v >>> 5]! |= bit;
          next[v] = 1;
          found.push(v);
          out.active++;
        }
      }
    };
    if (ctx.edgeHi !== undefined) outSlicesBetween(ctx.graph, list[lo]!, ctx.edgeLo ?? 0, ctx.edgeHi, scan);
    else for (let i = lo; i < hi; i++) outSlices(ctx.graph, list[i]!, scan);
  },
};

function nativePush(ctx: KernelCtx<BfsState>, lo: number, hi: number, out: TaskOut): void {
  const list = ctx.frontierList!;
  let room = 0;
  if (ctx.edgeHi !== undefined) room = ctx.edgeHi - (ctx.edgeLo ?? 0);
  else for (let i = lo; i < hi; i++) room += ctx.graph.outDegree[list[i]!]!;
  stats[0] = stats[1] = 0;
  const { depth, seen } = ctx.state;
  // The claimed ids go straight into the task's list (room for every edge).
  const d = out.discovered ?? unlisted;
  if (d === unlisted) d.clear();
  native!.bfsPush(nativePageSet(native!, ctx.graph.out), list, lo, hi, ctx.edgeHi !== undefined ? (ctx.edgeLo ?? 0) : -1, ctx.edgeHi ?? -1, depth, seen, ctx.next, ctx.args.level! + 1, d.room(room), stats);
  const k = stats[1]!;
  d.added(k);
  out.edges += stats[0]!;
  out.active += k;
}
