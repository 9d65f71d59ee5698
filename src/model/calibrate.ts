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
 * c of a real GPU is measured (measureLink: page-locked copies both ways, the slower direction);
 * an emulated GPU's copies are host memcpy, so its link is the one the topology declares.
 *
 * The cache (cache.ts) is one JSON file, $TESSERA_CACHE_DIR or $XDG_CACHE_HOME/tessera or ~/.cache/tessera,
 * `calibration.json`: the GPU and link values keyed by topology name + a hash of its elements and
 * this host, program and mode; the CPU values by a hash of the sockets and this host (cpuCacheKey:
 * topologies with the same sockets share them), program and mode. The CPU measurement runs the program with the Engine on the topology's sockets alone, the
 * GPU measurement with one GPU actor owning everything, each over RMAT graphs of two sizes: the
 * rate is the slope and a fixed overhead per pass the intercept (fitPassTime), from the supersteps'
 * times with the first superstep's one-time excess taken out (runTiming, run-timing.ts). What a run pays once is
 * measured beside the rate, per vertex of the larger graph: the time outside supersteps (CPU
 * calibration: every configuration pays it), a GPU's first-superstep excess (its state replica
 * copied in, fresh host arrays page-locked) and the rate of its first, pageable page copy.
 * (Timing whole runs instead put those into a GPU's rate: 7.7 G edges/s for PageRank on an H100
 * whose steady supersteps ran at 50 G.)
 */
import { isTesseraError, TesseraError } from '../errors.js';
import type { Topology } from '../topology/schema.js';
import type { Mode } from '../wire/frames.js';
import type { Graph } from '../graph/types.js';
import { cacheKey, cpuCacheKey, defaultCacheFile, ENGINE_COSTS, readCache, writeCacheEntry, type CacheEntry } from './cache.js';
import { EMULATED_GPU_MEMORY, programProfile, type ProgramProfile } from './profile.js';
import type { ModelElement, ModelParams } from './model.js';
import { middle, runTiming, type RunTiming } from './run-timing.js';

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
  /** A graph read from disk page by page: its disk's read rate (model/disk.ts). */
  diskBytesPerSec?: RateValue;
  /**
   * Fixed seconds per pass over the edges besides the edges' own time (frames, task set-up, state
   * copies): the intercept of the two-size calibration fit; 0 when the rates were given.
   */
  cpuOverheadS?: number;
  gpuOverheadS?: number;
  /**
   * Seconds per owned vertex per pass (profile.vertexTerm programs; fitted from a third graph):
   * the CPU's per thread (a socket's is this / threads), a GPU's; 0 or absent: no such term.
   */
  cpuVertexS?: number;
  gpuVertexS?: number;
  /** Seconds per vertex of every run outside supersteps (measured with the CPU rate; 0 when given). */
  setupSPerVertex?: number;
  /** The CPU sockets' first superstep beyond a steady one, per vertex, over the whole graph (first touch of fresh arrays). */
  cpuStartSPerVertex?: number;
  /** A GPU's one-time start per vertex (first superstep beyond a steady one); undefined: state bytes / link. */
  gpuStartSPerVertex?: number;
  /** Bytes per second of a GPU's one-time page copy; undefined: the link's. */
  pageLoadBytesPerSec?: number;
  /** Device bytes a GPU held per vertex beside its page cache (state and scratch), measured; undefined: the profile's stateBytesPerVertex. */
  gpuStateBytesPerVertex?: number;
  /** The coordinator's share (0..1) of the superstep time inside rCpu / rGpu (measured with them). */
  cpuCoordShare?: number;
  gpuCoordShare?: number;
  /** Edges/s per GPU (topologies with GPUs only). */
  rGpu?: RateValue;
  /** Messages/s per host<->device link (topologies with GPUs only). */
  c?: RateValue;
  /** Bytes/s per link for page streaming (topologies with GPUs only). */
  linkBytesPerSec?: RateValue;
  /** Bytes/s between two GPUs device to device (topologies with two real GPUs or more, measured). */
  peerBytesPerSec?: RateValue;
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
  /** Seconds per vertex per pass (cpu: thread-seconds), for profile.vertexTerm programs (fitVertexTerm). */
  vertexS?: number;
  /** cpu: seconds per vertex of a run outside supersteps (the larger calibration graph's). */
  setupSPerVertex?: number;
  /** Seconds per vertex of the first superstep beyond a steady one (cpu: the sockets together). */
  startSPerVertex?: number;
  /** gpu: bytes per second of the first run's page copies (pages not yet resident). */
  pageBytesPerSec?: number;
  /** gpu: device bytes per vertex it held beside its page cache after the runs (state and scratch). */
  stateBytesPerVertex?: number;
  /** The coordinator's share of the superstep time inside the rate (RunTiming.coordShare, the larger graph's). */
  coordShare?: number;
  /** gpu: messages/s over its link, when measured. */
  c?: number;
  /** gpu: link bytes/s, when measured. */
  linkBytesPerSec?: number;
  /** gpu: bytes/s copied from the topology's second GPU to its first, device to device, when measured. */
  peerBytesPerSec?: number;
  /** What it was measured on (graph spec), for the cache and the printout. */
  on?: string;
  /** Vertices of the largest graph it was measured on (a rate holds for graphs up to a few times larger). */
  vertices?: number;
}

/** What the caller needs of a measurement besides the element. */
export interface MeasureNeed {
  /** Measure on a graph of at least about this many vertices (the graph the rates are for). */
  minVertices?: number;
  /** Told of each calibration graph as its runs start and end (a real GPU's calibration takes minutes). */
  progress?: (line: string) => void;
}

/** Measures one element for a program and mode; undefined when it cannot (e.g. no GPU actor). */
export type MeasureFn = (element: CalibrationElement, program: string, mode: Mode, need?: MeasureNeed) => Promise<Measurement | undefined>;

export interface CalibrateOptions {
  /** Cache file (default: defaultCacheFile()). */
  cacheFile?: string;
  /** Measurement callback (default: measureCpu for the sockets, nothing for GPUs). */
  measure?: MeasureFn;
  /** Measure again even when the cache has values (topology values still win). */
  refresh?: boolean;
  /** Bytes per link message (default: the program's, MESSAGE_BYTES). */
  messageBytes?: number;
  /**
   * Vertices of the graph the rates are for. A rate measured on a graph much smaller than it is
   * measured again on one of about its size (up to 2^24 vertices): a CPU whose vertex state fits in
   * its last-level cache at the calibration size and not at the graph's runs slower on the graph
   * (H100 host, top-down BFS: 390 M edges/s on RMAT 21, 232 M on RMAT 24).
   */
  graphVertices?: number;
  /** Told of each calibration graph measured (MeasureNeed.progress). */
  progress?: (line: string) => void;
}

/** Largest RMAT scale a calibration matches a graph's size with (2^24 vertices, 268 M edges). */
const MAX_MATCHED_SCALE = 24;

/**
 * Vertices of the largest calibration graph behind a cached rate: recorded, or read from the
 * "rmat:14 + rmat:21" note of entries that predate the record.
 */
function calibratedVertices(recorded: number | undefined, on: string | undefined): number {
  if (recorded !== undefined) return recorded;
  const scales = [...(on ?? '').matchAll(/rmat:(\d+)/g)].map((m) => Number(m[1]));
  return scales.length > 0 ? 2 ** Math.max(...scales) : 0;
}

/** Whether a rate measured up to `vertices` is too small a sample for a graph of `target` vertices. */
export function calibratedTooSmall(vertices: number, target: number | undefined): boolean {
  return target !== undefined && vertices * 4 < target && vertices < 2 ** MAX_MATCHED_SCALE;
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
  const cpuKey = cpuCacheKey(topology, profile.algo, mode);
  const entries = opts.refresh ? {} : (await readCache(file)).entries;
  // What another build measured is not this build's cost (ENGINE_COSTS); topology values still win.
  const current = (e: CacheEntry | undefined): CacheEntry => (e !== undefined && e.engine === ENGINE_COSTS ? e : {});
  const cached: CacheEntry = current(entries[key]);
  // Older caches kept the CPU values under the topology's key.
  const cachedCpu: CacheEntry = current(entries[cpuKey] ?? (cached.rCpu !== undefined ? cached : undefined));
  const freshCpu: CacheEntry = {};
  const measure = opts.measure ?? defaultMeasure;
  const msgBytes = opts.messageBytes ?? profile.messageBytes;
  const fresh: CacheEntry = {};
  const where = topology.source;
  const m = topology.model;

  // GPU values first: a topology with GPUs and no GPU rate fails before any CPU measurement.
  const gpu: Pick<ResolvedRates, 'rGpu' | 'c' | 'linkBytesPerSec' | 'peerBytesPerSec' | 'gpuOverheadS' | 'gpuVertexS' | 'gpuStartSPerVertex' | 'pageLoadBytesPerSec' | 'gpuStateBytesPerVertex'> = {};

  if (topology.gpus.length > 0) {
    let gm: Measurement | undefined;
    const small = calibratedTooSmall(calibratedVertices(cached.gpuVertices, cached.gpuOn), opts.graphVertices);
    if (cached.rGpu !== undefined && small) for (const k of GPU_MEASURED) delete cached[k];
    const needGpu = m.rGpu === undefined && cached.rGpu === undefined;
    // A real GPU's link is measured unless model.c gives it (interconnect.bandwidth is what the
    // hardware promises, the fallback); an emulated one has only the declared bandwidth.
    const emulated = topology.gpus[0]!.emulated;
    const needC = m.c === undefined && cached.c === undefined && (!emulated || topology.interconnect.bandwidth === undefined);
    if (needGpu || needC) {
      gm = await measure({ kind: 'gpu', topology, gpu: topology.gpus[0]! }, profile.algo, mode, { minVertices: opts.graphVertices, progress: opts.progress });
      if (gm !== undefined) Object.assign(fresh, entryOf(gm, GPU_ENTRY));
    }
    const cachedNote = `cached ${cached.measuredAt ?? ''} on ${cached.gpuOn ?? '?'} (${file})`;
    const measuredNote = `measured now on ${gm?.on ?? '?'} (cached in ${file})`;
    if (m.rGpu !== undefined) gpu.rGpu = { value: m.rGpu, source: 'topology', note: `topology ${where} model.rGpu (given, not measured)` };
    else if (cached.rGpu !== undefined) Object.assign(gpu, { rGpu: { value: cached.rGpu, source: 'cache', note: cachedNote } }, gpuOnceOf(cached));
    else if (gm !== undefined && gm.rate > 0) Object.assign(gpu, { rGpu: { value: gm.rate, source: 'measured', note: measuredNote } }, gpuOnceOf(fresh));
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
        fix: 'add model: { c: MESSAGES_PER_SECOND } or interconnect: { bandwidth: 25GB/s } to the topology (an emulated GPU has no link to measure)',
      });
    if (cached.linkBytesPerSec !== undefined) gpu.linkBytesPerSec = { value: cached.linkBytesPerSec, source: 'cache', note: cachedNote };
    else if (gm?.linkBytesPerSec !== undefined) gpu.linkBytesPerSec = { value: gm.linkBytesPerSec, source: 'measured', note: measuredNote };
    else if (bw !== undefined) gpu.linkBytesPerSec = { value: bw, source: 'topology', note: `topology ${where} interconnect.bandwidth` };
    else gpu.linkBytesPerSec = { value: gpu.c.value * msgBytes, source: 'derived', note: `c x ${msgBytes} B per message` };
    if (cached.peerBytesPerSec !== undefined) gpu.peerBytesPerSec = { value: cached.peerBytesPerSec, source: 'cache', note: cachedNote };
    else if (gm?.peerBytesPerSec !== undefined) gpu.peerBytesPerSec = { value: gm.peerBytesPerSec, source: 'measured', note: measuredNote };
  }
  let rCpu: RateValue;
  // Given rates come with no overhead or one-time costs.
  let cpu = cpuOnceOf({});
  if (m.rCpu !== undefined) rCpu = { value: m.rCpu, source: 'topology', note: `topology ${where} model.rCpu` };
  else if (cachedCpu.rCpu !== undefined && !calibratedTooSmall(calibratedVertices(cachedCpu.rCpuVertices, cachedCpu.rCpuOn), opts.graphVertices)) {
    rCpu = { value: cachedCpu.rCpu, source: 'cache', note: `cached ${cachedCpu.measuredAt ?? ''} on ${cachedCpu.rCpuOn ?? '?'} (${file})` };
    cpu = cpuOnceOf(cachedCpu);
  } else {
    const r = await measure({ kind: 'cpu', topology }, profile.algo, mode, { minVertices: opts.graphVertices, progress: opts.progress });
    if (r === undefined || !(r.rate > 0))
      throw new TesseraError(`no CPU rate for ${profile.algo} (${mode}) on topology '${topology.name}'`, {
        file: where,
        key: 'model.rCpu',
        fix: 'add model: { rCpu: EDGES_PER_SECOND_PER_THREAD } to the topology, or allow the CPU calibration run',
      });
    rCpu = { value: r.rate, source: 'measured', note: `measured now on ${r.on ?? '?'} (cached in ${file})` };
    Object.assign(freshCpu, entryOf(r, CPU_ENTRY));
    cpu = cpuOnceOf(freshCpu);
  }
  const out: ResolvedRates = { program: profile.algo, mode, rCpu, ...cpu, ...gpu, cacheFile: file, cacheKey: key };
  if (Object.keys(fresh).length > 0) await writeCacheEntry(file, key, fresh);
  if (Object.keys(freshCpu).length > 0) await writeCacheEntry(file, cpuKey, freshCpu);
  return out;
}

/** Where a measurement's fields go in a cache entry: the CPU's, and a GPU's (with its link). */
const CPU_ENTRY = {
  rate: 'rCpu',
  overheadS: 'cpuOverheadS',
  vertexS: 'cpuVertexS',
  setupSPerVertex: 'cpuSetupSPerVertex',
  startSPerVertex: 'cpuStartSPerVertex',
  coordShare: 'cpuCoordShare',
  on: 'rCpuOn',
  vertices: 'rCpuVertices',
} as const satisfies Partial<Record<keyof Measurement, keyof CacheEntry>>;
const GPU_ENTRY = {
  rate: 'rGpu',
  overheadS: 'gpuOverheadS',
  vertexS: 'gpuVertexS',
  startSPerVertex: 'gpuStartSPerVertex',
  coordShare: 'gpuCoordShare',
  pageBytesPerSec: 'gpuPageBytesPerSec',
  stateBytesPerVertex: 'gpuStateBytesPerVertex',
  c: 'c',
  linkBytesPerSec: 'linkBytesPerSec',
  peerBytesPerSec: 'peerBytesPerSec',
  on: 'gpuOn',
  vertices: 'gpuVertices',
} as const satisfies Partial<Record<keyof Measurement, keyof CacheEntry>>;

/** The cache entry fields of measurement `m` that it has, renamed by `fields`. */
function entryOf(m: Measurement, fields: Partial<Record<keyof Measurement, keyof CacheEntry>>): CacheEntry {
  const e: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(fields)) {
    const v = m[from as keyof Measurement];
    if (v !== undefined) e[to] = v;
  }
  return e as CacheEntry;
}

/** What a GPU measurement writes into a cache entry (dropped together when it is measured again). */
const GPU_MEASURED = ['rGpu', 'gpuOverheadS', 'gpuVertexS', 'gpuStartSPerVertex', 'gpuCoordShare', 'gpuPageBytesPerSec', 'gpuStateBytesPerVertex', 'gpuOn', 'gpuVertices'] as const;

/** A cache entry's (or a fresh measurement's) CPU overhead and one-time costs, as resolved rates. */
function cpuOnceOf(e: CacheEntry): Pick<ResolvedRates, 'cpuOverheadS' | 'cpuVertexS' | 'setupSPerVertex' | 'cpuStartSPerVertex' | 'cpuCoordShare'> {
  return {
    cpuOverheadS: e.cpuOverheadS ?? 0,
    cpuVertexS: e.cpuVertexS ?? 0,
    setupSPerVertex: e.cpuSetupSPerVertex ?? 0,
    cpuStartSPerVertex: e.cpuStartSPerVertex ?? 0,
    ...(e.cpuCoordShare !== undefined ? { cpuCoordShare: e.cpuCoordShare } : {}),
  };
}

/** The same for a GPU (start and page-copy rate only where measured: the model falls back to the link). */
function gpuOnceOf(e: CacheEntry): Pick<ResolvedRates, 'gpuOverheadS' | 'gpuVertexS' | 'gpuStartSPerVertex' | 'pageLoadBytesPerSec' | 'gpuStateBytesPerVertex' | 'gpuCoordShare'> {
  return {
    gpuOverheadS: e.gpuOverheadS ?? 0,
    gpuVertexS: e.gpuVertexS ?? 0,
    ...(e.gpuCoordShare !== undefined ? { gpuCoordShare: e.gpuCoordShare } : {}),
    ...(e.gpuStartSPerVertex !== undefined ? { gpuStartSPerVertex: e.gpuStartSPerVertex } : {}),
    ...(e.gpuPageBytesPerSec !== undefined ? { pageLoadBytesPerSec: e.gpuPageBytesPerSec } : {}),
    ...(e.gpuStateBytesPerVertex !== undefined ? { gpuStateBytesPerVertex: e.gpuStateBytesPerVertex } : {}),
  };
}

/** The default measurement: the CPU sockets with measureCpu, a GPU with measureGpu. */
export const defaultMeasure: MeasureFn = async (el, program, mode, need) =>
  el.kind === 'cpu' ? measureCpu(el.topology, program, mode, need) : measureGpu(el.topology, el.gpu, program, mode, need);

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
 * every vertex (gpuShare 1; one socket thread coordinates) over RMAT graphs of two sizes; the
 * supersteps' time per pass (the first superstep's one-time excess taken out; runTiming), median
 * of the repetitions, is fitted as overhead + |E| / rate (fitPassTime). The larger graph also gives
 * the GPU's start per vertex and its page-copy rate. With opts.graph, that one graph and no
 * overhead. The link rate c is not measured here: the topology's interconnect.bandwidth or model.c
 * supplies it.
 */
export async function measureGpu(topology: Topology, gpu: Topology['gpus'][number], program: string, mode: Mode, opts: CpuMeasureOptions = {}): Promise<Measurement> {
  const profile = programProfile(program);
  const gpuOnly: Topology = { ...topology, sockets: [{ id: 0, threads: 1 }], gpus: [gpu] };
  const at = (graph: Graph) =>
    runTiming(graph, gpuOnly, { forceMode: mode, gpuShare: 1 }, profile, opts.repetitions ?? 3, 1).catch((e: unknown) => {
      throw calibrationMemory(e, topology, gpu, graph, profile.algo) ?? e;
    });
  // The emulated device runs kernels on host threads: a smaller second graph keeps it quick.
  const m = await measureTwoSizes(profile, opts, gpu.emulated ? 16 : 18, `${gpu.emulated ? 'emulated ' : ''}GPU ${gpu.device}`, at);
  const out: Measurement = { rate: m.rate, ...measuredOn(`${m.on} on ${gpu.emulated ? 'emulated ' : ''}GPU ${gpu.device}`, m.large) };
  if (m.overheadS !== undefined) out.overheadS = m.overheadS;
  if (m.vertexS !== undefined) out.vertexS = m.vertexS;
  out.startSPerVertex = m.large.startS / m.large.vertices;
  out.coordShare = m.large.coordShare;
  if (m.large.pageBytesPerSec !== undefined) out.pageBytesPerSec = m.large.pageBytesPerSec;
  if (m.large.stateBytesPerVertex !== undefined) out.stateBytesPerVertex = m.large.stateBytesPerVertex;
  // A real device's link is measured (an emulated one's copies are host memcpy: its link is what
  // the topology declares).
  if (!gpu.emulated) {
    const link = await measureLink(gpu).catch(() => undefined);
    if (link !== undefined) {
      out.linkBytesPerSec = Math.min(link.toDevice, link.toHost);
      out.c = out.linkBytesPerSec / profile.messageBytes;
    }
    const second = topology.gpus.find((x) => x !== gpu && !x.emulated && x.device !== gpu.device);
    if (second !== undefined) {
      const peer = await measurePeerLink(gpu, second).catch(() => undefined);
      if (peer !== undefined) out.peerBytesPerSec = peer;
    }
  }
  return out;
}

/**
 * A calibration graph that does not fit the GPU's memoryLimit: the run's own error names a
 * superstep and run flags (--checkpoint) that `tessera model` lacks; this says what ran out.
 */
function calibrationMemory(e: unknown, topology: Topology, gpu: Topology['gpus'][number], graph: Graph, algo: string): TesseraError | undefined {
  if (!isTesseraError(e) || e.details.key?.endsWith('memoryLimit') !== true) return undefined;
  const i = topology.gpus.indexOf(gpu);
  const limit = gpu.memoryLimit !== undefined ? ` (${(gpu.memoryLimit / 1024 ** 2).toFixed(1)} MiB)` : '';
  return new TesseraError(`calibrating GPU ${gpu.device} runs ${algo} on ${graph.source}, which needs more GPU memory than its memoryLimit${limit}`, {
    file: topology.source,
    key: `gpus.${i < 0 ? 0 : i}.memoryLimit`,
    fix: "raise memoryLimit (calibration measures on RMAT graphs from rmat:14 up), or give the GPU's rate in the topology's model section (model: { rGpu: EDGES_PER_SECOND }) so that none is measured",
  });
}

/** Bytes per second of a copy of `bytes`: the median of 5 after a warm-up. */
async function copyRate(bytes: number, copy: () => Promise<unknown>): Promise<number> {
  await copy();
  const t: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await copy();
    t.push(performance.now() - t0);
  }
  return bytes / (middle(t) / 1000);
}

/**
 * Bytes per second copied from one GPU's memory to another's (GpuController.copyFromPeer: NVLink
 * or PCIe peer-to-peer where the devices allow it, through the host otherwise): a 64 MiB array
 * (smaller under a small memoryLimit), median of 5 after a warm-up.
 */
export async function measurePeerLink(to: Topology['gpus'][number], from: Topology['gpus'][number]): Promise<number> {
  const { GpuController } = await import('../../actors/gpu/native.js');
  const open = (g: Topology['gpus'][number]) => GpuController.create({ device: g.device, emulated: g.emulated, memoryLimit: g.memoryLimit, streams: g.streams });
  const [a, b] = [await open(to), await open(from)];
  try {
    const limit = Math.min(to.memoryLimit ?? Infinity, from.memoryLimit ?? Infinity);
    const bytes = Math.max(1 << 20, Math.min(64 * 2 ** 20, Math.floor(limit / 4)));
    await a.allocState('@peer', 'u8', bytes);
    await b.allocState('@peer', 'u8', bytes);
    await a.enablePeer(b);
    return await copyRate(bytes, () => a.copyFromPeer(b, '@peer', '@peer', [[0, bytes]]));
  } finally {
    await a.close();
    await b.close();
  }
}

/**
 * The host<->device copy rates of one GPU, bytes per second: a 64 MiB page-locked host buffer
 * (smaller under a small memoryLimit) copied to a device array and back, median of 5 each after a
 * warm-up. TOTEM's c is this over the bytes of a message; streamed pages move at it too.
 */
export async function measureLink(gpu: Topology['gpus'][number]): Promise<{ toDevice: number; toHost: number }> {
  const { GpuController } = await import('../../actors/gpu/native.js');
  const ctl = await GpuController.create({ device: gpu.device, emulated: gpu.emulated, memoryLimit: gpu.memoryLimit, streams: gpu.streams });
  try {
    const bytes = Math.max(1 << 20, Math.min(64 * 2 ** 20, Math.floor((gpu.memoryLimit ?? Infinity) / 4)));
    const host = new Uint8Array(new SharedArrayBuffer(bytes));
    host.fill(1); // fault the pages in before timing
    await ctl.allocState('@link', 'u8', bytes);
    const pinned = await ctl.pinHost(host);
    const toDevice = await copyRate(bytes, () => ctl.writeState('@link', host));
    const toHost = await copyRate(bytes, () => ctl.readState('@link', host));
    if (pinned) await ctl.unpinHost(host);
    await ctl.freeState('@link');
    return { toDevice, toHost };
  } finally {
    await ctl.close();
  }
}

export interface CpuMeasureOptions extends MeasureNeed {
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

/** One calibration graph's timing (runTiming) with its size. */
interface TimedPoint extends RunTiming {
  edges: number;
  vertices: number;
  seconds: number;
}

/**
 * The rate (and overhead) from opts.graph alone, or from rmat:14 and rmat:`largeScale` fitted,
 * growing the larger graph by 4x (scale + 2) while the two are too close to fit (tooCloseToFit).
 * With opts.minVertices the larger graph starts at that size (up to 2^MAX_MATCHED_SCALE): the rate
 * of the graph the model is for, not of one whose vertex state fits in a cache.
 * `large` is the point the one-time costs are read from.
 */
async function measureTwoSizes(
  profile: ProgramProfile,
  opts: CpuMeasureOptions,
  largeScale: number,
  what: string,
  timing: (graph: Graph) => Promise<RunTiming | undefined>,
): Promise<{ rate: number; overheadS?: number; vertexS?: number; on: string; large: TimedPoint }> {
  const { loadGraph } = await import('../graph/load.js');
  const suffix = profile.weighted === true ? ':weighted' : '';
  const point = async (spec: string): Promise<TimedPoint> => {
    const t0 = performance.now();
    opts.progress?.(`calibrating ${profile.algo} (${what}) on ${spec}...`);
    const { graph } = await loadGraph(spec);
    const t = await timing(graph);
    opts.progress?.(`calibrated ${profile.algo} (${what}) on ${spec} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (t === undefined || !(t.passS > 0)) throw new TesseraError(`the calibration run of ${profile.algo} on ${spec} processed no edges`, { fix: 'give the rates in the topology (model: rCpu, rGpu)' });
    return { ...t, edges: graph.numEdges, vertices: graph.numVertices, seconds: t.passS };
  };
  if (opts.graph !== undefined) {
    const p = await point(opts.graph);
    return { rate: p.edges / p.seconds, on: opts.graph, large: p };
  }
  const small = `rmat:14${suffix}`;
  const s = await point(small);
  const matched = opts.minVertices !== undefined && opts.minVertices > 1 ? Math.min(MAX_MATCHED_SCALE, Math.ceil(Math.log2(opts.minVertices))) : 0;
  let scale = Math.max(largeScale, matched);
  let l = await point(`rmat:${scale}${suffix}`);
  while (tooCloseToFit(s, l) && scale + 2 <= MAX_CALIBRATION_SCALE) {
    scale += 2;
    l = await point(`rmat:${scale}${suffix}`);
  }
  const fit = fitPassTime(s, l);
  const on = `${small} + rmat:${scale}${suffix}`;
  if (!profile.vertexTerm) return { rate: fit.rate, overheadS: fit.overheadS, on, large: l };
  // The same vertices with a quarter of the edges per vertex tells the cost per vertex from the
  // cost per edge (with one edge factor the two move together).
  const sparse = `rmat:${scale}:ef=4${suffix}`;
  const v = fitVertexTerm(s, l, await point(sparse));
  return v === undefined ? { rate: fit.rate, overheadS: fit.overheadS, on, large: l } : { ...v, on: `${on} + ${sparse}`, large: l };
}

/**
 * Seconds per pass as t = t0 + |E| / r + |V| x v through three measurements: `small` and `large`
 * with one edge factor, `sparse` with `large`'s vertices and fewer edges. The two large graphs
 * give the per-edge time (same |V|), then the two sizes the per-vertex time and the intercept.
 * Undefined when a term comes out negative (noise larger than the term): the caller keeps the
 * two-point fit (fitPassTime), whose rate then carries the vertices' cost at that edge factor.
 */
export function fitVertexTerm(
  small: { edges: number; vertices: number; seconds: number },
  large: { edges: number; vertices: number; seconds: number },
  sparse: { edges: number; vertices: number; seconds: number },
): { rate: number; overheadS: number; vertexS: number } | undefined {
  const dE = large.edges - sparse.edges;
  const dV = large.vertices - small.vertices;
  if (!(dE > 0 && dV > 0) || large.vertices !== sparse.vertices) return undefined;
  const perEdge = (large.seconds - sparse.seconds) / dE;
  if (!(perEdge > 0)) return undefined;
  const vertexS = (large.seconds - large.edges * perEdge - (small.seconds - small.edges * perEdge)) / dV;
  if (!(vertexS >= 0)) return undefined;
  const overheadS = small.seconds - small.edges * perEdge - small.vertices * vertexS;
  if (!(overheadS >= 0)) return undefined;
  return { rate: 1 / perEdge, overheadS, vertexS };
}

/** A measurement's record of what it ran on (the cache keeps it to tell when a graph outgrows it). */
function measuredOn(on: string, large: TimedPoint): Pick<Measurement, 'on' | 'vertices'> {
  return { on, vertices: large.vertices };
}

/**
 * Edges per second per CPU thread for a program and mode (and the overhead per pass, in seconds
 * of the whole topology's sockets): the program runs with the Engine on the topology's sockets
 * (GPUs left out), the mode forced, over two RMAT sizes; busy thread-seconds per pass
 * (superstep time x threads) are fitted as overhead + |E| / rate (fitPassTime). The larger graph's
 * time outside supersteps per vertex is the setup every configuration pays.
 */
export async function measureCpu(topology: Topology, program: string, mode: Mode, opts: CpuMeasureOptions = {}): Promise<Measurement> {
  const profile = programProfile(program);
  const cpuOnly: Topology = { ...topology, gpus: [] };
  const threads = cpuOnly.sockets.reduce((a, s) => a + s.threads, 0);
  const m = await measureTwoSizes(profile, opts, 17, `the CPU sockets, ${threads} threads`, (graph) => cpuTiming(graph, cpuOnly, profile, mode, opts.repetitions ?? 3));
  const out: Measurement = {
    rate: m.rate,
    ...measuredOn(m.on, m.large),
    setupSPerVertex: m.large.setupS / m.large.vertices,
    startSPerVertex: m.large.startS / m.large.vertices,
    coordShare: m.large.coordShare,
  };
  // The intercept is in thread-seconds; the sockets' threads pay it side by side.
  if (m.overheadS !== undefined) out.overheadS = m.overheadS / threads;
  // Thread-seconds per vertex, like the per-thread rate (modelParamsFor divides by a socket's threads).
  if (m.vertexS !== undefined) out.vertexS = m.vertexS;
  return out;
}

/** Edges per second per CPU thread over a given graph (one size, no overhead). */
export async function measureCpuOn(graph: Graph, topology: Topology, profile: ProgramProfile, mode: Mode, repetitions = 3): Promise<number> {
  const t = await cpuTiming(graph, { ...topology, gpus: [] }, profile, mode, repetitions);
  if (t === undefined) throw new TesseraError(`the calibration run of ${profile.algo} processed no edges`, { fix: 'give model.rCpu in the topology' });
  return graph.numEdges / t.passS;
}

function cpuTiming(graph: Graph, cpuOnly: Topology, profile: ProgramProfile, mode: Mode, repetitions: number): Promise<RunTiming | undefined> {
  const threads = cpuOnly.sockets.reduce((a, s) => a + s.threads, 0);
  return runTiming(graph, cpuOnly, { forceMode: mode }, profile, repetitions, threads);
}

/**
 * The model's elements and parameters for a topology, its rates and a graph: sockets with
 * threads x rCpu, GPUs with rGpu and their memory (memoryLimit; 2 GiB for an emulated GPU, as the
 * native controller; unlimited for a real GPU without one), vertex state bytes per GPU.
 */
export function modelParamsFor(topology: Topology, rates: ResolvedRates, graph: Graph, opts: { passes?: number; pagesResident?: boolean } = {}): ModelParams {
  const profile = programProfile(rates.program);
  const cpuOverheadS = rates.cpuOverheadS ?? 0;
  // Coordinator time inside a rate: only where the rate was measured with it (not a given rate).
  const cpuCoord = rates.rCpu.source === 'topology' ? undefined : rates.cpuCoordShare;
  const gpuCoord = rates.rGpu?.source === 'topology' ? undefined : rates.gpuCoordShare;
  const elements: ModelElement[] = topology.sockets.map((s) => ({
    name: `socket${s.id}`,
    kind: 'cpu',
    rate: s.threads * rates.rCpu.value,
    threads: s.threads,
    overheadS: cpuOverheadS,
    ...((rates.cpuVertexS ?? 0) > 0 ? { vertexS: rates.cpuVertexS! / s.threads } : {}),
    ...(cpuCoord !== undefined ? { coordShare: cpuCoord } : {}),
  }));
  for (const g of topology.gpus) {
    const memoryBytes = g.memoryLimit ?? (g.emulated ? EMULATED_GPU_MEMORY : undefined);
    elements.push({
      name: `gpu${g.device}`,
      kind: 'gpu',
      rate: rates.rGpu!.value,
      overheadS: rates.gpuOverheadS ?? 0,
      ...((rates.gpuVertexS ?? 0) > 0 ? { vertexS: rates.gpuVertexS } : {}),
      ...(memoryBytes !== undefined ? { memoryBytes } : {}),
      ...(gpuCoord !== undefined ? { coordShare: gpuCoord } : {}),
    });
  }
  const hasGpu = topology.gpus.length > 0;
  return {
    elements,
    // No GPU: no link (nothing crosses one; predict charges nothing to it).
    c: hasGpu ? rates.c!.value : Infinity,
    messageBytes: profile.messageBytes,
    ...(hasGpu ? { linkBytesPerSec: rates.linkBytesPerSec!.value } : {}),
    ...(rates.peerBytesPerSec !== undefined && topology.gpus.length > 1 ? { peerBytesPerSec: rates.peerBytesPerSec.value } : {}),
    // What the GPU held per vertex in the calibration's runs (its arrays and scratch), else what the program declares.
    gpuStateBytes: graph.numVertices * (rates.gpuStateBytesPerVertex ?? profile.stateBytesPerVertex),
    ...(!profile.readsWeights && graph.weightType !== undefined ? { pageWeights: false as const } : {}),
    passes: opts.passes ?? profile.passes,
    setupS: graph.numVertices * (rates.setupSPerVertex ?? 0),
    cpuStartS: graph.numVertices * (rates.cpuStartSPerVertex ?? 0),
    ...(hasGpu && rates.gpuStartSPerVertex !== undefined ? { gpuStartS: graph.numVertices * rates.gpuStartSPerVertex } : {}),
    ...(hasGpu && rates.pageLoadBytesPerSec !== undefined ? { pageLoadBytesPerSec: rates.pageLoadBytesPerSec } : {}),
    ...(opts.pagesResident ? { pagesResident: true } : {}),
  };
}
