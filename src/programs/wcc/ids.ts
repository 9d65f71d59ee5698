/** wcc's original ids in shared memory: the GPU's Afforest labels with them (index.ts, gpu.ts prepare). */
import { toShared } from '../../engine/frontier-lists.js';
import type { Graph } from '../../graph/types.js';

const idCopies = new WeakMap<Graph, Uint32Array>();
/** The graph's original ids in shared memory (a frame carries shared buffers only): a copy once per graph where they are not. */
export function sharedIds(g: Graph): Uint32Array {
  const ids = g.ids.toOriginal;
  if (ids.buffer instanceof SharedArrayBuffer) return ids;
  let c = idCopies.get(g);
  if (c === undefined) idCopies.set(g, (c = toShared(ids)));
  return c;
}
