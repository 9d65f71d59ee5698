/**
 * BFS — Graphalytics semantics: depth (number of edges) of every vertex from the source along
 * out-edges (both directions on undirected graphs); the source has depth 0; unreachable vertices
 * are written as 9223372036854775807 (Long.MAX_VALUE). Internally depth -1 = unreached.
 *
 * Direction-optimising (Beamer; Ligra's switch in the engine): sparse supersteps push from the
 * frontier list with a compare-and-swap per target, dense supersteps pull: each unvisited vertex
 * scans its in-neighbours and stops at the first one in the frontier.
 * Serial reference: reference/bfs.ts.
 */
import type { CpuKernel } from '../engine/kernel.js';
import { outSlices, outSlicesBetween } from '../engine/kernel.js';
import type { Page } from '../graph/types.js';
import type { Program, RunContext } from '../engine/program.js';

/** The state the bfs kernel reads and writes: depth (-1 unreached) and `seen`, a bit per vertex, (n + 31) >>> 5 words. */
export function bfsState(ctx: { alloc: RunContext['alloc']; graph: { numVertices: number } }, source: number): { depth: Int32Array; seen: Int32Array } {
  const depth = ctx.alloc('i32', -1) as Int32Array;
  depth[source] = 0;
  const seen = ctx.alloc('i32', 0, (ctx.graph.numVertices + 31) >>> 5) as Int32Array;
  seen[source >>> 5] = 1 << (source & 31);
  return { depth, seen };
}

export interface BfsParams {
  /** Source vertex, internal id. */
  source: number;
}

export const bfsKernel: CpuKernel = {
  splitPush: true,
  pull(ctx, pages, lo, hi, out) {
    const depth = ctx.state.depth as Int32Array;
    const fr = ctx.frontier!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    let edges = 0;
    for (const p of pages) {
      const { offsets, nbrs, vBegin } = p;
      for (let i = lo; i < hi; i++) {
        const v = vBegin + i;
        if (depth[v] !== -1) continue;
        const end = offsets[i + 1]!;
        for (let e = offsets[i]!; e < end; e++) {
          if (fr[nbrs[e]!] === 1) {
            depth[v] = level;
            next[v] = 1;
            out.active++;
            edges += e - offsets[i]! + 1;
            break;
          }
        }
        if (depth[v] === -1) edges += end - offsets[i]!;
      }
    }
    out.edges += edges;
  },
  push(ctx, lo, hi, out) {
    const depth = ctx.state.depth as Int32Array;
    const list = ctx.frontierList!;
    const next = ctx.next;
    const level = ctx.args.level! + 1;
    const found = out.discovered!;
    // `seen`: a bit per vertex this kernel has claimed (32x smaller than depth, so it stays in
    // cache; most pushed edges reach vertices claimed already). A hint only: depth is the truth,
    // vertices claimed elsewhere (pull levels, GPUs) have no bit and are checked in depth, and a
    // bit lost to two threads updating one word at once costs a depth read, never a wrong result.
    const seen = ctx.state.seen as Int32Array;
    // One callback per task, not one per frontier vertex (a closure per vertex, and its captured
    // counters, cost ~40% of the edge scan).
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

export const bfs: Program<BfsParams> = {
  name: 'bfs',
  output: 'depth',
  async run(ctx, { source }) {
    const { depth, seen } = bfsState(ctx, source);
    let frontier = ctx.frontierOf([source]);
    for (let level = 0; frontier.size > 0; level++) {
      ({ next: frontier } = await ctx.edgeMap('bfs', frontier, { depth, seen }, { level }, { readsFrontier: true }));
    }
    return depth;
  },
};
