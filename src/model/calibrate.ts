/**
 * Calibration: the model's rates for a topology and a program (DESIGN.md "The model": r_p and c
 * are measured on the machine, cached per topology and program, or given in the topology file).
 *
 * Units:
 *   rCpu  edges per second of ONE CPU thread (a socket's r_p = threads x rCpu, so the CPU share is
 *         split among sockets by threads x rate)
 *   rGpu  edges per second of one GPU
 *   c     messages per second over one host<->device link (one message = MESSAGE_BYTES)
 * Precedence per value: the topology's `model:` section, then the cache, then a measurement
 * (the `measure` callback), then — for c only — the topology's interconnect.bandwidth divided by
 * the message size. A GPU value found nowhere is an error: the model never invents a GPU rate.
 *
 * The cache is one JSON file, $TESSERA_CACHE_DIR or $XDG_CACHE_HOME/tessera or ~/.cache/tessera,
 * `calibration.json`, keyed by topology name + a hash of its elements and this host, program and
 * mode. The CPU measurement runs the program with the Engine on the topology's sockets alone, the
 * GPU measurement with one GPU actor owning everything, each over RMAT graphs of two sizes: the
 * rate is the slope and a fixed overhead per pass the intercept (fitPassTime).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { TesseraError } from '../errors.js';
import type { Topology } from '../topology/schema.js';
import type { Mode } from '../wire/frames.js';
import type { Graph } from '../graph/types.js';
import type { EngineOptions } from '../engine/coordinator.js';
import { EMULATED_GPU_MEMORY, programProfile, type ProgramProfile } from './profile.js';
import type { ModelElement, ModelParams } from './model.js';

export type RateSource = 'topology' | 'cache' | 'measured' | 'interconnect' | 'derived';

export interface RateValue {
  value: number;
  source: RateSource;
  /** Where exactly: "topology configs/x.yaml model.rGpu", "measured on rmat:14 (cached in ...)". */
  note: string;
}

export interface ResolvedRates {
  program: string;
  mode: Mode;
  /** Edges/s per CPU thread. */
  rCpu: RateValue;
  /**
   * Fixed seconds per pass over the edges besides the edges' own time (frames, task set-up, state
   * copies): the intercept of the two-size calibration fit; 0 when the rates were given.
   */
  cpuOverheadS?: number;
  gpuOverheadS?: number;
  /** Edges/s per GPU (topologies with GPUs only). */
  rGpu?: RateValue;
  /** Messages/s per host<->device link (topologies with GPUs only). */
  c?: RateValue;
  /** Bytes/s per link for page streaming (topologies with GPUs only). */
  linkBytesPerSec?: RateValue;
  cacheFile: string;
  cacheKey: string;
}

/** What a measurement is asked for: the CPU sockets of a topology, or one of its GPUs. */
export type CalibrationElement =
  | { kind: 'cpu'; topology: Topology }
  | { kind: 'gpu'; topology: Topology; gpu: Topology['gpus'][number] };

export interface Measurement {
  /** cpu: edges/s per thread; gpu: edges/s of the device. */
  rate: number;
  /** Seconds per pass not explained by the rate (fitted over two graph sizes; see fitPassTime). */
  overheadS?: number;
  /** gpu: messages/s over its link, when measured. */
  c?: number;
  /** gpu: link bytes/s, when measured. */
  linkBytesPerSec?: number;
  /** What it was measured on (graph spec), for the cache and the printout. */
  on?: string;
}

/** Measures one element for a program and mode; undefined when it cannot (e.g. no GPU actor). */
export type MeasureFn = (element: CalibrationElement, program: string, mode: Mode) => Promise<Measurement | undefined>;

const entrySchema = z.object({
  rCpu: z.number().positive().optional(),
  rCpuOn: z.string().optional(),
  cpuOverheadS: z.number().nonnegative().optional(),
  rGpu: z.number().positive().optional(),
  gpuOverheadS: z.number().nonnegative().optional(),
  c: z.number().positive().optional(),
  linkBytesPerSec: z.number().positive().optional(),
  gpuOn: z.string().optional(),
  measuredAt: z.string().optional(),
  host: z.string().optional(),
});
export type CacheEntry = z.infer<typeof entrySchema>;
// Version 2: traversal rates are per run (profile.unit), and the calibration graphs grow until
// they fit; version-1 files are measured again.
const cacheSchema = z.object({ version: z.literal(2), entries: z.record(z.string(), entrySchema) });
type CacheFile = z.infer<typeof cacheSchema>;

/** The default cache file. */
export function defaultCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.TESSERA_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'tessera');
  return path.join(dir, 'calibration.json');
}

/** "name#hash": the hash covers the elements (threads, GPUs and their limits) and this host. */
export function topologyKey(t: Topology): string {
  const shape = {
    host: os.hostname(),
    sockets: t.sockets.map((s) => s.threads),
    gpus: t.gpus.map((g) => [g.device, g.emulated, g.memoryLimit ?? null, g.streams]),
  };
  const h = createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 12);
  return `${t.name}#${h}`;
}

export function cacheKey(t: Topology, program: string, mode: Mode): string {
  return `${topologyKey(t)}|${programProfile(program).algo}|${mode}`;
}

/** The cache's entries; a missing or unreadable file is an empty cache (it is only a cache). */
export async function readCache(file: string): Promise<CacheFile> {
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // missing or not JSON: start afresh
  }
  return { version: 2, entries: {} };
}

/** Merges `entry` into the cached entry under `key` (atomic write). */
export async function writeCacheEntry(file: string, key: string, entry: CacheEntry): Promise<void> {
  const cache = await readCache(file);
  cache.entries[key] = { ...cache.entries[key], ...entry, measuredAt: new Date().toISOString(), host: os.hostname() };
  const { default: writeFileAtomic } = await import('write-file-atomic');
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(cache, null, 2) + '\n');
  } catch (e) {
    throw new TesseraError(`cannot write the calibration cache: ${(e as Error).message}`, {
      file,
      fix: 'set TESSERA_CACHE_DIR to a writable directory',
    });
  }
}

export interface CalibrateOptions {
  /** Cache file (default: defaultCacheFile()). */
  cacheFile?: string;
  /** Measurement callback (default: measureCpu for the sockets, nothing for GPUs). */
  measure?: MeasureFn;
  /** Measure again even when the cache has values (topology values still win). */
  refresh?: boolean;
  /** Bytes per link message (default: the program's, MESSAGE_BYTES). */
  messageBytes?: number;
}

/**
 * The rates the model uses for (topology, program, mode), with where each came from; measures
 * what is missing and caches it. Throws a TesseraError when a topology with GPUs has no GPU rate or
 * link rate from any source.
 */
export async function calibrate(topology: Topology, program: string, mode: Mode, opts: CalibrateOptions = {}): Promise<ResolvedRates> {
  const profile = programProfile(program);
  const file = opts.cacheFile ?? defaultCacheFile();
  const key = cacheKey(topology, profile.algo, mode);
  const cached: CacheEntry = opts.refresh ? {} : ((await readCache(file)).entries[key] ?? {});
  const measure = opts.measure ?? defaultMeasure;
  const msgBytes = opts.messageBytes ?? profile.messageBytes;
  const fresh: CacheEntry = {};
  const where = topology.source;
  const m = topology.model;

  // GPU values first: a topology with GPUs and no GPU rate fails before any CPU measurement.
  const gpu: Pick<ResolvedRates, 'rGpu' | 'c' | 'linkBytesPerSec' | 'gpuOverheadS'> = {};

  if (topology.gpus.length > 0) {
    let gm: Measurement | undefined;
    const needGpu = m.rGpu === undefined && cached.rGpu === undefined;
    const needC = m.c === undefined && cached.c === undefined && topology.interconnect.bandwidth === undefined;
    if (needGpu || needC) {
      gm = await measure({ kind: 'gpu', topology, gpu: topology.gpus[0]! }, profile.algo, mode);
      if (gm !== undefined) {
        fresh.rGpu = gm.rate;
        if (gm.overheadS !== undefined) fresh.gpuOverheadS = gm.overheadS;
        if (gm.c !== undefined) fresh.c = gm.c;
        if (gm.linkBytesPerSec !== undefined) fresh.linkBytesPerSec = gm.linkBytesPerSec;
        if (gm.on !== undefined) fresh.gpuOn = gm.on;
      }
    }
    const cachedNote = `cached ${cached.measuredAt ?? ''} on ${cached.gpuOn ?? '?'} (${file})`;
    const measuredNote = `measured now on ${gm?.on ?? '?'} (cached in ${file})`;
    if (m.rGpu !== undefined) gpu.rGpu = { value: m.rGpu, source: 'topology', note: `topology ${where} model.rGpu (given, not measured)` };
    else if (cached.rGpu !== undefined) ((gpu.rGpu = { value: cached.rGpu, source: 'cache', note: cachedNote }), (gpu.gpuOverheadS = cached.gpuOverheadS ?? 0));
    else if (gm !== undefined && gm.rate > 0) ((gpu.rGpu = { value: gm.rate, source: 'measured', note: measuredNote }), (gpu.gpuOverheadS = gm.overheadS ?? 0));
    else
      throw new TesseraError(`topology '${topology.name}' has ${topology.gpus.length} GPU(s) but no GPU rate is known for ${profile.algo} (${mode})`, {
        file: where,
        key: 'model.rGpu',
        fix: 'add model: { rGpu: EDGES_PER_SECOND } to the topology (the calibration run through the GPU actor measured nothing); tessera does not guess GPU rates',
      });
    const bw = topology.interconnect.bandwidth;
    if (m.c !== undefined) gpu.c = { value: m.c, source: 'topology', note: `topology ${where} model.c (given, not measured)` };
    else if (cached.c !== undefined) gpu.c = { value: cached.c, source: 'cache', note: cachedNote };
    else if (gm?.c !== undefined) gpu.c = { value: gm.c, source: 'measured', note: measuredNote };
    else if (bw !== undefined)
      gpu.c = { value: bw / msgBytes, source: 'interconnect', note: `topology ${where} interconnect.bandwidth / ${msgBytes} B per message (given, not measured)` };
    else
      throw new TesseraError(`topology '${topology.name}' has GPU(s) but no host-device link rate is known`, {
        file: where,
        key: 'model.c',
        fix: 'add model: { c: MESSAGES_PER_SECOND } or interconnect: { bandwidth: 25GB/s } to the topology (the link rate is not calibrated)',
      });
    if (bw !== undefined) gpu.linkBytesPerSec = { value: bw, source: 'topology', note: `topology ${where} interconnect.bandwidth` };
    else if (cached.linkBytesPerSec !== undefined) gpu.linkBytesPerSec = { value: cached.linkBytesPerSec, source: 'cache', note: cachedNote };
    else if (gm?.linkBytesPerSec !== undefined) gpu.linkBytesPerSec = { value: gm.linkBytesPerSec, source: 'measured', note: measuredNote };
    else gpu.linkBytesPerSec = { value: gpu.c.value * msgBytes, source: 'derived', note: `c x ${msgBytes} B per message` };
  }
  let rCpu: RateValue;
  let cpuOverheadS = 0;
  if (m.rCpu !== undefined) rCpu = { value: m.rCpu, source: 'topology', note: `topology ${where} model.rCpu` };
  else if (cached.rCpu !== undefined) {
    rCpu = { value: cached.rCpu, source: 'cache', note: `cached ${cached.measuredAt ?? ''} on ${cached.rCpuOn ?? '?'} (${file})` };
    cpuOverheadS = cached.cpuOverheadS ?? 0;
  } else {
    const r = await measure({ kind: 'cpu', topology }, profile.algo, mode);
    if (r === undefined || !(r.rate > 0))
      throw new TesseraError(`no CPU rate for ${profile.algo} (${mode}) on topology '${topology.name}'`, {
        file: where,
        key: 'model.rCpu',
        fix: 'add model: { rCpu: EDGES_PER_SECOND_PER_THREAD } to the topology, or allow the CPU calibration run',
      });
    rCpu = { value: r.rate, source: 'measured', note: `measured now on ${r.on ?? '?'} (cached in ${file})` };
    fresh.rCpu = r.rate;
    cpuOverheadS = r.overheadS ?? 0;
    if (r.overheadS !== undefined) fresh.cpuOverheadS = r.overheadS;
    if (r.on !== undefined) fresh.rCpuOn = r.on;
  }
  const out: ResolvedRates = { program: profile.algo, mode, rCpu, cpuOverheadS, ...gpu, cacheFile: file, cacheKey: key };
  if (Object.keys(fresh).length > 0) await writeCacheEntry(file, key, fresh);
  return out;
}

/** The default measurement: the CPU sockets with measureCpu, a GPU with measureGpu. */
export const defaultMeasure: MeasureFn = async (el, program, mode) =>
  el.kind === 'cpu' ? measureCpu(el.topology, program, mode) : measureGpu(el.topology, el.gpu, program, mode);

/**
 * Seconds per pass over a graph's edges as a line through two measurements, t = t0 + |E| / r
 * (a superstep's fixed costs — frames, task set-up, state copies of small arrays, kernel launches
 * — dominate small graphs; a rate from one small graph underestimates a fast element several
 * times). Points are (edges per pass, seconds per pass). When the slope is not positive (noise,
 * or sizes too close) the larger graph's plain rate is kept with no overhead.
 */
export function fitPassTime(small: { edges: number; seconds: number }, large: { edges: number; seconds: number }): { rate: number; overheadS: number } {
  const dE = large.edges - small.edges;
  const dT = large.seconds - small.seconds;
  if (dE > 0 && dT > 0) {
    const rate = dE / dT;
    const overheadS = small.seconds - small.edges / rate;
    if (overheadS >= 0) return { rate, overheadS };
  }
  return { rate: large.edges / large.seconds, overheadS: 0 };
}

/**
 * Edges per second of one GPU actor for a program and mode: the program runs with that GPU owning
 * every vertex (gpuShare 1; one socket thread coordinates) over RMAT graphs of two sizes; the GPU
 * actor's busy time (state and page copies included: what a superstep costs it) per pass, median
 * of the repetitions, is fitted as overhead + |E| / rate (fitPassTime). With opts.graph, that one
 * graph and no overhead. The link rate c is not measured here: the topology's
 * interconnect.bandwidth or model.c supplies it.
 */
export async function measureGpu(topology: Topology, gpu: Topology['gpus'][number], program: string, mode: Mode, opts: CpuMeasureOptions = {}): Promise<Measurement> {
  const profile = programProfile(program);
  const gpuOnly: Topology = { ...topology, sockets: [{ id: 0, threads: 1 }], gpus: [gpu] };
  const at = (graph: Graph) => medianPassSeconds(graph, gpuOnly, { forceMode: mode, gpuShare: 1 }, profile, opts.repetitions ?? 3, 1);
  // The emulated device runs kernels on host threads: a smaller second graph keeps it quick.
  const m = await measureTwoSizes(profile, opts, gpu.emulated ? 16 : 18, at);
  return { ...m, on: `${m.on} on ${gpu.emulated ? 'emulated ' : ''}GPU ${gpu.device}` };
}

export interface CpuMeasureOptions {
  /** Generator spec of the one calibration graph (default: rmat:14 and a larger RMAT, fitted). */
  graph?: string;
  /** Measured repetitions after one warm-up run (median kept); default 3. */
  repetitions?: number;
}

/**
 * Whether two calibration points are too close to fit: the larger graph's pass must cost at least
 * twice the smaller one's, or the slope is mostly noise around fixed costs (16 threads finish a
 * PageRank pass over rmat:17's 2 M edges in about the time of rmat:14's: the rate came out 18x too
 * high on an H100 host). Then calibrate on a larger graph.
 */
export function tooCloseToFit(small: { seconds: number }, large: { seconds: number }): boolean {
  return !(large.seconds >= 2 * small.seconds);
}

/** Largest RMAT scale a calibration grows to (2^22 x 16 edges; a few seconds to generate). */
const MAX_CALIBRATION_SCALE = 22;

/**
 * The rate (and overhead) from opts.graph alone, or from rmat:14 and rmat:`largeScale` fitted,
 * growing the larger graph by 4x (scale + 2) while the two are too close to fit (tooCloseToFit).
 */
async function measureTwoSizes(
  profile: ProgramProfile,
  opts: CpuMeasureOptions,
  largeScale: number,
  secondsPerPass: (graph: Graph) => Promise<number | undefined>,
): Promise<Measurement & { on: string }> {
  const { loadGraph } = await import('../graph/load.js');
  const suffix = profile.algo === 'sssp' ? ':weighted' : '';
  const point = async (spec: string): Promise<{ edges: number; seconds: number }> => {
    const { graph } = await loadGraph(spec);
    const seconds = await secondsPerPass(graph);
    if (seconds === undefined || !(seconds > 0)) throw new TesseraError(`the calibration run of ${profile.algo} on ${spec} processed no edges`, { fix: 'give the rates in the topology (model: rCpu, rGpu)' });
    return { edges: graph.numEdges, seconds };
  };
  if (opts.graph !== undefined) {
    const p = await point(opts.graph);
    return { rate: p.edges / p.seconds, on: opts.graph };
  }
  const small = `rmat:14${suffix}`;
  const s = await point(small);
  let scale = largeScale;
  let l = await point(`rmat:${scale}${suffix}`);
  while (tooCloseToFit(s, l) && scale + 2 <= MAX_CALIBRATION_SCALE) {
    scale += 2;
    l = await point(`rmat:${scale}${suffix}`);
  }
  const fit = fitPassTime(s, l);
  return { rate: fit.rate, overheadS: fit.overheadS, on: `${small} + rmat:${scale}${suffix}` };
}

/**
 * Edges per second per CPU thread for a program and mode (and the overhead per pass, in seconds
 * of the whole topology's sockets): the program runs with the Engine on the topology's sockets
 * (GPUs left out), the mode forced, over two RMAT sizes; busy thread-seconds per pass
 * (computeMs x threads) are fitted as overhead + |E| / rate (fitPassTime).
 */
export async function measureCpu(topology: Topology, program: string, mode: Mode, opts: CpuMeasureOptions = {}): Promise<Measurement> {
  const profile = programProfile(program);
  const cpuOnly: Topology = { ...topology, gpus: [] };
  const threads = cpuOnly.sockets.reduce((a, s) => a + s.threads, 0);
  const m = await measureTwoSizes(profile, opts, 17, (graph) => cpuThreadSecondsPerPass(graph, cpuOnly, profile, mode, opts.repetitions ?? 3));
  // The intercept is in thread-seconds; the sockets' threads pay it side by side.
  return m.overheadS !== undefined ? { ...m, overheadS: m.overheadS / threads } : m;
}

/** Edges per second per CPU thread over a given graph (one size, no overhead). */
export async function measureCpuOn(graph: Graph, topology: Topology, profile: ProgramProfile, mode: Mode, repetitions = 3): Promise<number> {
  const seconds = await cpuThreadSecondsPerPass(graph, { ...topology, gpus: [] }, profile, mode, repetitions);
  if (seconds === undefined) throw new TesseraError(`the calibration run of ${profile.algo} processed no edges`, { fix: 'give model.rCpu in the topology' });
  return graph.numEdges / seconds;
}

function cpuThreadSecondsPerPass(graph: Graph, cpuOnly: Topology, profile: ProgramProfile, mode: Mode, repetitions: number): Promise<number | undefined> {
  const threads = cpuOnly.sockets.reduce((a, s) => a + s.threads, 0);
  return medianPassSeconds(graph, cpuOnly, { forceMode: mode }, profile, repetitions, threads);
}

/**
 * Runs the program 1 + `repetitions` times on one Engine (the first warms the JIT, the pools and
 * the device) and returns the median wall seconds x `weight` (threads, for per-thread CPU rates)
 * per pass over the graph's edges (edges processed / |E|; a whole run for profile.unit 'run'). Wall time, not the actors' busy time:
 * the coordinator's share of a superstep (frames, folding another memory's results) is part of
 * what a run costs. Undefined when no run processed any edge.
 */
async function medianPassSeconds(graph: Graph, topology: Topology, engineOpts: EngineOptions, profile: ProgramProfile, repetitions: number, weight: number): Promise<number | undefined> {
  const { Engine } = await import('../engine/coordinator.js');
  const { algorithm } = await import('../programs/index.js');
  const entry = algorithm(profile.algo);
  // Internal ids 0 and 1 are the highest-degree vertices: traversals from them reach the graph's
  // bulk (a sampled source may be isolated on RMAT and process nothing).
  const source = graph.ids.toOriginal[0]!;
  const sourceList = graph.numVertices > 1 ? [source, graph.ids.toOriginal[1]!] : [source];
  const params = entry.params(graph, { source, iterations: 5, ...(profile.algo === 'bc' ? { sourceList } : {}) }, {});
  const engine = await Engine.create(graph, topology, { ...engineOpts, steal: 'off' });
  const perPass: number[] = [];
  try {
    for (let r = 0; r <= repetitions; r++) {
      const { report } = await engine.run(entry.program, params as never);
      const edges = report.edgesProcessed;
      const seconds = (report.totalMs / 1000) * weight;
      if (r > 0 && seconds > 0 && edges > 0) perPass.push(profile.unit === 'run' ? seconds : seconds / (edges / graph.numEdges));
    }
  } finally {
    await engine.close();
  }
  if (perPass.length === 0) return undefined;
  perPass.sort((a, b) => a - b);
  return perPass[perPass.length >> 1]!;
}

/**
 * The model's elements and parameters for a topology, its rates and a graph: sockets with
 * threads x rCpu, GPUs with rGpu and their memory (memoryLimit; 2 GiB for an emulated GPU, as the
 * native controller; unlimited for a real GPU without one), vertex state bytes per GPU.
 */
export function modelParamsFor(topology: Topology, rates: ResolvedRates, graph: Graph, opts: { passes?: number } = {}): ModelParams {
  const profile = programProfile(rates.program);
  const cpuOverheadS = rates.cpuOverheadS ?? 0;
  const elements: ModelElement[] = topology.sockets.map((s) => ({ name: `socket${s.id}`, kind: 'cpu', rate: s.threads * rates.rCpu.value, threads: s.threads, overheadS: cpuOverheadS }));
  for (const g of topology.gpus) {
    const memoryBytes = g.memoryLimit ?? (g.emulated ? EMULATED_GPU_MEMORY : undefined);
    elements.push({ name: `gpu${g.device}`, kind: 'gpu', rate: rates.rGpu!.value, overheadS: rates.gpuOverheadS ?? 0, ...(memoryBytes !== undefined ? { memoryBytes } : {}) });
  }
  const hasGpu = topology.gpus.length > 0;
  return {
    elements,
    // No GPU: no link (nothing crosses one; predict charges nothing to it).
    c: hasGpu ? rates.c!.value : Infinity,
    messageBytes: profile.messageBytes,
    ...(hasGpu ? { linkBytesPerSec: rates.linkBytesPerSec!.value } : {}),
    gpuStateBytes: graph.numVertices * profile.stateBytesPerVertex,
    passes: opts.passes ?? profile.passes,
  };
}
