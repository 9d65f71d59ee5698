/**
 * Host buffers page-locked for copies: the coordinator's state arrays and frontier bitmaps a GPU
 * actor uploads from every superstep, and its own reused readback buffers. LRU under the cap
 * (Map order is the LRU order); `ok` false when the device declined (the entry only stops retries).
 */
import type { StateArray } from '../../src/engine/kernel.js';
import os from 'node:os';
import type { GpuController } from './native.js';

/** Host buffers smaller than this are copied pageable (page-locking them costs more than it saves). */
export const PIN_MIN_BYTES = 1 << 20;
/**
 * A real GPU's controller copies state of 1 MiB and up through its pinned buffers (native
 * stageState, 31-46 GB/s on an H200 host against ~50 for locked memory), smaller copies pageable
 * (small): then no buffer is worth locking (8 ms for 134 MB, 17 ms seen for a 134 MB array of
 * which one GPU copied a small range). TESSERA_STAGE_STATE=0 turns the staging off, and the
 * locking on the second copy back on.
 */
const STAGING = process.env.TESSERA_STAGE_STATE !== '0';
/** At most this much host memory page-locked per actor (LRU beyond it); TESSERA_PIN_HOST=0: none. */
export const PIN_CAP_BYTES = process.env.TESSERA_PIN_HOST === '0' ? 0 : Math.min(16 * 2 ** 30, Math.floor(os.totalmem() / 4));

export class HostPins {
  private readonly pins = new Map<ArrayBufferLike, { view: StateArray; ok: boolean }>();
  /** Buffers copied once, pageable: locked on their second copy (below). */
  private readonly seen = new WeakSet<ArrayBufferLike>();
  private bytes = 0;

  /**
   * Page-locks the host buffer under `view` through `ctl` on its second copy (then kept; LRU
   * beyond the cap), for emulated devices and real ones with staging off (above). Locking costs
   * more than one pageable copy of the same bytes (RMAT 24: 18 ms to lock a run's fresh 134 MB
   * result array, read back once), so a buffer copied once, like each run's result, never pays
   * it; one copied every superstep pays it once.
   */
  async pin(ctl: GpuController, view: StateArray): Promise<void> {
    if (STAGING && !ctl.options.emulated) return;
    const key = view.buffer;
    const had = this.pins.get(key);
    if (had !== undefined) {
      this.pins.delete(key); // re-insert: most recently used last
      this.pins.set(key, had);
      return;
    }
    if (view.byteLength < PIN_MIN_BYTES || view.byteLength > PIN_CAP_BYTES) return;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      return;
    }
    while (this.bytes + view.byteLength > PIN_CAP_BYTES) {
      const [oldKey, old] = this.pins.entries().next().value!;
      this.pins.delete(oldKey);
      this.bytes -= old.view.byteLength;
      if (old.ok) await ctl.unpinHost(old.view);
    }
    const ok = await ctl.pinHost(view);
    this.pins.set(key, { view, ok });
    this.bytes += view.byteLength;
  }

  /** Unlocks every buffer (a program switch: the coordinator dropped the previous run's arrays). */
  async unpinAll(ctl: GpuController): Promise<void> {
    for (const { view, ok } of this.pins.values()) if (ok) await ctl.unpinHost(view);
    this.clear();
  }

  /** Forgets every buffer (closing the controller unlocks them all). */
  clear(): void {
    this.pins.clear();
    this.bytes = 0;
  }
}

