/** warm-up.ts's kernel: each thread of the team meets the others once and returns. */
import type { CpuKernel } from './kernel.js';

export const meet: CpuKernel = {
  team(_ctx, t) {
    t.sync();
  },
};
