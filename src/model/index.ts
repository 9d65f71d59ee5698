/**
 * The performance model's entry points (issue 7): calibrate the rates, sweep alpha for each
 * partition strategy over a graph, pick the best. `tessera model` and the benchmark harness call
 * modelSweep; the engine calls choosePartition (partition.ts) with modelParamsFor's parameters.
 */
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import type { Mode } from '../wire/frames.js';
import { calibrate, modelParamsFor, type CalibrateOptions, type ResolvedRates } from './calibrate.js';
import type { ModelParams } from './model.js';
import { bestPoint, minResidentAlphaOf, MULTI_GPU, multiGpuModes, partitionGraph, STRATEGIES, sweep, sweepPoint, type MultiGpu, type Strategy, type SweepPoint } from './partition.js';
import { programProfile } from './profile.js';
import { pushLevels } from './levels.js';
import { warmTwoSideCounts } from './two-side.js';
import { diskLoad, diskRate } from './disk.js';
import { TesseraError } from '../errors.js';
import { findProgram } from '../programs/index.js';
import { loadKernels } from '../engine/kernel-modules.js';

export * from './model.js';
export * from './partition.js';
export * from './calibrate.js';
export * from './cache.js';
export { splitRunTime, type RunTiming } from './run-timing.js';
export * from './profile.js';
export * from './report.js';
export * from './levels.js';
export * from './disk.js';

export interface ModelSweepOptions {
  /** Alpha steps (grid 0, 1/steps, ..., 1); default 20. */
  steps?: number;
  /** Strategy to sweep, or 'auto' for all three (default). */
  partition?: Strategy | 'auto';
  /** With partition 'auto': the strategies to sweep (default all three). */
  strategies?: Strategy[];
  /** A fixed alpha for the choice ('auto' or absent: the best of the grid). The sweep covers the grid either way. */
  alpha?: number | 'auto';
  /** Mode (default: the program's profile). */
  mode?: Mode;
  /** Full passes over the edges (default: the program's profile). */
  passes?: number;
  /** RAND seed (default 1). */
  seed?: number;
  /** Several GPUs: one range each ('p', default), dealt pages ('s'), or both predicted and the faster chosen ('auto'). */
  multiGpu?: MultiGpu | 'auto';
  /**
   * BFS: the source (internal id). A top-down (push) BFS is then predicted level by level
   * (levels.ts: one serial BFS over the graph first).
   */
  source?: number;
  /** Extra alphas predicted beside the grid (the benchmark's own, so no point is interpolated). */
  alphas?: number[];
  /** The GPUs' resident pages are on the device already (repeated runs of one engine): not charged. */
  pagesResident?: boolean;
  /** Allow streamed GPU pages in the choice (default true). */
  allowStreaming?: boolean;
  calibrate?: CalibrateOptions;
  /**
   * The mode and source are a user's flags (tessera model): refused where they change nothing.
   * Otherwise they are a run's own (run --alpha auto, the benchmark's curves, model-replay): the
   * sweep models what that run does (no source; the program's mode where its kernels lack the
   * forced one).
   */
  userFlags?: boolean;
}

/** Whether the model uses a source: a top-down (push) traversal predicted level by level. */
export function sourceApplies(algo: string, mode: Mode): boolean {
  return programProfile(algo).levels === true && mode === 'push';
}

/** Whether any of the program's CPU kernels has a `mode` form (loaded as the engine loads them). */
export async function programHasMode(algo: string, mode: Mode): Promise<boolean> {
  const program = findProgram(algo);
  const { table } = await loadKernels(program.kernels, program.name);
  return Object.values(table).some((k) => typeof k[mode] === 'function');
}

/**
 * A user's mode and source refused where they change nothing: a mode no kernel of the program has
 * (the run would run its supersteps in the other), a source the prediction does not read.
 */
async function checkModelInputs(algo: string, mode: Mode | undefined, source: number | undefined): Promise<void> {
  const profile = programProfile(algo);
  // The profile's own mode is the program's (a program of team or vertex kernels has no push/pull form).
  if (mode !== undefined && mode !== profile.mode && !(await programHasMode(algo, mode))) {
    throw new TesseraError(`program '${profile.algo}' has no ${mode} kernels, so its runs never ${mode}`, { key: '--mode', fix: `leave --mode out (${profile.algo} runs ${mode === 'push' ? 'pull' : 'push'})` });
  }
  if (source !== undefined && !sourceApplies(algo, mode ?? profile.mode)) {
    throw new TesseraError(`the model's prediction for ${profile.algo}${mode !== undefined ? ` in ${mode} mode` : ''} does not depend on the source`, {
      key: '--source',
      fix: profile.levels === true ? 'add --mode push (a top-down traversal from the source is then predicted level by level), or leave --source out' : `leave --source out (only a top-down BFS, --algo bfs --mode push, is predicted from its source)`,
    });
  }
}

export interface ModelSweep {
  program: string;
  mode: Mode;
  passes: number;
  rates: ResolvedRates;
  params: ModelParams;
  points: SweepPoint[];
  /** The best qualifying point (undefined when none qualifies). */
  chosen?: SweepPoint;
  /** Per strategy: the smallest alpha of the grid at which no GPU page is streamed. */
  minResidentAlpha: Partial<Record<Strategy, number>>;
}

export async function modelSweep(graph: Graph, topology: Topology, algo: string, opts: ModelSweepOptions = {}): Promise<ModelSweep> {
  const profile = programProfile(algo);
  if (opts.userFlags === true) await checkModelInputs(algo, opts.mode, opts.source);
  const mode = opts.mode === undefined || (opts.mode !== profile.mode && !(await programHasMode(algo, opts.mode))) ? profile.mode : opts.mode;
  const source = sourceApplies(algo, mode) ? opts.source : undefined;
  const rates = await calibrate(topology, profile.algo, mode, { graphVertices: graph.numVertices, ...opts.calibrate });
  const params = modelParamsFor(topology, rates, graph, { passes: opts.passes, pagesResident: opts.pagesResident });
  if (source !== undefined) params.levelPageEdges = pushLevels(graph, source);
  if (profile.levels === true && mode === 'pull') params.gpuWorkByVertices = true;
  const strategies = opts.partition === undefined || opts.partition === 'auto' ? (opts.strategies ?? STRATEGIES) : [opts.partition];
  const orientation = mode === 'push' ? 'out' : 'in';
  const grid = opts.steps ?? 20;
  // One socket + one GPU: the boundary counts every point reads come from one pass over the
  // edges, made here on the sockets' threads before the synchronous sweep.
  if (params.elements.length === 2) await warmTwoSideCounts(graph, orientation, opts.seed, topology.sockets.reduce((a, s) => a + s.threads, 0));
  if (graph[orientation].stored !== undefined) {
    const rate = await diskRate(graph[orientation].stored!.store.file, { cacheFile: opts.calibrate?.cacheFile, refresh: opts.calibrate?.refresh });
    if (rate !== undefined) {
      rates.diskBytesPerSec = rate;
      params.disk = diskLoad(graph, topology, orientation, rate.value);
    }
  }
  const modes = multiGpuModes(params, opts.multiGpu === 'auto' ? MULTI_GPU : [opts.multiGpu ?? 'p']);
  const points = sweep(graph, params, { strategies, multiGpu: modes, steps: grid, orientation, seed: opts.seed });
  // Without GPUs there is one point (alpha 1, the sockets split by rate): nothing to choose.
  const hasGpu = topology.gpus.length > 0;
  // A fixed alpha off the grid, and the extra alphas asked for, get their own points.
  const extra = [...(typeof opts.alpha === 'number' ? [opts.alpha] : []), ...(opts.alphas ?? [])];
  for (const alpha of hasGpu ? new Set(extra) : [])
    if (!points.some((p) => p.alphaRequested === alpha))
      for (const multiGpu of modes)
        for (const strategy of strategies) points.push(sweepPoint(graph, params, partitionGraph(graph, params, { strategy, multiGpu, alpha, orientation, seed: opts.seed })));
  const chosen = hasGpu ? bestPoint(points, { partition: opts.partition, alpha: opts.alpha, allowStreaming: opts.allowStreaming }) : points[0];
  const minResidentAlpha: Partial<Record<Strategy, number>> = {};
  for (const s of strategies) {
    const a = minResidentAlphaOf(points, s);
    if (a !== undefined) minResidentAlpha[s] = a;
  }
  return { program: profile.algo, mode, passes: params.passes ?? 1, rates, params, points, ...(chosen ? { chosen } : {}), minResidentAlpha };
}
