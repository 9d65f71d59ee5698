/** Kernel registry: workers resolve a superstep's kernel by name here. */
import type { CpuKernel } from '../engine/kernel.js';
import { bfsKernel } from './bfs.js';
import { pagerankKernel } from './pagerank.js';

export const KERNELS: Record<string, CpuKernel> = {
  bfs: bfsKernel,
  pr: pagerankKernel,
};
