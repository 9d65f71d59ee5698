/**
 * A page set's firstPageOf (each vertex's first page), from its pages' vertex ranges in order (a
 * split vertex's pages name it first). The array is faulted in on the addon's threads first (2 MiB
 * pages): one 4 KiB fault at a time on the coordinator's thread took most of the fill, at the end
 * of a .tsr's load (bench/results/h200-2026-11-29-cli-exit).
 */
import { prefault } from '../engine/fill.js';

export function firstPages(pages: ReadonlyArray<{ vBegin: number; vEnd: number }>, n: number): Uint32Array {
  const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * n));
  prefault(firstPageOf);
  for (let k = pages.length - 1; k >= 0; k--) firstPageOf.fill(k, pages[k]!.vBegin, pages[k]!.vEnd);
  return firstPageOf;
}
