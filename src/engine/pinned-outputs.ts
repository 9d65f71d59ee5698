/**
 * Result arrays page-locked while the engine starts. A GPU's read-back into pageable memory goes
 * through pinned staging buffers and a copy on the host (three passes over host memory); into a
 * locked array it is one DMA (GPU-only, RMAT 24: wcc's 64 MiB of labels in 1.3-1.6 ms against
 * 2.0-3.2; bench/results/h200-2026-11-29-pinned-outputs). Locking costs more than that (5-8 ms for
 * 64 MiB on an H200 host) and holds the driver meanwhile: done on the GPU controller's side thread
 * between runs, it stalled their kernels (the same folder, call 2). So it is done once, at
 * Engine.create, for the pooled arrays a preloaded program's result may take; a result handed to
 * the caller stays locked, and a caller that hands it back (Engine.recycle, as the bench harness
 * does) keeps the next runs' read-backs direct at no further cost. Fresh arrays that replace
 * handed results are not locked: their read-backs stage as before. Where CPU sockets own vertices
 * too, their state and byte maps cross the link every superstep: every pooled array and map is
 * locked then (pools.ts warmPools). The GPU controller keeps each
 * locked buffer alive until it closes (then unlocks it), so at most the arrays locked here stay
 * held after the caller drops them.
 */
import type { GpuController } from '../../actors/gpu/native.js';
import { PIN_CAP_BYTES, PIN_MIN_BYTES } from '../../actors/gpu/pins.js';
import type { AnyProgram, OutputKind } from './define.js';
import type { StateArray } from './kernel.js';
import type { StateKind } from '../wire/frames.js';

/** The array kinds a result of each output kind comes in (define.ts ValuesOf). */
const RESULT_KINDS: Record<OutputKind, readonly StateKind[]> = { float: ['f64'], distance: ['f64'], depth: ['i32'], int: ['i32', 'u32'], label: ['i32', 'u32'] };

/** Whether an array of `kind` and `length` may hold a result of one of `programs` (those with GPU code) on a graph of n vertices. */
export function mayHoldResult(programs: readonly AnyProgram[], kind: StateKind, length: number, n: number): boolean {
  return length === n && programs.some((p) => (p.gpu !== undefined || p.operators !== undefined) && RESULT_KINDS[p.output].includes(kind));
}

export class PinnedOutputs {
  /** Arrays locked or being locked, by buffer. */
  private readonly held = new Set<ArrayBufferLike>();
  private bytes = 0;
  /** The side thread's answers still to come. */
  private readonly pending = new Set<Promise<unknown>>();

  /** `controller`: the GPU controller whose side thread locks (a lock serves every GPU: it is portable). */
  constructor(private readonly controller: () => GpuController | undefined) {}

  /** Whether `a` is locked or being locked. */
  has(a: StateArray): boolean {
    return this.held.has(a.buffer);
  }

  /** Locks `a` (a whole pooled array) on the side thread, where it is large enough and under the cap (pins.ts's: TESSERA_PIN_HOST=0, none). */
  ahead(a: StateArray): void {
    if (this.held.has(a.buffer) || a.byteLength < PIN_MIN_BYTES || this.bytes + a.byteLength > PIN_CAP_BYTES) return;
    const ctl = this.controller();
    if (ctl === undefined) return;
    this.held.add(a.buffer);
    this.bytes += a.byteLength;
    // Declined (or the controller closed): its copies stage as they did.
    const p = ctl.pinAside(a).catch(() => false);
    this.pending.add(p);
    void p.then(() => this.pending.delete(p));
  }

  /** Once the side thread has answered every lock asked so far (Engine.create waits: no run meets one). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
