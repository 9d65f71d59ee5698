/** A GPU actor's counters of one superstep (the vote's `gpu`), and what each native call adds. */
import type { GpuStepStats } from '../../src/wire/frames.js';
import type { RunStats } from './native.js';

export function zeroStats(emulated: boolean): GpuStepStats {
  return { emulated, calls: 0, pages: 0, hits: 0, misses: 0, evictions: 0, pageBytes: 0, stateBytesIn: 0, stateBytesOut: 0, kernelMs: 0, copyMs: 0 };
}

/** Adds a native call's counters (pages from disk only where it read or buffered some). */
export function addRunStats(s: GpuStepStats, st: RunStats): void {
  s.calls++;
  s.pages += st.pages;
  s.hits += st.hits;
  s.misses += st.misses;
  s.evictions += st.evictions;
  s.pageBytes += st.bytesCopied;
  if (st.fileBytes > 0 || st.bufferHits > 0) {
    s.fileBytes = (s.fileBytes ?? 0) + st.fileBytes;
    s.bufferHits = (s.bufferHits ?? 0) + st.bufferHits;
  }
  s.kernelMs += st.kernelMs;
  s.copyMs += st.copyMs;
  s.runMs = (s.runMs ?? 0) + st.wallMs;
  if (st.peerBytes !== undefined) s.peerSent = (s.peerSent ?? 0) + st.peerBytes;
  if (st.peerWaitMs !== undefined) s.peerMs = (s.peerMs ?? 0) + st.peerWaitMs;
  if (st.directions !== undefined) s.directions = (s.directions ?? '') + st.directions;
  if (st.levelTimes !== undefined) s.levelTimes = [...(s.levelTimes ?? []), ...st.levelTimes.map((t) => t.map((ms) => Math.round(ms * 1000) / 1000))];
}
