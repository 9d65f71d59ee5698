/**
 * The benchmark result schema (`results.json`, schema `tessera-bench/1`). Written by the sweep
 * after every finished cell, read back by `tessera bench --replot`; validated with zod both ways
 * so a hand-edited or truncated file fails with a clear message instead of a broken plot.
 *
 * A cell is one (graph, engine, topology, program, alpha) combination. Every raw sample is kept;
 * the summary (median, min, max) is derived from them. Time is compute time of one run; loading
 * the graph is reported apart (`loadMs`), as is engine set-up (`setupMs`).
 */
import { z } from 'zod';

export const RESULT_SCHEMA = 'tessera-bench/1';

const stat = z.object({ median: z.number(), min: z.number(), max: z.number() }).strict();
export type Stat = z.infer<typeof stat>;

/** Busy time of one actor over one run (sum of its superstep compute times). */
const actorTime = z
  .object({
    actor: z.string(),
    kind: z.enum(['cpu', 'gpu']),
    computeMs: z.number(),
    edges: z.number(),
    tasks: z.number(),
  })
  .strict();
export type ActorTime = z.infer<typeof actorTime>;

/**
 * A model prediction, taken from the run report when the engine reports one (DESIGN.md "The
 * model": every run reports the prediction beside the measurement). Null when there is none.
 */
const modelPrediction = z
  .object({
    predictedMs: z.number().nullable(),
    /** TOTEM alpha: share of edges on the CPU, as the engine applied it. */
    alpha: z.number().nullable(),
    /** TOTEM beta: share of edges whose messages cross processing elements. */
    beta: z.number().nullable(),
    source: z.string(),
  })
  .strict();
export type ModelPrediction = z.infer<typeof modelPrediction>;

const sample = z
  .object({
    ms: z.number(),
    /** Edges the engine processed (tessera: from its report; peers: tessera's count, see tepsBasis). */
    edges: z.number().nullable(),
    teps: z.number().nullable(),
    supersteps: z.number().nullable(),
    actors: z.array(actorTime),
    /** Measured alpha: the share of processed edges the CPU actors handled (null without per-actor data). */
    cpuEdgeShare: z.number().nullable(),
    model: modelPrediction.nullable(),
    /** The run's report notes (tessera), or what the peer's call returned (graphology's louvain: its modularity). */
    notes: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
  })
  .strict();
export type Sample = z.infer<typeof sample>;

export const ENGINES = ['tessera', 'graphology', 'gapbs'] as const;
export type EngineName = (typeof ENGINES)[number];

const cell = z
  .object({
    id: z.string(),
    graph: z.string(),
    engine: z.enum(ENGINES),
    /** Topology name (tessera), or the peer's thread description. */
    topology: z.string(),
    topologyFile: z.string().nullable(),
    threads: z.number().int().positive(),
    gpus: z.number().int().nonnegative(),
    program: z.string(),
    params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
    /** Requested CPU share of edges (alpha sweep), 'auto' for the model's choice, or null for the engine's default. */
    alpha: z.union([z.number(), z.literal('auto')]).nullable(),
    status: z.enum(['ok', 'skipped', 'failed']),
    note: z.string().nullable(),
    loadMs: z.number().nullable(),
    setupMs: z.number().nullable(),
    warmup: z.array(sample),
    samples: z.array(sample),
    time: stat.nullable(),
    teps: stat.nullable(),
    /** 'engine': edges the engine reported; 'tessera-edges': tessera's count on the same graph and program. */
    tepsBasis: z.enum(['engine', 'tessera-edges']).nullable(),
    peakRssBytes: z.number().nullable(),
    rssMethod: z.string().nullable(),
    finishedAt: z.string(),
  })
  .strict();
export type Cell = z.infer<typeof cell>;

const graph = z
  .object({
    id: z.string(),
    spec: z.string(),
    kind: z.enum(['rmat', 'uniform', 'file']),
    scale: z.number().int().nullable(),
    vertices: z.number().int(),
    edges: z.number().int(),
    directed: z.boolean(),
    weighted: z.boolean(),
    /** Generate (or read) and build, in its own process. */
    buildMs: z.number(),
    buildPeakRssBytes: z.number().nullable(),
    /** Original id of the source vertex used by bfs/sssp (configured, .properties, else the highest-degree vertex). */
    source: z.number().int(),
  })
  .strict();
export type GraphInfo = z.infer<typeof graph>;

const machine = z
  .object({
    cpuModel: z.string(),
    cores: z.number().int(),
    memoryBytes: z.number(),
    gpus: z.array(z.string()),
    node: z.string(),
    platform: z.string(),
    tesseraRevision: z.string().nullable(),
    tesseraDirty: z.boolean().nullable(),
  })
  .strict();
export type MachineInfo = z.infer<typeof machine>;

const peerStatus = z
  .object({ name: z.string(), status: z.enum(['used', 'absent', 'disabled']), path: z.string().nullable(), note: z.string().nullable() })
  .strict();
export type PeerStatus = z.infer<typeof peerStatus>;

/**
 * The performance model's predicted speed-up over the host-only run along alpha, for one graph,
 * CPU+GPU topology and program (src/model modelSweep); 'unavailable' with the model's reason
 * (e.g. no GPU rate known) when it cannot predict. Only computed when the config sweeps alphas.
 */
const modelCurve = z
  .object({
    graph: z.string(),
    topology: z.string(),
    program: z.string(),
    status: z.enum(['ok', 'unavailable']),
    note: z.string().nullable(),
    points: z.array(z.object({ strategy: z.string(), alpha: z.number(), speedup: z.number(), makespanMs: z.number(), feasible: z.boolean() }).strict()),
  })
  .strict();
export type ModelCurve = z.infer<typeof modelCurve>;

export const resultsSchema = z
  .object({
    schema: z.literal(RESULT_SCHEMA),
    status: z.enum(['running', 'complete', 'interrupted']),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    config: z.object({ file: z.string(), name: z.string(), repetitions: z.number().int(), warmup: z.number().int(), alphas: z.array(z.union([z.number(), z.literal('auto')])), steal: z.enum(['auto', 'off', 'always']).optional(), partition: z.enum(['high', 'low', 'rand']).optional(), multiGpu: z.enum(['p', 's', 'auto']).optional() }).strict(),
    machine,
    peers: z.array(peerStatus),
    graphs: z.array(graph),
    cells: z.array(cell),
    modelCurves: z.array(modelCurve),
  })
  .strict();
export type BenchResults = z.infer<typeof resultsSchema>;

/** Median (mean of the two middle values for an even count), min and max; null when empty. */
export function summarize(xs: readonly number[]): Stat | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]! };
}
