/**
 * The split the performance model picks for a run (`tessera run --alpha auto`, the benchmark's
 * `alphas: [auto]` cells): the alpha (and with partition 'auto' the strategy) with the smallest
 * predicted makespan, as the engine options that run it.
 */
import type { RunReport } from '../engine/report.js';
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import { TesseraError } from '../errors.js';
import { gpuShareFor } from '../engine/partition.js';
import type { Mode } from '../wire/frames.js';
import { modelSweep } from './index.js';
import { bestPoint, partitionGraph, type MultiGpu, type Strategy, type SweepPoint } from './partition.js';
import { modelSummary, type ModelSummary } from './report.js';

/** What the engine is given (EngineOptions fields) and how the report is summarised. */
export interface ModelSplit {
  gpuShare?: number;
  partition: 'high' | 'low' | 'rand';
  /** Several GPUs: the way the model chose (absent with fewer than two GPUs). */
  multiGpu?: MultiGpu;
  partitionSeed?: number;
  partitionPages?: 'in' | 'out';
  ownership?: Array<Array<[number, number]>>;
  /** The point the model chose. */
  chosen: SweepPoint;
  summarize: (r: RunReport) => ModelSummary;
}

export interface ModelSplitOptions {
  /** A strategy, or 'auto' for the best of the three. */
  partition: Strategy | 'auto';
  /** A fixed alpha (the model then picks the strategy), 'auto', or absent: the topology's split (gpuShareFor). */
  alpha?: number | 'auto';
  seed: number;
  /** The mode the run is forced to (its rates and pages), else the program's own. */
  mode?: Mode;
  /** BFS: the source (internal id): a top-down BFS is predicted level by level. */
  source?: number;
  /** The GPUs' pages are resident from earlier runs of the same engine (repeated runs): their copy is not charged. */
  pagesResident?: boolean;
  /** Several GPUs: 'p', 's', or 'auto' (both predicted, the faster chosen); default 'p'. */
  multiGpu?: MultiGpu | 'auto';
}

export async function modelSplit(graph: Graph, topology: Topology, algo: string, o: ModelSplitOptions): Promise<ModelSplit> {
  const alpha = o.alpha ?? 1 - gpuShareFor(graph, topology, undefined);
  // Each point is one O(|E|) boundary count: on a 0.1 grid when alpha is chosen too; at a given
  // alpha only its point (and the grid's ends).
  const steps = alpha === 'auto' ? 10 : 1;
  const sweep = await modelSweep(graph, topology, algo, { partition: o.partition, steps, alpha, seed: o.seed, mode: o.mode, source: o.source, pagesResident: o.pagesResident, multiGpu: o.multiGpu });
  const chosen = bestPoint(sweep.points, { alpha });
  if (chosen === undefined) {
    throw new TesseraError('the performance model found no feasible split for this graph and topology', {
      file: topology.source,
      key: 'gpus.memoryLimit',
      fix: 'raise the GPUs\' memoryLimit, or give --alpha explicitly (1 = CPU sockets only)',
    });
  }
  const summarize = (r: RunReport): ModelSummary => modelSummary(chosen, sweep.rates, r);
  const multi = topology.gpus.length > 1 ? { multiGpu: chosen.multiGpu } : {};
  // HIGH / LOW with one range per GPU: the alpha asked for, or the model's as cut into pages.
  if (chosen.strategy !== 'rand' && chosen.multiGpu === 'p')
    return { gpuShare: 1 - (typeof alpha === 'number' ? alpha : chosen.prediction.alpha), partition: chosen.strategy, ...multi, chosen, summarize };
  // RAND, dealt pages: run exactly the pages the model chose (its partition at that alpha and seed).
  const partitionPages = sweep.mode === 'push' ? 'out' : 'in';
  const part = partitionGraph(graph, sweep.params, { strategy: chosen.strategy, multiGpu: chosen.multiGpu, alpha: chosen.alphaRequested, orientation: partitionPages, seed: o.seed });
  const ownership = part.elements.filter((e) => e.kind === 'gpu').map((e) => e.ranges);
  return { partition: chosen.strategy, ...(chosen.strategy === 'rand' ? { partitionSeed: o.seed } : {}), ...multi, partitionPages, ownership, chosen, summarize };
}
