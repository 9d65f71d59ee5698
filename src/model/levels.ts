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
import { outSlices } from '../engine/kernel.js';
import type { Graph, Page } from '../graph/types.js';

export function pushLevels(graph: Graph, source: number): Float64Array[] {
  const n = graph.numVertices;
  const pages = graph.out.pages;
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
    const found = next;
    let k = 0;
    const scan = (p: Page, a: number, b: number): void => {
      perPage[p.index]! += b - a;
      const nbrs = p.nbrs;
      for (let e = a; e < b; e++) {
        const u = nbrs[e]!;
        const bit = 1 << (u & 31);
        if ((seen[u >>> 5]! & bit) === 0) {
          seen[u >>> 5]! |= bit;
          depth[u] = level;
          found[k++] = u;
        }
      }
    };
    for (let i = 0; i < size; i++) outSlices(graph, frontier[i]!, scan);
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
