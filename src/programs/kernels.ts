/** Kernel registry: workers resolve a superstep's kernel by name here. */
import type { CpuKernel } from '../engine/kernel.js';
import { bcBackwardKernel, bcForwardKernel } from './betweenness.js';
import { bfsKernel } from './bfs.js';
import { cdlpKernel } from './cdlp.js';
import { lccCountKernel, lccDirectKernel, lccFillKernel, lccTriangleKernel } from './lcc.js';
import { pagerankInitKernel, pagerankKernel } from './pagerank.js';
import { ssspKernel } from './sssp.js';
import { wccKernel } from './wcc.js';

export const KERNELS: Record<string, CpuKernel> = {
  bfs: bfsKernel,
  pr: pagerankKernel,
  'pr-init': pagerankInitKernel,
  sssp: ssspKernel,
  wcc: wccKernel,
  cdlp: cdlpKernel,
  'lcc-count': lccCountKernel,
  'lcc-fill': lccFillKernel,
  'lcc-tri': lccTriangleKernel,
  'lcc-direct': lccDirectKernel,
  'bc-fwd': bcForwardKernel,
  'bc-back': bcBackwardKernel,
};
