/** warm-up.ts's GPU side: `touch` does nothing on the device and changes nothing (transient: the preloaded program's device arrays stay). */
import type { GpuHandler } from '../../actors/gpu/handler.js';

export const touch: GpuHandler = {
  modes: ['push', 'pull'],
  transient: true,
  run: (a) => Promise.resolve(a.out({})),
};
