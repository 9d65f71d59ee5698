/** warm-up.ts's kernels: meet (each thread of the team meets the others once and returns), touch (nothing, either way). */
import type { CpuKernel } from './kernel.js';

export const meet: CpuKernel = {
  team(_ctx, t) {
    t.sync();
  },
};

export const touch: CpuKernel = {
  pull() {},
  push() {},
};
