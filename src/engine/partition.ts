/**
 * The CPU/GPU split (TOTEM's partitioning): every GPU actor owns one contiguous range of internal
 * vertex ids for the whole run. Ids are renumbered by descending degree, so with HIGH (default)
 * the GPUs take the tail of the id space — the many low-degree vertices — and the CPU sockets the
 * hubs (TOTEM's placement of high-degree vertices on the CPU); with LOW the GPUs take the head
 * (the hubs) and the CPU sockets the rest. RAND (pages scattered at random) is predicted by the
 * model only: a GPU actor owns one range.
 */
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';

/** Default fraction of the edges the GPUs take when nothing else says. */
export const DEFAULT_GPU_SHARE = 0.5;

/**
 * Fraction of the (in-)edges the GPUs own together, in [0, 1]: EngineOptions.gpuShare, else the
 * topology's model.gpuShare, else DEFAULT_GPU_SHARE. This is the one place a performance model
 * (issue 7: CPU and GPU processing rates, link bandwidth) plugs in to pick the split.
 */
export function gpuShareFor(_graph: Graph, topology: Topology, option: number | undefined): number {
  if (topology.gpus.length === 0) return 0;
  const share = option ?? topology.model.gpuShare ?? DEFAULT_GPU_SHARE;
  if (!(share >= 0 && share <= 1))
    throw new TesseraError(`gpuShare ${share} is not a fraction`, {
      file: option === undefined ? topology.source : undefined,
      key: option === undefined ? 'model.gpuShare' : 'gpuShare',
      fix: 'use a number from 0 (CPU sockets do everything) to 1 (GPUs do everything)',
    });
  return share;
}

/**
 * [begin, end) per GPU: the tail of the id space holding about `share` of the in-edges, cut into
 * one range per GPU of about equal edges. Cuts fall between vertices (so never inside the split
 * pages of one vertex), not necessarily between pages: a page straddling a cut is walked by both
 * sides, each keeping only its own vertices (the CPU tasks stop at the cut, the GPU reads back only
 * its range), which costs at most one page of redundant work per cut.
 */
export type RunnableStrategy = 'high' | 'low';

export function gpuRanges(graph: Graph, gpus: number, share: number, strategy: RunnableStrategy = 'high'): Array<[number, number]> {
  const n = graph.numVertices;
  if (gpus === 0) return [];
  const deg = graph.inDegree;
  const total = graph.numEdges;
  // First vertex whose in-edge prefix reaches `target`.
  const cutAt = (target: number): number => {
    let acc = 0;
    for (let v = 0; v < n; v++) {
      if (acc >= target) return v;
      acc += deg[v]!;
    }
    return n;
  };
  if (strategy === 'low') {
    // The head of the id space: [0, cut(share)), one range per GPU of about equal edges.
    const ranges: Array<[number, number]> = [];
    let lo = 0;
    for (let i = 1; i <= gpus; i++) {
      const hi = share >= 1 && i === gpus ? n : share <= 0 ? 0 : Math.max(lo, cutAt((total * share * i) / gpus));
      ranges.push([lo, hi]);
      lo = hi;
    }
    return ranges;
  }
  const start = share >= 1 ? 0 : share <= 0 ? n : cutAt(total * (1 - share));
  const ranges: Array<[number, number]> = [];
  let lo = start;
  for (let i = 1; i <= gpus; i++) {
    const hi = i === gpus ? n : Math.max(lo, cutAt(total * (1 - share) + (total * share * i) / gpus));
    ranges.push([lo, hi]);
    lo = hi;
  }
  return ranges;
}
