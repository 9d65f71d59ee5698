/**
 * Striped spin-locks for float64 read-modify-writes in push kernels (SSSP's min, BC's sigma add):
 * JS Atomics has no float64 operations, so a kernel takes lock[v & mask] (an Int32 CAS loop),
 * updates, and releases. 2^16 stripes at most keep contention low and the array in cache.
 */
import type { RunContext } from '../engine/program.js';

const LOCK_STRIPES = 1 << 16;

/** A shared Int32Array of power-of-two length (mask = length - 1), all unlocked. */
export function allocStripedLocks(ctx: RunContext, n: number): Int32Array {
  return ctx.alloc('i32', 0, Math.min(LOCK_STRIPES, 1 << Math.ceil(Math.log2(Math.max(2, n))))) as Int32Array;
}
