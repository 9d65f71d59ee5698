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
  // Visited as a bitmap (2 MB at 16.8 M vertices, cache-resident): most pushed edges land on
  // vertices already reached, and the depth array is 32x larger.
  const seen = new Uint32Array((n + 31) >>> 5);
  let frontier = new Uint32Array(n);
  let next = new Uint32Array(n);
  let size = 0;
  if (n > 0) {
    frontier[size++] = source;
    depth[source] = 0;
    seen[source >>> 5]! |= 1 << (source & 31);
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
          const bit = 1 << (u & 31);
          if ((seen[u >>> 5]! & bit) === 0) {
            seen[u >>> 5]! |= bit;
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
    // The next frontier in vertex order, as the engine walks it: its lists are then read page by
    // page instead of in discovery order (RMAT 24: 7 s -> ~1 s). A wide level is read off the depths
    // in one sequential pass, a narrow one sorted.
    if (k > n >>> 6) {
      k = 0;
      for (let v = 0; v < n; v++) if (depth[v] === level) next[k++] = v;
    } else next.subarray(0, k).sort();
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
