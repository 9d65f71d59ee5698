/**
 * The CPU/GPU performance model (TOTEM, seeds/totem-hybrid-topc.txt §3 "A performance model"),
 * generalised from one CPU + one GPU to n sockets + m GPUs. Pure arithmetic: no graph, no engine.
 *
 * TOTEM's terms: r_p = processing rate of element p (edges/s), c = host<->device link rate in
 * edges (messages) per second for the bytes one message carries, alpha = share of the edges left
 * on the host (CPU side), beta = share of edges whose messages cross the link (after aggregation
 * at the source, TOTEM §3.4: one message per remote vertex per superstep).
 *
 *   Eq. 1  t(G_p)            = |E_p^b| / c + |E_p| / r_p
 *   Eq. 2  makespan(G, P)    = max_p t(G_p)
 *   Eq. 3  speedup           = t_cpu-only(G) / makespan = (|E| / r_cpu) / (alpha|E| / r_cpu + beta|E| / c)
 *   Eq. 4  speedup           = 1 / (alpha + beta * r_cpu / c)        (two elements, CPU the bottleneck)
 *
 * Each element also pays a fixed overhead per pass when it has edges (frames, task set-up, state
 * copies: the intercept calibrate.ts fits beside the rate), and, for programs whose passes visit
 * every vertex, a cost per owned vertex, so its Eq. 1 compute term is
 * overhead_p + |E_p| / r_p + |V_p| x v_p; with neither this is TOTEM's model exactly.
 *
 * Generalisation (DESIGN.md "The model"): a BSP superstep computes, then communicates, so
 *   step = max_p compute_p + max_g (messages over GPU g's link) / c
 * where each GPU has its own link (links transfer in parallel) and sockets share host memory (a
 * message between two sockets crosses no link). The sockets together are TOTEM's host partition:
 * the coordinator cuts the CPU pages into tasks and spreads them over all sockets by threads, so
 * the CPU side computes in (sum of CPU edges) / (sum of socket rates) whichever socket a page was
 * first queued on. With one CPU and one GPU every boundary message crosses the one link and this
 * is exactly Eq. 1 + 2, hence Eq. 4 when the CPU is the bottleneck.
 *
 * GPU memory (GTS, seeds/gts-sigmod16.txt §5 Eq. 1): pages that fit the device stay resident and
 * are charged once (copied before the first superstep, with the vertex state); pages that do not
 * fit are streamed every superstep at the link's byte rate, overlapped with the kernels on K
 * streams, so a GPU's superstep takes max(compute, stream) (their sum fits the recorded capped
 * sweeps worse: bench/results/h200-x2-2026-11-29-recycled).
 *
 * One-time costs of a run, measured rather than derived from the link where calibrate.ts has them
 * (on an H100 host they were most of a GPU run: 319 ms for 10 PageRank passes of 6 ms each):
 *   setupS     outside supersteps (state allocation, vertex maps, the result), every configuration
 *              the CPU-only baseline included;
 *   gpuStartS  a GPU's first superstep beyond a steady one (its state replica copied in, fresh host
 *              arrays page-locked), instead of state bytes / link rate;
 *   cpuStartS  the sockets' first superstep beyond a steady one over the whole graph (first touch
 *              of fresh arrays), charged in proportion to the CPU's share of the edges;
 *   resident pages at the measured page-load rate (pageable copies), unless they are still on the
 *              device from an earlier run of the same engine (pagesResident).
 *   makespan = setupS + max_p start_p + passes x (max_p step_p + comm)   (a GPU's start: its load)
 */

export type ElementKind = 'cpu' | 'gpu';

/**
 * ModelParams.rangeS's default: seconds per extra owned range per pass (or level) on a GPU. Not
 * calibrated: the low end of what dealt pages cost PageRank on two H100s, and dealt pages ran
 * faster than one range each on two H200s (bench/results/h100-x2-2026-11-26-multi-gpu,
 * bench/results/h200-x2-2026-11-29-recycled).
 */
export const RANGE_S = 10e-6;

/** One processing element (TOTEM's p): a CPU socket actor or a GPU. */
export interface ModelElement {
  /** 'socket0', 'gpu1' — the engine's actor names. */
  name: string;
  kind: ElementKind;
  /** r_p: edges per second this element processes for the program and mode (a socket: threads x per-thread rate). */
  rate: number;
  /** CPU sockets: worker threads (shares are split by threads x per-thread rate). */
  threads?: number;
  /**
   * Fixed seconds per pass the element pays whenever it has edges (frames, task set-up, state
   * copies; calibrate.ts fits it with the rate over two graph sizes); default 0.
   */
  overheadS?: number;
  /**
   * Seconds per owned vertex per pass (programs whose passes visit every vertex: profile.ts
   * vertexTerm; a socket: its threads together); default 0 (TOTEM's edges-only model).
   */
  vertexS?: number;
  /**
   * GPUs: bytes of device memory the controller may use for vertex state and resident pages
   * (the topology's memoryLimit); undefined = everything fits.
   */
  memoryBytes?: number;
  /**
   * The share (0..1) of the element's calibrated superstep time spent on the coordinator's one
   * thread outside the slowest vote (the cut before; folds, the next frontier's list after): inside
   * `rate`, but paid once per superstep for all its edges whichever elements computed them. The
   * level model takes share / rate per edge out of the rate and charges each level's edges once
   * (calibrate.ts measures it; 0 when unknown).
   */
  coordShare?: number;
}

export interface ModelParams {
  /** The elements, sockets first then GPUs (topology order). */
  elements: ModelElement[];
  /** c: messages (edges) per second over one host<->device link, each `messageBytes` long. */
  c: number;
  /** Bytes one aggregated message carries over the link (destination id + value). */
  messageBytes: number;
  /** Link bytes per second for page streaming and loading; default c x messageBytes. */
  linkBytesPerSec?: number;
  /**
   * Bytes per second between two GPUs device to device (NVLink / PCIe peer copies, GpuGroup):
   * messages between GPUs cross it instead of both GPUs' host links (GTS §4.1). Absent: they
   * cross the host links, as TOTEM's model has it.
   */
  peerBytesPerSec?: number;
  /** Bytes of vertex state each GPU keeps (its replica of the program's arrays), charged at load. */
  gpuStateBytes?: number;
  /** false: GPUs hold the pages without their weights (the program reads none: ProgramSpec.readsWeights). */
  pageWeights?: false;
  /** Full passes over the edges the run makes (PageRank: its iterations); default 1. */
  passes?: number;
  /**
   * Top-down BFS from a known source: per level, the out-edges its frontier pushes per out-page
   * (levels.ts pushLevels); partitions then load each element per level.
   */
  levelPageEdges?: Float64Array[];
  /**
   * Direction-optimising traversals (profile `levels`, pull): most of the work is bottom-up
   * levels, where each unvisited vertex scans its in-edges until it meets a parent (Beamer), so
   * among several GPUs the work follows the vertices each owns, not its edges (Strategy-P's
   * ranges of equal in-edges leave the GPU owning an RMAT graph's hubs a sliver of its vertices,
   * and the other nearly all the bottom-up work). The GPUs' edges together are unchanged (their
   * rate was calibrated on whole runs).
   */
  gpuWorkByVertices?: boolean;
  /** Seconds of every run outside supersteps (allocation, vertex maps, result); default 0. */
  setupS?: number;
  /** The CPU sockets' one-time start over the whole graph (their first superstep beyond a steady one); default 0. */
  cpuStartS?: number;
  /** A GPU's one-time start in a run (first superstep beyond a steady one); replaces gpuStateBytes / link rate. */
  gpuStartS?: number;
  /** Bytes per second of the one-time resident page copy; default the link's. */
  pageLoadBytesPerSec?: number;
  /** Resident pages are on the device already (an earlier run of the same engine): not charged. */
  pagesResident?: boolean;
  /**
   * Seconds a GPU pays per pass for each owned range beyond the first (its copies are made per
   * range: peer copies, readbacks, frontier slices); default RANGE_S.
   */
  rangeS?: number;
  /** A graph read from disk page by page: what the sockets read per pass (model/disk.ts). */
  disk?: import('./disk.js').DiskLoad;
}

/** What one element is given: edges, and (GPUs) the page bytes kept resident or streamed. */
export interface ElementLoad {
  edges: number;
  /** Vertices the element owns (charged at its vertexS each pass; absent: 0). */
  vertices?: number;
  /**
   * Level-synchronous traversals (ModelParams.levelPageEdges): the element's edges per level. A
   * pass then takes the sum over levels of the slowest element's time (levels.ts), not the
   * slowest element's total.
   */
  levels?: number[];
  /** Owned vertex ranges (GPUs; several with RAND or dealt pages): each costs ModelParams.rangeS a pass. */
  ranges?: number;
  /** Page bytes copied to the device once, before the first superstep. */
  residentBytes?: number;
  /** Page bytes that do not fit and cross the link every superstep. */
  streamedBytes?: number;
}

/** Boundary messages after aggregation. */
export interface Traffic {
  /** Messages per superstep that cross a host<->device link (beta x |E|). */
  messages: number;
  /**
   * Messages over each element's link, indexed like `elements` (GPU entries only; a GPU-to-GPU
   * message counts on both links). Absent: every message is charged to one link (TOTEM's
   * single-link Eq. 1, exact for one GPU, conservative for several).
   */
  perLink?: number[];
  /**
   * The part of each GPU's perLink exchanged with other GPUs (ModelParams.peerBytesPerSec charges
   * it on the peer link instead).
   */
  perPeer?: number[];
}

export interface ElementTime {
  name: string;
  kind: ElementKind;
  edges: number;
  /** |E_p| / r_p (+ the element's fixed overhead) per pass (TOTEM Eq. 1, computation term); sockets: the host partition's time. */
  computeS: number;
  /** Streamed page bytes / link bytes per second, per superstep. */
  streamS: number;
  /** One-time copy of resident pages + vertex state (GPUs). */
  loadS: number;
  /** Boundary messages over this element's link per superstep. */
  linkMessages: number;
  /** linkMessages / c (TOTEM Eq. 1, communication term). */
  transferS: number;
  /** Time of the computation phase of a superstep: compute, or max(compute, stream) on a GPU (GTS). */
  stepS: number;
  /** Of computeS, the charge for a GPU's owned ranges beyond its first (ModelParams.rangeS each). */
  rangesS: number;
}

export interface Prediction {
  /** Share of the edges on the CPU sockets. */
  alpha: number;
  /** Share of the edges whose messages cross a link, after aggregation. */
  beta: number;
  /** Computation phase of one pass: max_p stepS (TOTEM Eq. 2 without the communication term). */
  computeS: number;
  /** Communication phase of one pass: max over links of messages / c. */
  commS: number;
  /** One pass: computeS + commS. */
  passS: number;
  /** One-time start: max over GPUs of loadS (each has its own link) and the CPU's share of cpuStartS. */
  loadS: number;
  /** Every run's time outside supersteps (params.setupS). */
  setupS: number;
  /** The run: setupS + loadS + passes x passS. */
  makespanS: number;
  /** The same run on the CPU sockets alone: setupS + cpuStartS + passes x (|E| / sum of socket rates + their overhead). */
  cpuOnlyS: number;
  /** cpuOnlyS / makespanS (TOTEM Eq. 3). */
  speedup: number;
  /** Element whose stepS is the largest. */
  bottleneck: string;
  elements: ElementTime[];
}

const isGpuKind = (e: ModelElement): boolean => e.kind === 'gpu';

/** Bytes per second of the link for page traffic. */
export function linkBytesPerSec(p: ModelParams): number {
  return p.linkBytesPerSec ?? p.c * p.messageBytes;
}

/** Sum of the CPU sockets' rates (the CPU-only baseline's rate). */
export function cpuRate(p: ModelParams): number {
  let r = 0;
  for (const e of p.elements) if (e.kind === 'cpu') r += e.rate;
  return r;
}

/** TOTEM Eq. 4: speedup of one CPU + one GPU over the CPU alone when the CPU is the bottleneck. */
export function speedupEq4(alpha: number, beta: number, rCpu: number, c: number): number {
  return 1 / (alpha + (beta * rCpu) / c);
}

/**
 * The makespan of a given assignment: TOTEM Eq. 1 per element, Eq. 2 over elements, with the
 * generalisation described in the file header. `loads` is indexed like `params.elements`.
 */
export function predict(params: ModelParams, loads: ElementLoad[], traffic: Traffic): Prediction {
  const els = params.elements;
  if (loads.length !== els.length) throw new RangeError(`predict: ${loads.length} loads for ${els.length} elements`);
  if (els.length === 0) throw new RangeError('predict: no elements');
  const bps = linkBytesPerSec(params);
  const passes = params.passes ?? 1;
  let total = 0;
  let cpuEdges = 0;
  let vertices = 0;
  let cpuVertices = 0;
  for (let i = 0; i < els.length; i++) {
    total += loads[i]!.edges;
    vertices += loads[i]!.vertices ?? 0;
    if (els[i]!.kind === 'cpu') (cpuEdges += loads[i]!.edges), (cpuVertices += loads[i]!.vertices ?? 0);
  }
  const gpus = els.filter((e) => e.kind === 'gpu').length;
  const rc = cpuRate(params);
  const disk = params.disk;
  // The first pass over a graph on disk reads every page it walks (later ones find some held).
  const diskFirstS = disk !== undefined ? (disk.firstPassBytes - disk.passBytes) / disk.bytesPerSec : 0;
  // hostMemoryLimit shared as graph/store.ts storeArenas does: the sockets by their share of the
  // edges (at least what they need), the GPUs' host buffers the rest by theirs.
  const cpuPart = total > 0 ? cpuEdges / total : 1;
  const cache = disk?.cacheBytes ?? 0;
  const socketBytes = disk === undefined || cpuPart === 1 ? cache : Math.min(cache, Math.max(disk.socketLeastBytes ?? 0, cache * cpuPart));
  const gpuBuffers = cache - socketBytes;
  const cpuDiskPass = disk === undefined ? 0 : disk.cacheBytes === undefined ? cpuPart * disk.passBytes : Math.max(0, cpuPart * disk.firstPassBytes - Math.max(0, socketBytes - (disk.readersBytes ?? 0)));
  const cpuDiskFirstS = disk === undefined ? 0 : (cpuPart * disk.firstPassBytes - cpuDiskPass) / disk.bytesPerSec;
  // The sockets' fixed cost per pass (they pay it side by side).
  let cpuOverhead = 0;
  for (const e of els) if (e.kind === 'cpu') cpuOverhead = Math.max(cpuOverhead, e.overheadS ?? 0);
  // The sockets' vertices per second together (each socket's 1 / vertexS).
  let cpuVertexRate = 0;
  for (const e of els) if (e.kind === 'cpu' && (e.vertexS ?? 0) > 0) cpuVertexRate += 1 / e.vertexS!;
  const cpuVertexS = cpuVertexRate > 0 ? 1 / cpuVertexRate : 0;
  // The host partition: all sockets work on the CPU edges together (file header).
  const cpuS = cpuEdges > 0 ? cpuEdges / rc + cpuVertices * cpuVertexS + cpuOverhead : 0;
  const times: ElementTime[] = [];
  let computeS = 0;
  let commS = 0;
  let loadS = 0;
  let bottleneck = els[0]!.name;
  for (let i = 0; i < els.length; i++) {
    const e = els[i]!;
    const l = loads[i]!;
    if (!(e.rate > 0) && l.edges > 0 && (isGpuKind(e) || !(rc > 0))) throw new RangeError(`predict: element ${e.name} has edges but rate ${e.rate}`);
    const isGpu = e.kind === 'gpu';
    const rangesS = Math.max(0, (l.ranges ?? 1) - 1) * (params.rangeS ?? RANGE_S);
    const comp = !isGpu ? cpuS : l.edges > 0 ? l.edges / e.rate + (l.vertices ?? 0) * (e.vertexS ?? 0) + (e.overheadS ?? 0) + rangesS : 0;
    // Sockets over a graph on disk: their share of a pass's page reads, overlapped with compute.
    // A GPU over a graph on disk loads its pages from the file at the slower of disk and link, but
    // those its host buffer holds (after the first pass) at link speed.
    const pageBps = disk !== undefined ? Math.min(bps, disk.bytesPerSec) : bps;
    const buffered = isGpu && disk !== undefined && total > cpuEdges ? Math.min(l.streamedBytes ?? 0, (gpuBuffers * l.edges) / (total - cpuEdges)) : 0;
    const streamS = isGpu ? ((l.streamedBytes ?? 0) - buffered) / pageBps + buffered / bps : disk !== undefined && total > 0 ? cpuDiskPass / disk.bytesPerSec : 0;
    const pageBytes = params.pagesResident ? 0 : (l.residentBytes ?? 0);
    const start = params.gpuStartS ?? (params.gpuStateBytes ?? 0) / bps;
    const load = isGpu && (l.edges > 0 || (l.residentBytes ?? 0) > 0) ? start + pageBytes / Math.min(params.pageLoadBytesPerSec ?? bps, pageBps) + (buffered > 0 ? buffered / pageBps - buffered / bps : 0) : 0;
    let linkMessages = 0;
    if (isGpu) linkMessages = traffic.perLink ? (traffic.perLink[i] ?? 0) : gpus > 0 ? traffic.messages : 0;
    const peer = isGpu && params.peerBytesPerSec !== undefined ? Math.min(linkMessages, traffic.perPeer?.[i] ?? 0) : 0;
    const transferS = (linkMessages - peer) / params.c + (peer * params.messageBytes) / (params.peerBytesPerSec ?? Infinity);
    // GTS: copies of page i+1 overlap the kernels of page i on K streams.
    const stepS = Math.max(comp, streamS);
    if (stepS > computeS) {
      computeS = stepS;
      bottleneck = e.name;
    }
    if (transferS > commS) commS = transferS;
    if (load > loadS) loadS = load;
    times.push({ name: e.name, kind: e.kind, edges: l.edges, computeS: comp, streamS, loadS: load, linkMessages, transferS, stepS, rangesS: isGpu ? rangesS : 0 });
  }
  // Without per-link counts all messages share one link (charged once, not once per GPU).
  if (!traffic.perLink && gpus > 0) commS = traffic.messages / params.c;
  // Level-synchronous: each level waits for its slowest element (the overheads once per pass),
  // after the coordinator's serial share of it (coordShare / rate per edge: out of each element's rate, in
  // once for all the level's edges, at the largest of the elements that have edges there).
  // The levels hold the edges the traversal reaches, which the CPU-only baseline walks too.
  let walked = total;
  if (loads.every((l) => l.levels !== undefined) && total > 0) {
    walked = 0;
    for (const l of loads) for (const x of l.levels!) walked += x;
    const L = loads[0]!.levels!.length;
    // Coordinator seconds per edge of each element (its share of its per-edge time).
    const coordOf = (e: ModelElement): number => (e.kind === 'cpu' ? (rc > 0 ? (e.coordShare ?? 0) / rc : 0) : e.rate > 0 ? (e.coordShare ?? 0) / e.rate : 0);
    let cpuShare = 0;
    for (const e of els) if (e.kind === 'cpu') cpuShare = Math.max(cpuShare, e.coordShare ?? 0);
    // Per-edge seconds of the host partition and each GPU without the coordinator's part.
    const cpuPerEdge = rc > 0 ? (1 - cpuShare) / rc : 0;
    let levelsS = 0;
    for (let k = 0; k < L; k++) {
      let cpuL = 0;
      let slowest = 0;
      let edgesL = 0;
      let coord = 0;
      for (let i = 0; i < els.length; i++) {
        const e = els[i]!;
        const x = loads[i]!.levels![k]!;
        edgesL += x;
        if (x > 0) coord = Math.max(coord, coordOf(e));
        if (e.kind === 'cpu') cpuL += x;
        // A GPU owning several ranges pays for each at every level, edges there or not (its
        // frontier's slices and the peers' copies per range), as at every pass.
        else if (e.rate > 0) slowest = Math.max(slowest, (x * (1 - (e.coordShare ?? 0))) / e.rate + times[i]!.rangesS);
      }
      levelsS += edgesL * coord + Math.max(slowest, cpuL * cpuPerEdge);
    }
    let overhead = 0;
    for (let i = 0; i < els.length; i++) if (loads[i]!.edges > 0) overhead = Math.max(overhead, els[i]!.kind === 'cpu' ? cpuOverhead : (els[i]!.overheadS ?? 0));
    let streamMax = 0;
    for (const t of times) streamMax = Math.max(streamMax, t.streamS);
    computeS = Math.max(levelsS + overhead, streamMax);
  }
  const passS = computeS + commS;
  const setupS = params.setupS ?? 0;
  const cpuStartS = params.cpuStartS ?? 0;
  if (total > 0) loadS = Math.max(loadS, (cpuStartS * cpuEdges) / total + cpuDiskFirstS);
  const makespanS = setupS + loadS + passes * passS;
  const cpuPassS = walked / rc + vertices * cpuVertexS + (total > 0 ? cpuOverhead : 0);
  const cpuOnlyS = rc > 0 ? setupS + (total > 0 ? cpuStartS + diskFirstS : 0) + passes * Math.max(cpuPassS, disk !== undefined && total > 0 ? disk.passBytes / disk.bytesPerSec : 0) : Infinity;
  return {
    alpha: total > 0 ? cpuEdges / total : 1,
    beta: total > 0 ? traffic.messages / total : 0,
    computeS,
    commS,
    passS,
    loadS,
    setupS,
    makespanS,
    cpuOnlyS,
    speedup: makespanS > 0 ? cpuOnlyS / makespanS : 1,
    bottleneck,
    elements: times,
  };
}

/**
 * Edge targets per element for a CPU share alpha: the CPU share split among sockets by rate
 * (threads x per-thread rate), the GPU share among GPUs by rate. Without GPUs the sockets take
 * everything whatever alpha says; without sockets the GPUs do.
 */
export function splitShares(elements: ModelElement[], alpha: number, totalEdges: number): number[] {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
  let rc = 0;
  let rg = 0;
  for (const e of elements) (e.kind === 'cpu' ? (rc += e.rate) : (rg += e.rate));
  const a = rg === 0 ? 1 : rc === 0 ? 0 : alpha;
  return elements.map((e) => (e.kind === 'cpu' ? (a * totalEdges * e.rate) / rc : ((1 - a) * totalEdges * e.rate) / rg));
}

/**
 * The model without a graph: shares from alpha (splitShares), beta given, every page resident
 * and nothing loaded. What TOTEM's Figure 2 plots; the graph-aware sweep is in partition.ts.
 */
export function predictAlpha(params: ModelParams, totalEdges: number, alpha: number, beta: number): Prediction {
  const shares = splitShares(params.elements, alpha, totalEdges);
  const hasGpu = params.elements.some((e) => e.kind === 'gpu');
  return predict(
    params,
    shares.map((edges) => ({ edges })),
    { messages: hasGpu && alpha < 1 ? beta * totalEdges : 0 },
  );
}

/** The alphas of a sweep: 0, 1/steps, ..., 1 (just [1] when there are no GPUs). */
export function alphaGrid(steps: number, hasGpu: boolean): number[] {
  if (!hasGpu) return [1];
  if (!Number.isInteger(steps) || steps < 1) throw new RangeError(`alpha steps must be a positive integer, got ${steps}`);
  return Array.from({ length: steps + 1 }, (_, i) => i / steps);
}

/** The prediction with the smallest makespan (ties: the larger alpha, which moves fewer pages). */
export function best<T extends { prediction: Prediction }>(points: T[]): T | undefined {
  let b: T | undefined;
  for (const p of points) {
    if (
      b === undefined ||
      p.prediction.makespanS < b.prediction.makespanS ||
      (p.prediction.makespanS === b.prediction.makespanS && p.prediction.alpha > b.prediction.alpha)
    )
      b = p;
  }
  return b;
}

/**
 * Garaph's GPU join rule (seeds/garaph-atc17.txt §5.1, Eq. 3) for a sparse superstep: the CPU
 * alone takes T_CPU = min(2 f rho, 1) T_pull (push work scales with the active fraction f, capped
 * at a dense pull), while the GPU processes every edge of its pages whatever f is (T_GPU).
 *   alpha_G = min(2 f rho, 1) * T_pull / T_GPU;   alpha_G < 1: the CPU works alone this superstep.
 * rho = 1 for graphs in host memory (Garaph's ratio of sequential to random reads otherwise).
 * Garaph initialises T_pull / T_GPU from the hardware speed ratio and refines it from measured
 * per-page times (gpuJoinRatio* below).
 */
export function gpuJoins(o: { activeFraction: number; pullToGpu: number; rho?: number }): { alphaG: number; join: boolean } {
  const rho = o.rho ?? 1;
  const f = Math.min(Math.max(o.activeFraction, 0), 1);
  const alphaG = Math.min(2 * f * rho, 1) * o.pullToGpu;
  return { alphaG, join: alphaG >= 1 };
}

/**
 * T_pull / T_GPU from the model: the CPU sockets pulling all |E| edges against the GPUs taking
 * their share (the slowest GPU's computation phase, streaming included) of a prediction at the
 * alpha in use.
 */
export function pullToGpuFromPrediction(params: ModelParams, p: Prediction): number {
  let total = 0;
  let tGpu = 0;
  for (const e of p.elements) {
    total += e.edges;
    if (e.kind === 'gpu') tGpu = Math.max(tGpu, e.stepS + e.transferS);
  }
  const rc = cpuRate(params);
  if (tGpu === 0) return 0;
  return total / rc / tGpu;
}

/** T_pull / T_GPU from measured per-page times of the same pages (Garaph: t_cpu^p / t_gpu^p). */
export function pullToGpuFromPageTimes(cpuPageS: number, gpuPageS: number): number {
  return gpuPageS > 0 ? cpuPageS / gpuPageS : Infinity;
}
