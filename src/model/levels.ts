/**
 * The level structure of a top-down BFS, for the model's level-synchronous makespan: every
 * superstep waits for its slowest element, so a split that balances the whole run can still leave
 * each level to one side (HIGH: the hubs, reached in the first levels, are the CPU's; the wide
 * later levels are the GPU's). TOTEM Eq. 2 is taken per level and summed (seeds/totem: BFS is
 * level-synchronous; its hybrid pays the slower element at every level).
 *
 * pushLevels walks a serial top-down BFS from `source` over the out-pages and returns, per level,
 * the out-edges its frontier pushes, per out-page: a page-granular partition's edges per element
 * and level are sums over its pages (partition.ts loadsOf).
 */
import type { Graph } from '../graph/types.js';

export function pushLevels(graph: Graph, source: number): Float64Array[] {
  const n = graph.numVertices;
  const out = graph.out;
  const pages = out.pages;
  const depth = new Int32Array(n).fill(-1);
  let frontier = new Uint32Array(n);
  let next = new Uint32Array(n);
  let size = 0;
  if (n > 0) {
    frontier[size++] = source;
    depth[source] = 0;
  }
  const levels: Float64Array[] = [];
  for (let level = 1; size > 0; level++) {
    const perPage = new Float64Array(pages.length);
    let k = 0;
    for (let i = 0; i < size; i++) {
      const v = frontier[i]!;
      let pi = out.firstPageOf[v]!;
      let p = pages[pi]!;
      let a = p.split ? 0 : p.offsets[v - p.vBegin]!;
      let b = p.split ? p.edges : p.offsets[v - p.vBegin + 1]!;
      for (;;) {
        perPage[pi]! += b - a;
        const nbrs = p.nbrs;
        for (let e = a; e < b; e++) {
          const u = nbrs[e]!;
          if (depth[u] === -1) {
            depth[u] = level;
            next[k++] = u;
          }
        }
        if (!p.split) break;
        p = pages[++pi]!;
        if (p === undefined || !p.split || p.vBegin !== v) break;
        a = 0;
        b = p.edges;
      }
    }
    levels.push(perPage);
    [frontier, next] = [next, frontier];
    size = k;
  }
  return levels;
}

/** An element's edges per level: the sums of `levels` over its pages. */
export function levelEdgesOf(levels: Float64Array[], pages: ArrayLike<number>): number[] {
  return levels.map((perPage) => {
    let s = 0;
    for (let i = 0; i < pages.length; i++) s += perPage[pages[i]!]!;
    return s;
  });
}
