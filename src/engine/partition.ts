/**
 * The CPU/GPU split (TOTEM's partitioning): every GPU actor owns a fixed set of internal vertex
 * ids for the whole run, as a sorted list of disjoint ranges; the CPU sockets share the rest (the
 * complement). Ids are renumbered by descending degree, so with HIGH (default) each GPU takes one
 * range of the tail of the id space — the many low-degree vertices — and the CPU sockets the hubs
 * (TOTEM's placement of high-degree vertices on the CPU); with LOW the GPUs take the head (the
 * hubs). RAND (TOTEM's random baseline) is the model's page choice (src/model/partition.ts
 * modelOwnership): page units shuffled with a seeded xoshiro128** and cut by edges, so a GPU owns
 * the vertex ranges of its pages, merged where adjacent — `tessera model --partition rand`
 * predicts what runs. The engine does not import the model: run() and openSession (src/api.ts)
 * compute those ranges and hand them over as EngineOptions.ownership.
 */
import { TesseraError } from '../errors.js';
import type { Graph, Orientation, Page } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';

/**
 * Fraction of the edges real GPUs take when nothing else says: all. On the H100 host GPU-only beat
 * the even split for every program, 1.5-9x (RMAT 24: PageRank 85 vs 802 ms, CDLP at 1 GiB 2204 vs
 * 6186, SSSP 1630 vs 2531, WCC 258 vs 578; bench/results/h100-2026-11-23i), and `--alpha auto`
 * finds the splits that beat it (CDLP's LOW 0.05).
 */
export const DEFAULT_GPU_SHARE = 1;
/** The same for emulated GPUs: half (their kernels run on host threads, about a socket's speed). */
export const EMULATED_GPU_SHARE = 0.5;

/**
 * One run (`tessera run`, the library's run()) leaves a detected GPU idle on graphs below these
 * (edges; for `tessera run`, which decides before the read, a file's bytes): the GPU's start
 * (context, registration, copies: ~0.1 s of `tessera run` on an H200 host) costs more than it
 * saves there. Warm on that host, one GPU against the 16 cores at RMAT 16 (0.95 M edges) saved at
 * most 64 ms (lcc, tc) and lost up to 7 ms (scc); at RMAT 18 (3.94 M) cdlp, louvain, lcc and tc
 * saved 87-373 ms (bench/results/h200-2026-11-29-small-gpu). Sessions keep it: they pay the start once.
 */
export const SMALL_GPU_EDGES = 2 << 20;
export const SMALL_GPU_BYTES = 32 << 20;

/**
 * Fraction of the (in-)edges the GPUs own together, in [0, 1]: EngineOptions.gpuShare, else the
 * topology's model.gpuShare, else DEFAULT_GPU_SHARE (EMULATED_GPU_SHARE when every GPU is
 * emulated). This is the one place a performance model (issue 7: CPU and GPU processing rates,
 * link bandwidth) plugs in to pick the split.
 */
export function gpuShareFor(_graph: Graph, topology: Topology, option: number | undefined): number {
  if (topology.gpus.length === 0) return 0;
  const share = option ?? topology.model.gpuShare ?? (topology.gpus.every((g) => g.emulated) ? EMULATED_GPU_SHARE : DEFAULT_GPU_SHARE);
  if (!(share >= 0 && share <= 1))
    throw new TesseraError(`gpuShare ${share} is not a fraction`, {
      file: option === undefined ? topology.source : undefined,
      key: option === undefined ? 'model.gpuShare' : 'gpuShare',
      fix: 'use a number from 0 (CPU sockets do everything) to 1 (GPUs do everything)',
    });
  return share;
}

export type RunnableStrategy = 'high' | 'low' | 'rand';

/**
 * How several GPU actors share the GPUs' vertices (issue 26's names, after GTS §4):
 *   'p'  each GPU owns one range of about equal in-edges and walks only its own pages (a vertex
 *        partition; GTS's strategy for scalability also gives each GPU its own part of the state);
 *   's'  the GPU side's pages dealt round-robin (GTS §4.1's h(j) = j mod N, in stripes: dealStripe),
 *        so each GPU owns many ranges, hubs and tail alike; every GPU holds the whole state and
 *        the owned ranges are merged device to device each superstep (GTS's strategy for
 *        performance). Balances vertices as well as edges, at a cost per owned range.
 */
export type MultiGpu = 'p' | 's';

/**
 * The most ranges one GPU owns under 's': each owned range costs copies every superstep (peer
 * copies, readbacks, frontier slices), so the units are dealt in stripes of consecutive units.
 */
export const MAX_DEALT_RANGES = 32;

/** Units per stripe when `units` units are dealt round-robin to `gpus` GPUs (at most MAX_DEALT_RANGES each). */
export function dealStripe(units: number, gpus: number): number {
  return Math.max(1, Math.ceil(units / (gpus * MAX_DEALT_RANGES)));
}

/** Sorted, disjoint, non-empty [begin, end) ranges of internal vertex ids. */
export type VertexRanges = Array<[number, number]>;

/** RAND's default shuffle seed (the model's `--seed`, the engine's `partitionSeed`). */
export const DEFAULT_PARTITION_SEED = 1;

/**
 * [begin, end) per GPU: the tail of the id space holding about `share` of the in-edges, cut into
 * one range per GPU of about equal edges. Cuts fall between vertices (so never inside the split
 * pages of one vertex), not necessarily between pages: a page straddling a cut is walked by both
 * sides, each keeping only its own vertices (the CPU tasks stop at the cut, the GPU reads back only
 * its range), which costs at most one page of redundant work per cut.
 */

export function gpuRanges(graph: Graph, gpus: number, share: number, strategy: 'high' | 'low' = 'high'): Array<[number, number]> {
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

export interface OwnershipOptions {
  strategy?: RunnableStrategy;
  /** Several GPUs: 'p' (default) or 's' (the model's dealt pages: MultiGpu). */
  multiGpu?: MultiGpu;
  /** RAND: the page set whose units are shuffled, as the model's ('in' for pull programs, 'out' for push). */
  orientation?: Orientation;
  /** RAND seed (default DEFAULT_PARTITION_SEED, the model's). */
  seed?: number;
}

/** A multiGpu option for a topology: 'p' or 's', and only with two GPU actors or more (never ignored). */
export function checkMultiGpu(multiGpu: unknown, topology: Topology): void {
  if (multiGpu === undefined) return;
  if (multiGpu !== 'p' && multiGpu !== 's')
    throw new TesseraError(`multiGpu '${String(multiGpu)}' is not a strategy`, { key: 'multiGpu', fix: "use 'p' (one range per GPU) or 's' (pages dealt round-robin)" });
  if (topology.gpus.length < 2)
    throw new TesseraError(`multiGpu '${multiGpu}' shares work between GPUs, and this topology has ${topology.gpus.length === 0 ? 'none' : 'one'}`, {
      file: topology.source,
      key: 'multiGpu',
      fix: 'drop it, or use a topology with two GPUs or more (e.g. configs/1S2G.yaml or configs/1S2G-emulated.yaml)',
    });
}

/** The owned ranges of each GPU of the topology for a GPU share of the edges (file header). */
export function gpuOwnership(graph: Graph, topology: Topology, share: number, opts: OwnershipOptions = {}): VertexRanges[] {
  const gpus = topology.gpus.length;
  if (gpus === 0) return [];
  const strategy = opts.strategy ?? 'high';
  if (opts.multiGpu === 's' && gpus > 1) {
    throw new TesseraError("multiGpu 's' takes its ranges from the performance model's dealt pages", {
      key: 'multiGpu',
      fix: "run it through run() or openSession (they compute the ranges), or pass ownership: modelOwnership(...) from the model",
    });
  }
  if (strategy === 'rand') {
    throw new TesseraError("partition 'rand' takes its ranges from the performance model", {
      key: 'partition',
      fix: 'run it through run() or openSession (they compute the ranges), or pass ownership: modelOwnership(...) from the model',
    });
  }
  return gpuRanges(graph, gpus, share, strategy).map(([b, e]): VertexRanges => (e > b ? [[b, e]] : []));
}

/**
 * Checks explicit ownership (EngineOptions.ownership): one list per GPU, each sorted, disjoint,
 * non-empty ranges inside [0, n), no vertex owned twice. Returns the lists normalised (merged
 * where adjacent).
 */
export function checkOwnership(owned: ReadonlyArray<ReadonlyArray<readonly [number, number]>>, gpus: number, n: number): VertexRanges[] {
  const bad = (problem: string): TesseraError =>
    new TesseraError(`ownership: ${problem}`, { key: 'ownership', fix: 'give one list per GPU of sorted, disjoint [begin, end) ranges of internal ids in [0, numVertices), no vertex in two lists' });
  if (owned.length !== gpus) throw bad(`${owned.length} lists for ${gpus} GPU actors`);
  const out = owned.map((list, g) => {
    const merged: VertexRanges = [];
    let prev = 0;
    for (const [b, e] of list) {
      if (!Number.isInteger(b) || !Number.isInteger(e) || b < prev || e <= b || e > n)
        throw bad(`GPU ${g}: range [${b}, ${e}) is empty, unsorted, overlapping or outside [0, ${n})`);
      const last = merged[merged.length - 1];
      if (last !== undefined && last[1] === b) last[1] = e;
      else merged.push([b, e]);
      prev = e;
    }
    return merged;
  });
  const all = out.flat().sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < all.length; i++) if (all[i]![0] < all[i - 1]![1]) throw bad(`vertex ${all[i]![0]} is owned by two GPUs`);
  return out;
}

/** The ranges of [0, n) no list owns (the CPU sockets' vertices), sorted. */
export function complementRanges(owned: readonly VertexRanges[], n: number): VertexRanges {
  const all = owned.flat().sort((x, y) => x[0] - y[0]);
  const out: VertexRanges = [];
  let at = 0;
  for (const [b, e] of all) {
    if (b > at) out.push([at, b]);
    at = Math.max(at, e);
  }
  if (at < n) out.push([at, n]);
  return out;
}

/**
 * Sum of deg[v] over the ranges; with `pages` (that orientation's, in vertex order) a page the
 * ranges hold whole counts its edges, and only the pages they cut are summed a vertex at a time
 * (a pass over RMAT 24's 16.8 M degrees cost a session's first GPU run ~30 ms, cold).
 */
export function rangeEdges(ranges: VertexRanges, deg: ArrayLike<number>, pages?: ReadonlyArray<Pick<Page, 'vBegin' | 'vEnd' | 'edges'>>): number {
  let s = 0;
  for (const [b, e] of ranges) {
    if (pages === undefined) {
      for (let v = b; v < e; v++) s += deg[v]!;
      continue;
    }
    // The first page ending after b (vEnd ascends: a split vertex's pages share theirs).
    let lo = 0;
    let hi = pages.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (pages[m]!.vEnd <= b) lo = m + 1;
      else hi = m;
    }
    for (let i = lo; i < pages.length && pages[i]!.vBegin < e; i++) {
      const p = pages[i]!;
      if (p.vBegin >= b && p.vEnd <= e) s += p.edges;
      else for (let v = Math.max(b, p.vBegin), end = Math.min(e, p.vEnd); v < end; v++) s += deg[v]!;
    }
  }
  return s;
}

/** Whether [b, e) meets any of the sorted, disjoint ranges (binary search). */
export function overlapsRanges(ranges: VertexRanges, b: number, e: number): boolean {
  let lo = 0;
  let hi = ranges.length;
  // First range ending after b.
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (ranges[m]![1] <= b) lo = m + 1;
    else hi = m;
  }
  return lo < ranges.length && ranges[lo]![0] < e;
}

/** Vertices in the ranges. */
export function rangeVertices(ranges: VertexRanges): number {
  let s = 0;
  for (const [b, e] of ranges) s += e - b;
  return s;
}

/** The parts of the sorted, disjoint ranges inside [b, e). */
export function intersectRanges(ranges: VertexRanges, b: number, e: number): VertexRanges {
  const out: VertexRanges = [];
  for (const [x, y] of ranges) {
    const lo = Math.max(x, b);
    const hi = Math.min(y, e);
    if (lo < hi) out.push([lo, hi]);
  }
  return out;
}

/** Ranges in any order, overlapping or touching, as sorted disjoint ranges (sorts `spans` in place). */
export function mergeRanges(spans: Array<[number, number]>): VertexRanges {
  spans.sort((a, b) => a[0] - b[0]);
  const out: VertexRanges = [];
  for (const [b, e] of spans) {
    const last = out[out.length - 1];
    if (last !== undefined && b <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([b, e]);
  }
  return out;
}
