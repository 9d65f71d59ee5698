/**
 * Page partitions for the model (TOTEM §6 "Partition by degree centrality"): which processing
 * element owns which pages, for a CPU share alpha and a strategy.
 *
 * Internal ids are renumbered by descending degree (src/graph/build.ts), and pages are contiguous
 * id ranges, so the degree order is the page order:
 *   HIGH  the highest-degree vertices (lowest ids, first pages) on the CPU sockets, the rest on the GPUs
 *   LOW   the reverse: the GPUs take the first pages, the sockets the tail
 *   RAND  pages shuffled with a seeded xoshiro128** and cut the same way (TOTEM's random baseline)
 * The unit of assignment is a page, except that the consecutive `split` pages of one vertex form
 * one unit (a vertex's partial edge lists are reduced in one memory). Within the CPU side the
 * sockets get consecutive shares in proportion to threads x rate, within the GPU side the GPUs in
 * proportion to their rates (model.ts splitShares).
 *
 * GPU memory follows the native controller (native/README.md "Memory and the page cache"): vertex
 * state first, then fixed-size cache slots as large as the largest page; pages beyond the slots
 * are streamed every superstep. A GPU that cannot hold the state plus one slot cannot run at all
 * (TS_OOM), so such a partition is infeasible.
 */
import type { Graph, Orientation, Page, PageSet } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import { alphaGrid, best, predict, splitShares, type ElementKind, type ElementLoad, type ModelElement, type ModelParams, type Prediction, type Traffic } from './model.js';
import { levelEdgesOf } from './levels.js';
import { pageBufferBytes, pageBytesWithoutWeights } from '../../actors/gpu/native.js';
import { twoSideCounts, type TwoSideCounts } from './two-side.js';
import { countMatrices, markDerived } from './boundary-count.js';
import { DEFAULT_PARTITION_SEED, unitOrder, unitsOf } from './units.js';
import { dealStripe, type MultiGpu } from '../engine/partition.js';

export { DEFAULT_PARTITION_SEED } from './units.js';

export type Strategy = 'high' | 'low' | 'rand';
export const STRATEGIES: readonly Strategy[] = ['high', 'low', 'rand'];
/** How several GPUs share the GPU side: `MultiGpu` in engine/partition.ts. */
export type { MultiGpu } from '../engine/partition.js';
export const MULTI_GPU: readonly MultiGpu[] = ['p', 's'];

export interface PartitionOptions {
  strategy: Strategy;
  /** Share of the edges on the CPU sockets, in [0, 1]. */
  alpha: number;
  /** Page set to assign: 'in' for pull programs (default), 'out' for push. */
  orientation?: Orientation;
  /** RAND seed (default 1). */
  seed?: number;
  /** Several GPUs: one range each ('p', default) or the GPU side's units dealt round-robin ('s'). */
  multiGpu?: MultiGpu;
}

export interface ElementPart {
  name: string;
  kind: ElementKind;
  /** Page indices of the orientation's PageSet, ascending. */
  pages: Uint32Array;
  /** Owned internal-id ranges [begin, end), merged, ascending. */
  ranges: Array<[number, number]>;
  edges: number;
  vertices: number;
  /** Sum of the pages' buffer bytes. */
  bytes: number;
  /** GPUs: pages kept in device memory and pages streamed each superstep (CPU: all resident). */
  residentPages: number;
  streamedPages: number;
  residentBytes: number;
  streamedBytes: number;
}

export interface Partition {
  strategy: Strategy;
  /** How the GPU side was shared among several GPUs ('p' with fewer than two). */
  multiGpu: MultiGpu;
  /** The alpha asked for. */
  alphaRequested: number;
  /** CPU edges / all edges as cut (page granularity moves it off the request). */
  alpha: number;
  orientation: Orientation;
  seed: number;
  totalEdges: number;
  elements: ElementPart[];
  /** Element index owning each internal vertex id. */
  owner: Uint8Array;
  /** False when a GPU with pages cannot hold its state plus one page slot. */
  feasible: boolean;
  /** Why not, when infeasible. */
  problem?: string;
}

/** Index i in [lo, n] whose prefix[i] is nearest to target (ties: the smaller i); prefix is non-decreasing. */
function nearestCut(prefix: Float64Array, lo: number, target: number): number {
  const n = prefix.length - 1;
  let a = lo;
  let b = n;
  // First i with prefix[i] >= target.
  while (a < b) {
    const m = (a + b) >>> 1;
    if (prefix[m]! < target) a = m + 1;
    else b = m;
  }
  if (a > lo && target - prefix[a - 1]! <= prefix[a]! - target) {
    // Step back to the first index holding that prefix value (ties to the smaller i).
    let i = a - 1;
    while (i > lo && prefix[i - 1] === prefix[i]) i--;
    return i;
  }
  return a;
}

/** The largest of `pages` (ascending vertex ranges) overlapping `ranges` (ascending, disjoint), by `bytes`. */
function largestOver(pages: readonly Page[], ranges: ReadonlyArray<[number, number]>, bytes: (p: Page) => number): number {
  let max = 0;
  let r = 0;
  for (const p of pages) {
    while (r < ranges.length && ranges[r]![1] <= p.vBegin) r++;
    if (r === ranges.length) break;
    if (ranges[r]![0] < p.vEnd) max = Math.max(max, bytes(p));
  }
  return max;
}

/**
 * Pages a GPU keeps resident: the room left after its vertex state, in slots the size of its
 * largest page (native/README.md); 0 when not even one slot fits (the controller's TS_OOM).
 */
function gpuSlots(memoryBytes: number | undefined, stateBytes: number, slotBytes: number, pages: number): number {
  if (memoryBytes === undefined) return pages;
  return Math.min(pages, Math.max(0, Math.floor((memoryBytes - stateBytes) / slotBytes)));
}


/**
 * Assigns the pages of `graph[orientation]` to `params.elements` for a CPU share alpha with the
 * given strategy (file header). Deterministic: RAND depends only on the seed.
 */
export function partitionGraph(graph: Graph, params: Pick<ModelParams, 'elements' | 'gpuStateBytes' | 'pageWeights'>, opts: PartitionOptions): Partition {
  // What a GPU holds of a page: without its weights for a program that reads none (gpu-actor.ts).
  const pageBytes = params.pageWeights === false && graph.weightType !== undefined ? pageBytesWithoutWeights : pageBufferBytes;
  const els = params.elements;
  if (els.length === 0) throw new RangeError('partitionGraph: no elements');
  if (els.length > 254) throw new RangeError('partitionGraph: at most 254 elements (boundaryTraffic stamps element + 1 in a byte)');
  const orientation = opts.orientation ?? 'in';
  const seed = opts.seed ?? DEFAULT_PARTITION_SEED;
  const set = graph[orientation];
  const other = graph[orientation === 'in' ? 'out' : 'in'];
  const pages = set.pages;
  const units = unitsOf(set);
  const U = units.edges.length;
  let total = 0;
  for (let u = 0; u < U; u++) total += units.edges[u]!;

  const order = unitOrder(U, opts.strategy === 'rand' ? seed : undefined);
  const prefix = new Float64Array(U + 1);
  for (let i = 0; i < U; i++) prefix[i + 1] = prefix[i]! + units.edges[order[i]!]!;

  // Element order along the unit order: LOW puts the GPUs first.
  const idx = els.map((_, i) => i);
  const cpuIdx = idx.filter((i) => els[i]!.kind === 'cpu');
  const gpuIdx = idx.filter((i) => els[i]!.kind === 'gpu');
  const seq = opts.strategy === 'low' ? [...gpuIdx, ...cpuIdx] : [...cpuIdx, ...gpuIdx];
  const targets = splitShares(els, opts.alpha, total);

  // Cut the ordered units at the prefix nearest each cumulative target.
  const unitOwner = new Uint8Array(U);
  let lo = 0;
  let cum = 0;
  for (let k = 0; k < seq.length; k++) {
    const e = seq[k]!;
    cum += targets[e]!;
    let hi: number;
    if (k === seq.length - 1 || cum >= total) hi = U;
    else if (targets[e]! <= 0) hi = lo;
    else hi = nearestCut(prefix, lo, cum);
    for (let i = lo; i < hi; i++) unitOwner[order[i]!] = e;
    lo = hi;
  }
  const multiGpu: MultiGpu = gpuIdx.length > 1 ? (opts.multiGpu ?? 'p') : 'p';
  if (multiGpu === 's') {
    // GTS §4.1: the GPU side's units dealt round-robin (h(j) = j mod N), in stripes of
    // consecutive units so that no GPU owns more than MAX_DEALT_RANGES ranges (dealStripe).
    const side: number[] = [];
    for (let i = 0; i < U; i++) if (els[unitOwner[order[i]!]!]!.kind === 'gpu') side.push(order[i]!);
    const stripe = dealStripe(side.length, gpuIdx.length);
    side.forEach((u, i) => (unitOwner[u] = gpuIdx[Math.floor(i / stripe) % gpuIdx.length]!));
  }

  // Per element: pages (ascending), ranges, counts.
  const owner = new Uint8Array(graph.numVertices);
  const pageLists: number[][] = els.map(() => []);
  for (let u = 0; u < U; u++) {
    const e = unitOwner[u]!;
    for (let i = units.first[u]!; i < units.first[u + 1]!; i++) pageLists[e]!.push(i);
  }
  // RAND and dealt units: a GPU owning several ranges also keeps a byte per vertex saying which are its own.
  const stateBytes = (params.gpuStateBytes ?? 0) + (opts.strategy === 'rand' || multiGpu === 's' ? graph.numVertices : 0);
  let feasible = true;
  let problem: string | undefined;
  let cpuEdges = 0;
  const parts: ElementPart[] = els.map((el, e) => {
    const list = pageLists[e]!;
    const ranges: Array<[number, number]> = [];
    let edges = 0;
    let bytes = 0;
    let vertices = 0;
    let slotBytes = 0;
    for (const i of list) {
      const p = pages[i]!;
      edges += p.edges;
      bytes += pageBytes(p);
      slotBytes = Math.max(slotBytes, pageBytes(p));
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last[1] === p.vBegin) last[1] = p.vEnd;
      else if (last === undefined || last[1] < p.vEnd) ranges.push([p.vBegin, p.vEnd]);
      owner.fill(e, p.vBegin, p.vEnd);
    }
    for (const [b, en] of ranges) vertices += en - b;
    if (el.kind === 'cpu') cpuEdges += edges;
    // A GPU registers the other orientation's pages over its ranges too, and its cache's slots fit
    // the largest page it registered (controller.cpp, ensureCache).
    if (el.kind === 'gpu' && other !== set) slotBytes = Math.max(slotBytes, largestOver(other.pages, ranges, pageBytes));
    let resident = list.length;
    if (el.kind === 'gpu' && list.length > 0) {
      resident = gpuSlots(el.memoryBytes, stateBytes, slotBytes, list.length);
      if (resident === 0 && feasible) {
        feasible = false;
        problem = `${el.name} cannot hold its vertex state (${stateBytes} B) plus one page slot (${slotBytes} B) in ${el.memoryBytes} B`;
      }
    }
    let residentBytes = 0;
    for (let k = 0; k < resident; k++) residentBytes += pageBytes(pages[list[k]!]!);
    return {
      name: el.name,
      kind: el.kind,
      pages: Uint32Array.from(list),
      ranges,
      edges,
      vertices,
      bytes,
      residentPages: resident,
      streamedPages: list.length - resident,
      residentBytes,
      streamedBytes: bytes - residentBytes,
    };
  });
  const part: Partition = {
    strategy: opts.strategy,
    multiGpu,
    alphaRequested: opts.alpha,
    alpha: total > 0 ? cpuEdges / total : 1,
    orientation,
    seed,
    totalEdges: total,
    elements: parts,
    owner,
    feasible,
    ...(problem !== undefined ? { problem } : {}),
  };
  markDerived(part);
  return part;
}

export interface BoundaryTraffic extends Traffic {
  /** Messages crossing a link before aggregation (one per boundary edge). */
  messagesRaw: number;
  /** Messages between two CPU sockets after aggregation (host memory: no link crossed). */
  hostMessages: number;
  /** messages[p][q] after aggregation, p = the element whose pages hold the edge, row-major k x k. */
  matrix: Float64Array;
}

/**
 * Boundary messages of a partition after aggregation at the source (TOTEM §3.4), counted exactly
 * over the partition's pages: element p holding an edge to a neighbour w owned by q != p exchanges
 * one message per superstep about w, whatever the number of such edges. Over in-pages (pull) that
 * is q sending w's value to p; over out-pages (push) p sending its update for w to q. A message
 * crosses a link when p or q is a GPU (counted on each GPU's link it uses).
 *
 * Two elements that split the ids at one boundary (HIGH or LOW on one socket and one GPU: what
 * `--alpha auto` sweeps) are answered from counts per boundary made once per page set
 * (`twoSideCounts`), so a sweep costs one pass over the edges instead of one per point.
 */
export function boundaryTraffic(graph: Graph, part: Partition): BoundaryTraffic {
  const m = twoSideMatrices(graph, part) ?? countMatrices(graph, part);
  return trafficOf(part, m.agg, m.raw);
}

/** boundaryTraffic by the pass over the partition's pages alone (any partition; boundary-count.ts). */
export function boundaryTrafficExact(graph: Graph, part: Partition): BoundaryTraffic {
  const m = countMatrices(graph, part);
  return trafficOf(part, m.agg, m.raw);
}

function trafficOf(part: Partition, agg: Float64Array, raw: Float64Array): BoundaryTraffic {
  const k = part.elements.length;
  const perLink = new Array<number>(k).fill(0);
  const perPeer = new Array<number>(k).fill(0);
  let messages = 0;
  let messagesRaw = 0;
  let hostMessages = 0;
  for (let p = 0; p < k; p++)
    for (let q = 0; q < k; q++) {
      if (p === q) continue;
      const pg = part.elements[p]!.kind === 'gpu';
      const qg = part.elements[q]!.kind === 'gpu';
      const m = agg[p * k + q]!;
      if (!pg && !qg) {
        hostMessages += m;
        continue;
      }
      messages += m;
      messagesRaw += raw[p * k + q]!;
      if (pg) perLink[p]! += m;
      if (qg) perLink[q]! += m;
      if (pg && qg) (perPeer[p]! += m), (perPeer[q]! += m);
    }
  return { messages, messagesRaw, hostMessages, perLink, perPeer, matrix: agg };
}

/** The 2 x 2 matrices of a partition of two elements cut at one unit boundary; null otherwise. */
function twoSideMatrices(graph: Graph, part: Partition): { agg: Float64Array; raw: Float64Array } | null {
  if (part.elements.length !== 2) return null;
  if (part.strategy === 'rand') return randMatrices(graph, part);
  const n = graph.numVertices;
  const r0 = part.elements[0]!.ranges;
  const r1 = part.elements[1]!.ranges;
  if (r0.length > 1 || r1.length > 1) return null;
  // Which element holds [0, cut) (an element with no pages holds the empty side).
  let left: number;
  let cut: number;
  if (r0.length === 0 && r1.length === 1 && r1[0]![0] === 0 && r1[0]![1] === n) (left = 0, (cut = 0));
  else if (r1.length === 0 && r0.length === 1 && r0[0]![0] === 0 && r0[0]![1] === n) (left = 0, (cut = n));
  else if (r0.length === 1 && r1.length === 1 && r0[0]![0] === 0 && r0[0]![1] === r1[0]![0] && r1[0]![1] === n) (left = 0, (cut = r0[0]![1]));
  else if (r0.length === 1 && r1.length === 1 && r1[0]![0] === 0 && r1[0]![1] === r0[0]![0] && r0[0]![1] === n) (left = 1, (cut = r1[0]![1]));
  else return null;
  const c = twoSideCounts(graph, part.orientation);
  if (c === null) return null;
  // The unit boundary j with s_j = cut.
  let a = 0;
  let b = c.starts.length - 1;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (c.starts[m]! < cut) a = m + 1;
    else b = m;
  }
  if (c.starts[a] !== cut) return null;
  return cutMatrices(c, left, a);
}

/** The 2 x 2 matrices of the cut after the first j units of the order, `left` holding them. */
function cutMatrices(c: TwoSideCounts, left: number, j: number): { agg: Float64Array; raw: Float64Array } {
  const right = 1 - left;
  const agg = new Float64Array(4);
  const raw = new Float64Array(4);
  agg[left * 2 + right] = c.aggLR[j]!;
  agg[right * 2 + left] = c.aggRL[j]!;
  raw[left * 2 + right] = c.rawLR[j]!;
  raw[right * 2 + left] = c.rawRL[j]!;
  return { agg, raw };
}

/**
 * RAND on two elements: the first of partitionGraph's sequence (the CPU one) holds a prefix of the
 * shuffled units, its page count's worth; the counts of that cut in the shuffled order.
 */
function randMatrices(graph: Graph, part: Partition): { agg: Float64Array; raw: Float64Array } | null {
  const left = part.elements.findIndex((e) => e.kind === 'cpu');
  if (left < 0 || part.elements.every((e) => e.kind === 'cpu')) return null;
  const c = twoSideCounts(graph, part.orientation, part.seed);
  if (c === null) return null;
  // The cut: how many units the left element holds (its pages' distinct unit positions), and they
  // must be the first positions of the order.
  const mine = part.elements[left]!.pages;
  let units = 0;
  let maxPos = -1;
  let prev = -1;
  for (let i = 0; i < mine.length; i++) {
    const u = c.pageUnit[mine[i]!]!;
    if (u !== prev) units++;
    prev = u;
    if (u > maxPos) maxPos = u;
  }
  if (maxPos + 1 !== units) return null;
  return cutMatrices(c, left, units);
}

/**
 * The model's input for one element from a partition; with `levels` (pushLevels over the out-pages
 * a push partition cuts) its edges per level too.
 */
export function loadsOf(part: Partition, levels?: Float64Array[], gpuWorkByVertices = false): ElementLoad[] {
  const perLevel = levels !== undefined && part.orientation === 'out';
  const loads = part.elements.map((e) => ({
    edges: e.edges,
    vertices: e.vertices,
    ranges: e.ranges.length,
    residentBytes: e.kind === 'gpu' ? e.residentBytes : 0,
    streamedBytes: e.kind === 'gpu' ? e.streamedBytes : 0,
    ...(perLevel ? { levels: levelEdgesOf(levels, e.pages) } : {}),
  }));
  if (!gpuWorkByVertices || perLevel) return loads;
  // ModelParams.gpuWorkByVertices: the GPUs' edges together, shared by the vertices each owns.
  const gpus = part.elements.flatMap((e, i) => (e.kind === 'gpu' ? [i] : []));
  let edges = 0, vertices = 0;
  for (const i of gpus) (edges += loads[i]!.edges), (vertices += loads[i]!.vertices);
  if (gpus.length > 1 && vertices > 0) for (const i of gpus) loads[i]!.edges = (edges * loads[i]!.vertices) / vertices;
  return loads;
}

/** A partition's prediction: its exact loads and boundary traffic through model.ts predict. */
export function predictPartition(graph: Graph, params: ModelParams, part: Partition): { prediction: Prediction; traffic: BoundaryTraffic } {
  const traffic = boundaryTraffic(graph, part);
  return { prediction: predict(params, loadsOf(part, params.levelPageEdges, params.gpuWorkByVertices), traffic), traffic };
}

/** One point of a sweep: what the partition looks like and what the model predicts. */
export interface SweepPoint {
  strategy: Strategy;
  multiGpu: MultiGpu;
  alphaRequested: number;
  feasible: boolean;
  problem?: string;
  /** Beta before aggregation (boundary edges / |E|), for TOTEM's Figure 4 comparison. */
  betaRaw: number;
  /** Pages streamed each superstep, over all GPUs. */
  streamedPages: number;
  streamedBytes: number;
  prediction: Prediction;
  parts: Array<Omit<ElementPart, 'pages' | 'ranges'>>;
}

export interface SweepOptions {
  strategies?: readonly Strategy[];
  /** Several GPUs: the ways to share the GPU side (default ['p']). */
  multiGpu?: readonly MultiGpu[];
  /** Alpha steps (the grid is 0, 1/steps, ..., 1); default 20. */
  steps?: number;
  orientation?: Orientation;
  seed?: number;
}

export function sweepPoint(graph: Graph, params: ModelParams, part: Partition): SweepPoint {
  const { prediction, traffic } = predictPartition(graph, params, part);
  let streamedPages = 0;
  let streamedBytes = 0;
  for (const e of part.elements) {
    streamedPages += e.streamedPages;
    streamedBytes += e.streamedBytes;
  }
  return {
    strategy: part.strategy,
    multiGpu: part.multiGpu,
    alphaRequested: part.alphaRequested,
    feasible: part.feasible,
    ...(part.problem !== undefined ? { problem: part.problem } : {}),
    betaRaw: part.totalEdges > 0 ? traffic.messagesRaw / part.totalEdges : 0,
    streamedPages,
    streamedBytes,
    prediction,
    parts: part.elements.map(({ pages: _p, ranges: _r, ...rest }) => rest),
  };
}

/** The model over a grid of alphas for each strategy (one O(|E|) boundary count per point). */
export function sweep(graph: Graph, params: ModelParams, opts: SweepOptions = {}): SweepPoint[] {
  const hasGpu = params.elements.some((e) => e.kind === 'gpu');
  const strategies = hasGpu ? (opts.strategies ?? STRATEGIES) : (['high'] as const);
  const points: SweepPoint[] = [];
  for (const multiGpu of multiGpuModes(params, opts.multiGpu))
    for (const strategy of strategies)
      for (const alpha of alphaGrid(opts.steps ?? 20, hasGpu))
        points.push(sweepPoint(graph, params, partitionGraph(graph, params, { strategy, multiGpu, alpha, orientation: opts.orientation, seed: opts.seed })));
  return points;
}

/** The multi-GPU ways worth predicting: those asked for with two GPUs or more, else 'p' alone (the same partition). */
export function multiGpuModes(params: Pick<ModelParams, 'elements'>, asked: readonly MultiGpu[] | undefined): readonly MultiGpu[] {
  return params.elements.filter((e) => e.kind === 'gpu').length > 1 ? (asked ?? ['p']) : ['p'];
}

/**
 * The smallest alpha on the grid at which every GPU holds all its pages (no streaming) for a
 * strategy, or undefined when even alpha = 1 does not fit (a GPU that has no pages always fits).
 */
export function minResidentAlpha(graph: Graph, params: ModelParams, strategy: Strategy, steps = 20, opts: Pick<SweepOptions, 'orientation' | 'seed'> = {}): number | undefined {
  const hasGpu = params.elements.some((e) => e.kind === 'gpu');
  for (const alpha of alphaGrid(steps, hasGpu)) {
    const p = partitionGraph(graph, params, { strategy, alpha, ...opts });
    if (p.feasible && p.elements.every((e) => e.streamedPages === 0)) return alpha;
  }
  return undefined;
}

export interface ChooseOptions extends SweepOptions {
  /** 'auto': the strategy with the smallest predicted makespan. */
  partition?: Strategy | 'auto';
  /** Several GPUs: 'p', 's', or 'auto' (the faster predicted); absent: any point given. */
  multiGpuChoice?: MultiGpu | 'auto';
  /** 'auto': the best alpha of the grid; a number: that alpha. */
  alpha?: number | 'auto';
  /** Allow GPU pages that do not fit to be streamed (default true); false pushes alpha up until they fit. */
  allowStreaming?: boolean;
}

export interface Choice {
  /** The chosen partition (with page lists and the owner map the engine needs). */
  partition: Partition;
  point: SweepPoint;
  /** Every point considered (the sweep), for reports and `tessera model`. */
  points: SweepPoint[];
}

/**
 * The best point among `points` for the options (TOTEM: the model chooses alpha and HIGH/LOW/RAND
 * subject to each GPU's memory): infeasible points are dropped, and streaming ones when streaming
 * is not allowed (which pushes alpha up until the GPUs' pages fit); then the smallest predicted
 * makespan. Undefined when no point qualifies.
 */
export function bestPoint(points: SweepPoint[], opts: Pick<ChooseOptions, 'partition' | 'alpha' | 'allowStreaming' | 'multiGpuChoice'> = {}): SweepPoint | undefined {
  const qualify = points.filter(
    (p) =>
      p.feasible &&
      (opts.allowStreaming !== false || p.streamedPages === 0) &&
      (opts.multiGpuChoice === undefined || opts.multiGpuChoice === 'auto' || p.multiGpu === opts.multiGpuChoice) &&
      (opts.partition === undefined || opts.partition === 'auto' || p.strategy === opts.partition) &&
      (typeof opts.alpha !== 'number' || p.alphaRequested === opts.alpha),
  );
  const b = best(qualify);
  // All on the GPUs or all on the CPU, the strategies split nothing: name the default (HIGH)
  // rather than whichever one rounding made a nanosecond faster.
  if (b !== undefined && b.strategy !== 'high' && (b.prediction.alpha === 0 || b.prediction.alpha === 1)) {
    const high = qualify.find((p) => p.strategy === 'high' && p.multiGpu === b.multiGpu && p.prediction.alpha === b.prediction.alpha && p.prediction.makespanS <= b.prediction.makespanS * 1.001);
    if (high !== undefined) return high;
  }
  return b;
}

/** Smallest alpha of the points of a strategy at which no GPU page is streamed (see bestPoint). */
export function minResidentAlphaOf(points: SweepPoint[], strategy: Strategy): number | undefined {
  let a: number | undefined;
  for (const p of points)
    if (p.strategy === strategy && p.feasible && p.streamedPages === 0 && (a === undefined || p.alphaRequested < a)) a = p.alphaRequested;
  return a;
}

/**
 * Picks a strategy and alpha for a run: sweeps what is 'auto' (strategies, and the alpha grid),
 * keeps bestPoint, and rebuilds that partition with its page lists and owner map for the engine.
 * Undefined when no point qualifies (e.g. a GPU too small for its state at any alpha < 1 and
 * alpha = 1 excluded by the caller).
 */
export function choosePartition(graph: Graph, params: ModelParams, opts: ChooseOptions = {}): Choice | undefined {
  const hasGpu = params.elements.some((e) => e.kind === 'gpu');
  const strategies = !hasGpu ? (['high'] as const) : opts.partition === undefined || opts.partition === 'auto' ? (opts.strategies ?? STRATEGIES) : [opts.partition];
  const alphas = typeof opts.alpha === 'number' ? [opts.alpha] : alphaGrid(opts.steps ?? 20, hasGpu);
  const points: SweepPoint[] = [];
  for (const multiGpu of multiGpuModes(params, opts.multiGpu))
    for (const strategy of strategies)
      for (const alpha of alphas)
        points.push(sweepPoint(graph, params, partitionGraph(graph, params, { strategy, multiGpu, alpha, orientation: opts.orientation, seed: opts.seed })));
  const b = bestPoint(points, { allowStreaming: opts.allowStreaming });
  if (b === undefined) return undefined;
  const partition = partitionGraph(graph, params, { strategy: b.strategy, multiGpu: b.multiGpu, alpha: b.alphaRequested, orientation: opts.orientation, seed: opts.seed });
  return { partition, point: b, points };
}

/**
 * The vertex ranges each GPU of the topology owns under RAND, or with several GPUs sharing dealt
 * pages (multiGpu 's'), for a GPU share of the edges: the model's partition with the engine's
 * split of each side (sockets by threads, GPUs equally), so what runs is what `tessera model`
 * predicted (EngineOptions.ownership).
 */
export function modelOwnership(
  graph: Graph,
  topology: Topology,
  share: number,
  opts: { strategy: Strategy; multiGpu?: MultiGpu; orientation?: Orientation; seed?: number },
): Array<Array<[number, number]>> {
  if (topology.gpus.length === 0) return [];
  const elements: ModelElement[] = [
    ...topology.sockets.map((s): ModelElement => ({ name: `socket${s.id}`, kind: 'cpu', rate: s.threads, threads: s.threads })),
    ...topology.gpus.map((g): ModelElement => ({ name: `gpu${g.device}`, kind: 'gpu', rate: 1 })),
  ];
  const part = partitionGraph(graph, { elements }, {
    strategy: opts.strategy,
    multiGpu: opts.multiGpu,
    alpha: 1 - share,
    orientation: opts.orientation ?? 'in',
    seed: opts.seed ?? DEFAULT_PARTITION_SEED,
  });
  return part.elements.filter((e) => e.kind === 'gpu').map((e) => e.ranges);
}
