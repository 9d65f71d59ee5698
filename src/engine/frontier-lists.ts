/** A frontier's vertex list and out-edges read off its bitmap, natively where the addon can. */
import { nativeListFlags } from '../../actors/gpu/native-host.js';
import { forEachFlag } from './ids.js';
import type { Frontier } from './program.js';
import { NATIVE_FOLD_MIN } from './fold.js';

/**
 * One pass over a frontier's bitmap: the sum of its vertices' out-degrees (with `outDegree`), and
 * its vertex ids written to `list` (with one). Skips eight clear flags at a time.
 */
/** Sum of the out-degrees of a frontier's vertices, from its bitmap. */
export function outEdgesOf(f: Frontier, outDegree: Uint32Array): number {
  let edges = 0;
  forEachFlag(f.bitmap, (v) => (edges += outDegree[v]!), f.size);
  return edges;
}

/**
 * Sum of the out-degrees of a list's vertices. Its own function: inside edgeMap (long, async) the
 * loop ran unoptimised, ~0.2 us a vertex.
 */
export function listEdges(list: Uint32Array, outDegree: Uint32Array): number {
  let edges = 0;
  for (let i = 0; i < list.length; i++) edges += outDegree[list[i]!]!;
  return edges;
}

/**
 * Whether listOf runs on the addon's threads: from 64 k flags in the byte map (both list ways read
 * all of it, however few are set: a 24 k-vertex frontier of RMAT 20 took the TypeScript scan 6 ms).
 */
export function listsNatively(f: Frontier): boolean {
  return f.bitmap.length >= NATIVE_FOLD_MIN && nativeListFlags() !== undefined;
}

/**
 * The frontier's vertices in ascending order, from its bitmap, and with `degree` (where the
 * addon lists them on its threads: listsNatively) their out-edges too. Otherwise
 * forEachFlag's word skipping, the bytes of a set word written without branches (a call per
 * vertex, or a branch per byte, cost 2-4x on RMAT 24's 6 M-vertex level: a third of the flags are
 * set, so the branches mispredict).
 */
export function listOf(f: Frontier, alloc: (size: number) => Uint32Array, degree?: Uint32Array): { list: Uint32Array; edges?: number } {
  const size = f.size;
  const flags = f.bitmap;
  const native = listsNatively(f) ? nativeListFlags() : undefined;
  if (native !== undefined) {
    const out = alloc(size);
    const r = native(flags, out, degree);
    return { list: r.count === size ? out : out.subarray(0, r.count), ...(degree !== undefined ? { edges: r.edges } : {}) };
  }
  // 8 spare entries: a word's last writes may land past the last vertex before k is checked.
  const out = alloc(size + 8);
  const n = flags.length;
  let k = 0;
  let i = 0;
  for (; i < n && (flags.byteOffset + i) % 8 !== 0; i++) if (flags[i] !== 0) out[k++] = i;
  const words = new Float64Array(flags.buffer, flags.byteOffset + i, (n - i) >> 3);
  for (let w = 0; w < words.length && k < size; w++) {
    if (words[w] === 0) continue;
    const j = i + (w << 3);
    // Unrolled: a loop over the 8 bytes ran 2.5x slower (62 vs 24 ms for 6 M of 16.8 M flags).
    out[k] = j;
    k += flags[j]!;
    out[k] = j + 1;
    k += flags[j + 1]!;
    out[k] = j + 2;
    k += flags[j + 2]!;
    out[k] = j + 3;
    k += flags[j + 3]!;
    out[k] = j + 4;
    k += flags[j + 4]!;
    out[k] = j + 5;
    k += flags[j + 5]!;
    out[k] = j + 6;
    k += flags[j + 6]!;
    out[k] = j + 7;
    k += flags[j + 7]!;
  }
  for (i += words.length << 3; i < n && k < size; i++) if (flags[i] !== 0) out[k++] = i;
  return { list: out.subarray(0, Math.min(k, size)) };
}

export function toShared(a: Uint32Array): Uint32Array {
  const s = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * a.length)), 0, a.length);
  s.set(a);
  return s;
}
