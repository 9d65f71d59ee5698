/**
 * Reference MIS (serial, for tests): sequential greedy over the vertices in descending priority
 * (index.ts): a vertex joins when none of its undirected-view neighbours has. Internal ids in and
 * out. Also the priority function the driver uses.
 */
import { undirectedNeighbours, type Graph } from 'tessera';

/** murmur3's 32-bit finaliser: a bijection of 32-bit words. */
function fmix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The priority of original id `id` under `seed`: distinct ids get distinct priorities. */
export const misPriority = (id: number, seed: number): number => fmix32(id ^ fmix32(seed));

export function referenceMis(g: Graph, seed: number): Int32Array {
  const n = g.numVertices;
  const ids = g.ids.toOriginal;
  const prio = Float64Array.from(ids, (id) => misPriority(id, seed));
  const order = Array.from({ length: n }, (_, v) => v).sort((a, b) => prio[b]! - prio[a]!);
  const inSet = new Int32Array(n);
  for (const v of order) {
    let free = true;
    undirectedNeighbours(g, v, (u) => (free = inSet[u] === 0));
    if (free) inSet[v] = 1;
  }
  return inSet;
}
