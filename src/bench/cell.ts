/**
 * One benchmark job in its own process (forked by the sweep), so that its peak RSS
 * (`process.resourceUsage().maxRSS`, the high-water mark of this process only) belongs to that
 * job alone: a graph preparation, one tessera cell (load + warm-up + repetitions of one program on
 * one topology), or one graphology cell. The parent sends one job over IPC and gets progress
 * messages and one result back; the process then exits.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Engine, type EngineOptions } from '../engine/coordinator.js';
import { DEFAULT_PARTITION_SEED } from '../engine/partition.js';
import { internalId } from '../engine/output.js';
import type { RunReport } from '../engine/report.js';
import { isTesseraError } from '../errors.js';
import { loadGraph } from '../graph/load.js';
import { forEachEdge } from '../graph/pages.js';
import { readTsr, writeTsr } from '../graph/tsr.js';
import type { Graph } from '../graph/types.js';
import type { ModelSplit } from '../model/split.js';
import { findProgram, PROGRAMS } from '../programs/index.js';
import { prepareRun, withOwnership } from '../api.js';
import { runsAs, type AnyProgram, type ParamSpecs } from '../engine/define.js';
import { loadTopology } from '../topology/load.js';
import { soleGpuTopology } from '../topology/sole-gpu.js';
import type { GraphPlan, ProgramPlan } from './config.js';
import type { ActorTime, ModelPrediction, Sample } from './schema.js';

/** GAPBS weights are int32: tessera's float weights in (0, 1] are scaled by this and rounded (>= 1). */
export const GAPBS_WEIGHT_SCALE = 1_000_000;

export type Job =
  | { type: 'prepare'; graph: GraphPlan; tsr: string; edgeList: string | null; weightedEdgeList: string | null }
  | {
      type: 'tessera';
      tsr: string;
      topologyFile: string;
      program: ProgramPlan;
      source: number;
      warmup: number;
      reps: number;
      /** The CPU share of the edges, 'auto' (the performance model's split), or null (the topology's). */
      alpha: number | 'auto' | null;
      /** Run on the topology's sockets only (the host-only baseline of a CPU+GPU topology). */
      cpuOnly: boolean;
      /** Page stealing (EngineOptions.steal; absent: the engine's default). */
      steal?: 'auto' | 'off' | 'always';
      /** Partition strategy of a numeric alpha (absent: high). */
      partition?: 'high' | 'low' | 'rand';
      /** Topologies with two GPUs or more: how they share their side (absent: p). */
      multiGpu?: 'p' | 's' | 'auto';
    }
  | { type: 'graphology'; tsr: string; program: ProgramPlan; source: number; warmup: number; reps: number }
  | { type: 'model'; tsr: string; topologyFile: string; program: ProgramPlan; steps: number; alphas: number[]; sourceInternal?: number };

export interface PrepareResult {
  vertices: number;
  edges: number;
  directed: boolean;
  weighted: boolean;
  buildMs: number;
  source: number;
  /** The source's internal id (GAPBS edge lists use internal ids). */
  sourceInternal: number;
  /** Mean edge weight (1 when unweighted): tessera's default SSSP window, and GAPBS's delta. */
  meanWeight: number;
  peakRssBytes: number;
}

export interface CellResult {
  loadMs: number;
  setupMs: number | null;
  warmup: Sample[];
  samples: Sample[];
  peakRssBytes: number;
  /** alpha 'auto': the split the model chose, and the seconds choosing it took (before set-up). */
  auto?: { strategy: string; alpha: number; predictedMs: number; modelS: number };
  /** The cell ran on fewer GPUs than its topology's (the program's soleGpu), and why. */
  notice?: string;
  /** The GPUs the cell ran on, when fewer than its topology's (with the notice). */
  gpus?: number;
}

export type ChildMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'prepared'; result: PrepareResult }
  | { type: 'cell'; result: CellResult }
  | { type: 'model'; result: ModelCurveResult }
  | { type: 'error'; message: string; user: boolean };

const maxRss = (): number => process.resourceUsage().maxRSS * 1024;
const send = (m: ChildMessage): void => void process.send?.(m);

/**
 * Sends the child's answer and then closes the channel: only once the message is written
 * (disconnecting right after process.send drops a message still being written, silently).
 */
const answer = (m: ChildMessage): Promise<void> =>
  new Promise((resolve) => {
    if (process.send === undefined) return resolve();
    process.send(m, () => resolve());
  });

/** Reads the model fields a run report may carry (`report.model`), or null when it has none. */
export function modelFromReport(report: unknown): ModelPrediction | null {
  const m = (report as { model?: unknown } | null)?.model;
  if (m === null || typeof m !== 'object') return null;
  const num = (k: string): number | null => {
    const v = (m as Record<string, unknown>)[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  const p = { predictedMs: num('predictedMs'), alpha: num('alpha'), beta: num('beta'), source: 'run-report' };
  return p.predictedMs === null && p.alpha === null && p.beta === null ? null : p;
}

/** Measured alpha: the CPU actors' share of the edges processed in a run (null when no actor reported edges). */
export function cpuEdgeShare(report: RunReport): number | null {
  let cpu = 0;
  let all = 0;
  for (const s of report.steps)
    for (const a of s.actors) {
      all += a.edges;
      if (a.kind === 'cpu') cpu += a.edges;
    }
  return all > 0 ? cpu / all : null;
}

/** Per-actor busy time over one run: each actor's superstep compute times summed. */
export function actorTimes(report: RunReport): ActorTime[] {
  const per = new Map<string, ActorTime>();
  for (const s of report.steps)
    for (const a of s.actors) {
      const t = per.get(a.actor) ?? { actor: a.actor, kind: a.kind, computeMs: 0, edges: 0, tasks: 0 };
      t.computeMs += a.computeMs;
      t.edges += a.edges;
      t.tasks += a.tasks;
      per.set(a.actor, t);
    }
  return [...per.values()];
}

/** The program's parameters of a cell: the config's, and the graph's source for vertex parameters it leaves out. */
function cellParams(p: ProgramPlan, source: number): { program: AnyProgram; params: Record<string, unknown> } {
  const program = findProgram(p.name);
  const { mode: _mode, ...params } = p.params as Record<string, unknown>; // the engine's option, not the program's
  for (const [k, spec] of Object.entries(program.params as ParamSpecs)) if (spec.type === 'vertex' && params[k] === undefined) params[k] = source;
  return { program, params };
}

async function prepare(job: Extract<Job, { type: 'prepare' }>): Promise<PrepareResult> {
  const { graph, loadMs, defaults } = await loadGraph(job.graph.spec, { undirected: job.graph.undirected });
  if (job.graph.weighted && graph.weightType === undefined) {
    throw Object.assign(new Error(`graph ${job.graph.id} has no weights, but the config says weighted: true`), { user: true });
  }
  await writeTsr(graph, job.tsr);
  let sum = 0;
  let count = 0;
  if (graph.weightType !== undefined) forEachEdge(graph.out, (_v, _u, w) => ((sum += w), count++));
  const meanWeight = count > 0 ? sum / count : 1;
  if (job.edgeList) await writeEdgeList(graph, job.edgeList, false);
  if (job.weightedEdgeList) await writeEdgeList(graph, job.weightedEdgeList, true);
  // Configured, else the Graphalytics .properties source, else the highest-degree vertex (internal 0).
  const source = job.graph.source ?? defaults['bfs.source-vertex'] ?? defaults['sssp.source-vertex'] ?? graph.ids.toOriginal[0]!;
  const sourceInternal = internalId(graph, source, `graph ${job.graph.id}: source`); // a bad configured source fails here, once
  return {
    vertices: graph.numVertices,
    edges: graph.numEdges,
    directed: graph.directed,
    weighted: graph.weightType !== undefined,
    buildMs: loadMs,
    source,
    sourceInternal,
    meanWeight,
    peakRssBytes: maxRss(),
  };
}

/**
 * The graph as a GAPBS edge list in tessera's internal (dense, degree-ordered) ids, so both
 * engines see the same vertex numbering; weights scaled to positive integers.
 */
async function writeEdgeList(graph: Graph, file: string, weighted: boolean): Promise<void> {
  const out = createWriteStream(file);
  let buf = '';
  for (const p of graph.out.pages) {
    const { offsets, nbrs, weights } = p;
    for (let v = p.vBegin; v < p.vEnd; v++) {
      for (let e = offsets[v - p.vBegin]!; e < offsets[v - p.vBegin + 1]!; e++) {
        const w = weights === undefined ? 1 : weights[e]!;
        buf += weighted ? `${v} ${nbrs[e]!} ${Math.max(1, Math.round(w * GAPBS_WEIGHT_SCALE))}\n` : `${v} ${nbrs[e]!}\n`;
      }
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await once(out, 'drain');
        buf = '';
      }
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

async function runTessera(job: Extract<Job, { type: 'tessera' }>): Promise<CellResult> {
  let t = performance.now();
  const graph = await readTsr(job.tsr);
  const loadMs = performance.now() - t;
  const file = await loadTopology(job.topologyFile);
  const cell = cellParams(job.program, job.source);
  const { program, params } = prepareRun(graph, cell.program, cell.params);
  // As run() and the CLI: a program whose GPU loop needs one GPU takes the first of several,
  // unless the sweep names how they share the work (multiGpu).
  const sole = soleGpuTopology(job.cpuOnly ? { ...file, name: `${file.name} (CPU only)`, gpus: [] } : file, program, job.multiGpu !== undefined);
  const topology = sole.topology;
  t = performance.now();
  // alpha (TOTEM) is the CPU share of the edges; the engine takes the GPUs' share. The alpha plot
  // uses the share each run measured (cpuEdgeShare), not this request.
  const mode = job.program.params.mode;
  const opts: EngineOptions & { gpuShare?: number } = typeof job.alpha === 'number' ? { gpuShare: 1 - job.alpha, partition: job.partition ?? 'high' } : {};
  let split: ModelSplit | undefined;
  let auto: CellResult['auto'];
  const multiGpu = topology.gpus.length > 1 ? (job.multiGpu ?? 'p') : undefined;
  if (multiGpu === 'p' || multiGpu === 's') opts.multiGpu = multiGpu;
  if (job.alpha === 'auto' || multiGpu === 'auto') {
    // As `tessera run --alpha auto`: the model's best strategy and alpha for this program, its
    // forced mode and (BFS) its source; the pages resident, as in the measured (warm) runs and the
    // sweep's model curve.
    const m0 = performance.now();
    const { modelSplit } = await import('../model/split.js');
    const source = program.profile.levels === true ? internalId(graph, job.source) : undefined;
    // multiGpu 'auto' at a given alpha (or the topology's): the model picks P or S (and nothing else) there.
    const partition = job.alpha === 'auto' ? 'auto' : (job.partition ?? 'high');
    split = await modelSplit(graph, topology, job.program.name, { partition, alpha: job.alpha ?? undefined, seed: DEFAULT_PARTITION_SEED, mode, source, pagesResident: true, multiGpu: multiGpu ?? 'p' });
    const { gpuShare, partition: chosen, partitionSeed, partitionPages, ownership } = split;
    Object.assign(opts, { gpuShare, partition: chosen, partitionSeed, partitionPages, ownership, multiGpu: split.multiGpu });
    auto = { strategy: split.chosen.strategy + (split.multiGpu !== undefined ? `-${split.multiGpu}` : ''), alpha: split.chosen.prediction.alpha, predictedMs: split.chosen.prediction.makespanS * 1000, modelS: (performance.now() - m0) / 1000 };
    t = performance.now();
  }
  if (job.steal !== undefined) opts.steal = job.steal;
  if (mode !== undefined) opts.forceMode = mode;
  opts.preload = [runsAs(program, params, graph)];
  const engine = await Engine.create(graph, topology, await withOwnership(graph, topology, opts));
  const setupMs = performance.now() - t;
  const warmup: Sample[] = [];
  const samples: Sample[] = [];
  const total = job.warmup + job.reps;
  try {
    for (let r = 0; r < total; r++) {
      const { report, values } = await engine.run(program, params);
      if (split !== undefined) report.model = split.summarize(report);
      const s: Sample = {
        ms: report.totalMs,
        edges: report.edgesProcessed,
        teps: report.teps,
        supersteps: report.supersteps,
        actors: actorTimes(report),
        cpuEdgeShare: cpuEdgeShare(report),
        model: modelFromReport(report),
        ...(Object.keys(report.notes).length > 0 ? { notes: { ...report.notes } } : {}),
      };
      (r < job.warmup ? warmup : samples).push(s);
      // As a query loop done with each result would (Engine.recycle): the next run writes into it.
      if (r < total - 1) engine.recycle(values);
      send({ type: 'progress', done: r + 1, total });
    }
  } finally {
    await engine.close();
  }
  return { loadMs, setupMs, warmup, samples, peakRssBytes: maxRss(), ...(auto ? { auto } : {}), ...(sole.notice !== undefined ? { notice: sole.notice, gpus: topology.gpus.length } : {}) };
}

// graphology ships CommonJS; load it as such (its typings do not resolve under NodeNext).
const require = createRequire(import.meta.url);
interface GGraph {
  addNode(k: unknown): void;
  addDirectedEdge(a: unknown, b: unknown, attr?: object): void;
  addUndirectedEdge(a: unknown, b: unknown, attr?: object): void;
}

/** The programs graphology (and its standard libraries) can run with the same semantics: name -> what runs. */
export const GRAPHOLOGY_PROGRAMS: Record<string, string> = Object.fromEntries(
  PROGRAMS.flatMap((p) => (p.peers?.graphology !== undefined ? [[p.name, p.peers.graphology.what]] : [])),
);

async function runGraphology(job: Extract<Job, { type: 'graphology' }>): Promise<CellResult> {
  const t = performance.now();
  const graph = await readTsr(job.tsr);
  const Graph = require('graphology') as new (o: object) => GGraph;
  const G = new Graph({ type: graph.directed ? 'directed' : 'undirected', multi: false, allowSelfLoops: false });
  for (let v = 0; v < graph.numVertices; v++) G.addNode(v);
  const weighted = graph.weightType !== undefined;
  if (graph.directed) forEachEdge(graph.out, (v, u, w) => G.addDirectedEdge(v, u, weighted ? { weight: w } : undefined));
  // Undirected pages store each edge both ways; graphology stores it once.
  else forEachEdge(graph.out, (v, u, w) => void (v < u && G.addUndirectedEdge(v, u, weighted ? { weight: w } : undefined)));
  const loadMs = performance.now() - t;
  const peer = findProgram(job.program.name).peers?.graphology;
  if (peer === undefined) throw new Error(`graphology has no ${job.program.name}`);
  const kernel = peer.run(G, internalId(graph, job.source), job.program.params);
  const warmup: Sample[] = [];
  const samples: Sample[] = [];
  const total = job.warmup + job.reps;
  for (let r = 0; r < total; r++) {
    const t0 = performance.now();
    const notes = kernel();
    const s: Sample = { ms: performance.now() - t0, edges: null, teps: null, supersteps: null, actors: [], cpuEdgeShare: null, model: null, ...(notes ? { notes: { ...notes } } : {}) };
    (r < job.warmup ? warmup : samples).push(s);
    send({ type: 'progress', done: r + 1, total });
  }
  return { loadMs, setupMs: null, warmup, samples, peakRssBytes: maxRss() };
}

export interface ModelCurveResult {
  points: Array<{ strategy: string; alpha: number; speedup: number; makespanMs: number; feasible: boolean }>;
}

/** The part of src/model this harness uses; loaded at run time so the harness builds without it. */
interface ModelModule {
  modelSweep(
    graph: Graph,
    topology: Awaited<ReturnType<typeof loadTopology>>,
    algo: string,
    opts: { steps?: number; alphas?: number[]; pagesResident?: boolean; passes?: number; mode?: 'push' | 'pull'; source?: number },
  ): Promise<{ points: Array<{ strategy: string; alphaRequested: number; feasible: boolean; prediction: { alpha: number; speedup: number; makespanS: number } }> }>;
}

/** The model's predicted speed-up along alpha (src/model modelSweep: TOTEM Eq. 3 per partition). */
async function runModel(job: Extract<Job, { type: 'model' }>): Promise<ModelCurveResult> {
  const spec = '../model/index.js'; // a variable: the harness compiles even where src/model is absent
  const mod = (await import(spec).catch(() => ({}))) as Partial<ModelModule>;
  if (typeof mod.modelSweep !== 'function') throw Object.assign(new Error('this build has no performance model (src/model modelSweep)'), { user: true });
  const graph = await readTsr(job.tsr);
  const topology = await loadTopology(job.topologyFile);
  // The cells time repeated runs of one engine after a warm-up: the GPU's pages are resident by
  // then, so the curve does not charge their copy; it is predicted at the cells' own alphas too.
  const iterations = (job.program.params as { iterations?: number }).iterations;
  const sweep = await mod.modelSweep(graph, topology, job.program.name, {
    steps: job.steps,
    alphas: job.alphas,
    pagesResident: true,
    mode: job.program.params.mode,
    // The cells' source: the model predicts a top-down BFS level by level.
    ...(job.sourceInternal !== undefined ? { source: job.sourceInternal } : {}),
    // A program that walks every edge each iteration makes `iterations` passes.
    ...(iterations !== undefined && findProgram(job.program.name).profile.unit === 'pass' ? { passes: iterations } : {}),
  });
  return {
    points: sweep.points.map((p) => ({ strategy: p.strategy, alpha: p.prediction.alpha, speedup: p.prediction.speedup, makespanMs: p.prediction.makespanS * 1000, feasible: p.feasible })),
  };
}

async function main(job: Job): Promise<void> {
  try {
    if (job.type === 'prepare') await answer({ type: 'prepared', result: await prepare(job) });
    else if (job.type === 'tessera') await answer({ type: 'cell', result: await runTessera(job) });
    else if (job.type === 'model') await answer({ type: 'model', result: await runModel(job) });
    else await answer({ type: 'cell', result: await runGraphology(job) });
  } catch (e) {
    const user = isTesseraError(e) || (e as { user?: boolean }).user === true;
    await answer({ type: 'error', message: e instanceof Error ? e.message : String(e), user });
  }
  process.disconnect?.();
}

if (process.send !== undefined && process.env.TESSERA_BENCH_CHILD === '1') {
  // Ctrl-C reaches the whole process group: the sweep decides (it stops this child and keeps the finished cells).
  process.on('SIGINT', () => undefined);
  process.once('message', (job: Job) => void main(job));
}
