/**
 * Filling state arrays and frontier bitmaps. From FILL_NATIVE_MIN bytes the addon fills them on
 * its threads (fillArray in native/src/addon_passes.cpp): a fresh array faulted in a page at a time on
 * the coordinator's thread cost 30-57 ms per run for RMAT 24's 67 MB depth array on the H100
 * host, and a run clears several frontier byte maps (4 MB each at RMAT 22). Without the addon:
 * TypedArray.fill (fillBytes for bytes).
 */
import { nativeCopyArray, nativeFillArray, nativeFillIndex, nativePopulate } from '../../actors/gpu/native-host.js';
import { fillBytes, type StateArray } from './kernel.js';

/** Bytes from which the addon fills (its memset beat fillBytes 2x at 256 KiB on the 2-core box). */
export const FILL_NATIVE_MIN = 256 << 10;

/**
 * Buffers the addon asked huge pages for (its fills, prefaults and populates of the whole buffer):
 * it is not asked again for them. Each ask (madvise) takes the process's memory map lock for
 * writing, which beside a GPU driver's threads stalled bfs's small fill of its hint bits every run
 * (bench/results/h200-x2-2026-11-29-recycled).
 */
const advised = new WeakSet<ArrayBufferLike>();
/** Whether the addon should ask huge pages for `a` (not asked yet); records that it will. */
function advise(a: StateArray): boolean {
  if (a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength) return true;
  if (advised.has(a.buffer)) return false;
  advised.add(a.buffer);
  return true;
}

/** Sets every entry of `a` to `value` (bytes: modulo 256, as Uint8Array.fill). */
export function fillArray(a: StateArray, value: number): void {
  const native = a.byteLength >= FILL_NATIVE_MIN ? nativeFillArray() : undefined;
  if (native !== undefined) native(a, value, advise(a));
  else if (a instanceof Uint8Array) fillBytes(a, value);
  else a.fill(value);
}

/** Sets every entry of `a` to its index (union-find parents: every vertex its own tree). */
export function fillIndex(a: Int32Array | Uint32Array | Float64Array): void {
  const native = a.byteLength >= FILL_NATIVE_MIN ? nativeFillIndex() : undefined;
  if (native !== undefined) native(a, advise(a));
  else for (let i = 0; i < a.length; i++) a[i] = i;
}

/**
 * Faults in a fresh (zeroed) array on the addon's threads, so that the supersteps' first writes do
 * not pay the page faults one at a time; without the addon, nothing (the memory is zero already).
 */
export function prefault(a: StateArray): void {
  const native = a.byteLength >= FILL_NATIVE_MIN ? nativeFillArray() : undefined;
  if (native !== undefined) native(a, 0, advise(a));
}

/**
 * prefault, but on other threads while the caller goes on (MADV_POPULATE_WRITE leaves what anyone
 * writes meanwhile as it is): a run's fresh output array (PageRank's 268 MB of ranks at RMAT 25
 * took 5.6-7.7 ms of every run's start on the H200 host, a GPU writing it only at the end).
 * Where the kernel cannot, prefault.
 */
export function populate(a: StateArray): void {
  const p = a.byteLength >= FILL_NATIVE_MIN ? nativePopulate()?.(a) : undefined;
  if (p === undefined) prefault(a);
  else {
    advise(a); // the addon asked huge pages for it first
    p.catch(() => undefined); // a fault left for the first write: nothing lost
  }
}

/**
 * dst.set(src) for arrays of one element size and length: from FILL_NATIVE_MIN bytes on the
 * addon's threads (a driver's first copy of original ids into a label array: 12 ms for 134 MB on
 * one thread).
 */
export function copyArray(dst: StateArray, src: StateArray): void {
  const native = dst.byteLength >= FILL_NATIVE_MIN && dst.length === src.length && dst.BYTES_PER_ELEMENT === src.BYTES_PER_ELEMENT ? nativeCopyArray() : undefined;
  if (native !== undefined) native(dst, src);
  else dst.set(src as never);
}
