/**
 * RawEdges (original ids) -> Graph (pages in internal ids).
 *
 * 1. ids (build/ids.ts): raw degrees counted by original id (or by dense rank when ids are
 *    sparse), then renumbering by total degree, descending (Graphie-style renaming:
 *    degree-homogeneous pages, so TOTEM's HIGH/LOW partitioning is a cut at a page boundary);
 * 2. staging (build/scatter.ts): a counting sort of the raw edges by source into chunked staging
 *    positions (both ways when undirected), each raw chunk released once read;
 * 3. out-pages (build/assemble.ts): page by page, each list sorted in place (build/lists.ts),
 *    self-loops and repeated edges dropped (smallest weight kept), written into an exact-size
 *    page; staging chunks released as they are consumed. In-degrees are the raw in-counts of
 *    phase 1 minus the dropped edges;
 * 4. directed graphs: in-pages allocated at their exact size and filled by transposing the
 *    out-pages (build/transpose.ts; lists come out sorted by source).
 * The result is the one the earlier single-pass builder gave, bit for bit (same ids, page cuts,
 * lists, weights and counts).
 *
 * Large inputs are built by several threads (build/team.ts, worker_threads over
 * SharedArrayBuffers, driven synchronously): raw chunks are shared out in order, each thread
 * counts into tables of its own and scatters with cursors that start after the earlier threads'
 * edges; out-pages are cut into page ranges, in-pages into target ranges. No two threads write
 * the same word, so the result does not depend on the number of threads.
 *
 * The raw lists are consumed (empty afterwards; a vertex list is kept). Peak memory is the raw
 * edges (8 B/edge, 12 or 16 weighted) plus the staging area (4 B per stored edge, +4 or 8
 * weighted) plus 12 + 4 x threads bytes per vertex id (ids, cursors, layout, in-degrees) and
 * 8-12 MB a thread of scatter scratch, reached while the first raw chunks are scattered;
 * afterwards the staging area and the out-pages, then the out- and in-pages (plus up to 64 MB a
 * thread of transpose buffers), take less. Phases are separated by a garbage collection
 * (build/gc.ts) so that what one phase released is gone before the next allocates.
 */
import { TesseraError } from '../errors.js';
import { CHUNK, type U32List } from './chunked.js';
import { outPagesTaken, outUnits, reindexed, type OutRange, type OutTaken } from './build/assemble.js';
import { firstPages } from './first-pages.js';
import { fillInPages, type TransposeMode } from './build/transpose.js';
import { collectGarbage } from './build/gc.js';
import { allocCounts, allocCursors, countChunks, cursorsRange, degreeHistogram, degreesRange, degreeTables, idMapsRange, keySpace, placeRange, renumber, scanChunks, type CountTables, type IdPlan, type KeySpace } from './build/ids.js';
import { allocStaging, scatterShare, type RawShare, type Staging } from './build/scatter.js';
import { defaultThreads, Team, type Task } from './build/team.js';
import { layoutPages, planPages, type PagePlan } from './pages.js';
import type { Graph, Page, PageSet, RawEdges, WeightArray, WeightType } from './types.js';
import { DEFAULT_PAGE_EDGES } from './types.js';
import { checkBoolean, checkOneOf, checkOptions, describe } from './options.js';
import { toRawEdges, type EdgeArrays } from './raw-input.js';

export type { EdgeArrays } from './raw-input.js';

/** Edge count from which phases are separated by a garbage collection. */
const BIG = 1 << 22;

export interface BuildOptions {
  /** Target edges per page (default 2^20). */
  pageEdges?: number;
  /** 'degree' (default): renumber by descending degree; 'none': keep ascending original order. */
  renumber?: 'degree' | 'none';
  /** Override the input's directedness (false: every edge is stored both ways). */
  directed?: boolean;
  /** Store weights as float32 or float64 (default: the input's type); 'none' drops them. */
  weightType?: WeightType | 'none';
  /**
   * Threads to build with, this one included (default: the available cores, at most 4, for
   * inputs of 2^21 edges or more; 1 below). The result does not depend on it.
   */
  threads?: number;
  /** Called after each build phase with its name and wall time (progress, benchmarks). */
  onPhase?: (phase: BuildPhase, ms: number) => void;
}

export type BuildPhase = 'ids' | 'staging' | 'out-pages' | 'in-pages';

export interface BuildStats {
  selfLoopsDropped: number;
  duplicatesDropped: number;
}

export type BuiltGraph = Graph & { readonly build: BuildStats };

/** Internal knobs for tests: force the float64 cursors used beyond 2^32 staging positions. */
export interface BuildInternals {
  wideCursors?: boolean;
  /** How to fill in-pages, whatever the graph's size (build/transpose.ts). */
  transpose?: TransposeMode;
  /** Helpers to build with (withTeam: a generator's, kept open), instead of a team of the build's own. */
  team?: Team;
}

/**
 * Builds a graph from edges in original ids: the readers' RawEdges, or arrays (number[],
 * Uint32Array, Float64Array...) for src, dst, weights and vertices (raw-input.ts; directed
 * defaults to true), e.g. buildGraph({ src: [0, 1], dst: [1, 2] }, { pageEdges: 64 }).
 */
export function buildGraph(edges: RawEdges | EdgeArrays, opts: BuildOptions = {}, internals: BuildInternals = {}): BuiltGraph {
  const raw = toRawEdges(edges);
  checkBuildOptions(opts);
  const pageEdges = opts.pageEdges ?? DEFAULT_PAGE_EDGES;
  if (!Number.isInteger(pageEdges) || pageEdges < 1 || pageEdges > 0x7fffffff) {
    throw new TesseraError(`page size ${pageEdges} is not a positive integer below 2^31`, { key: 'pageEdges', fix: 'use e.g. 1048576' });
  }
  if (opts.threads !== undefined && !(Number.isInteger(opts.threads) && opts.threads >= 1)) {
    throw new TesseraError(`thread count ${opts.threads} is not a positive integer`, { key: 'threads', fix: 'use e.g. 2, or leave it out' });
  }
  const m = raw.src.length;
  if (raw.dst.length !== m || (raw.weights !== undefined && raw.weights.length !== m)) {
    const w = raw.weights ? `, ${raw.weights.length} weights` : '';
    throw new TesseraError(`the edge lists differ in length (${m} sources, ${raw.dst.length} targets${w})`, { file: raw.source });
  }
  if (internals.team !== undefined) return build(raw, opts, pageEdges, internals.team, internals);
  const threads = opts.threads ?? defaultThreads(m);
  // Helpers boot while the first pass runs here.
  const team = threads > 1 ? new Team(threads) : undefined;
  try {
    return build(raw, opts, pageEdges, team, internals);
  } finally {
    team?.close();
  }
}

function checkBuildOptions(opts: unknown): void {
  const what = 'buildGraph options';
  const o = checkOptions(opts, what, ['pageEdges', 'renumber', 'directed', 'weightType', 'threads', 'onPhase']);
  checkOneOf(o, 'renumber', what, ['degree', 'none']);
  checkBoolean(o, 'directed', what);
  checkOneOf(o, 'weightType', what, ['float32', 'float64', 'none']);
  if (o.onPhase !== undefined && typeof o.onPhase !== 'function') throw new TesseraError(`${what}: onPhase must be a function, got ${describe(o.onPhase)}`, { key: 'onPhase', fix: 'pass (phase, ms) => ..., or leave it out' });
}

function build(raw: RawEdges, opts: BuildOptions, pageEdges: number, team: Team | undefined, internals: BuildInternals): BuiltGraph {
  const directed = opts.directed ?? raw.directed;
  const wt: WeightType | undefined =
    opts.weightType === 'none' || raw.weights === undefined ? undefined : (opts.weightType ?? raw.weightType ?? 'float64');
  const m = raw.src.length;
  const big = m >= BIG;
  let t = performance.now();
  const phase = (name: BuildPhase): void => {
    if (big) {
      collectGarbage();
      if (team !== undefined) team.run(new Array<Task>(team.size - 1).fill({ kind: 'gc' }), () => undefined);
    }
    const now = performance.now();
    opts.onPhase?.(name, now - t);
    t = now;
  };
  if (wt === undefined) raw.weights?.clear();
  const endsMax = raw.maxId ?? scanRaw(raw, wt !== undefined, team);

  const { n, layoutDeg, rawIn, toOriginal, byOriginal, st, outPlan: plan } = stage(raw, directed, wt, opts.renumber ?? 'degree', team, internals, phase, endsMax, pageEdges);
  if (m === 0 && n === 0) {
    throw new TesseraError('the graph has no vertices and no edges', { file: raw.source, fix: 'check that the input is not empty' });
  }

  // Out-pages: the threads take the planned pages one at a time.
  const T = team?.size ?? 1;
  const { firstPageOf: _, ...rows } = plan;
  const units = outUnits(rows);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const outDegree = new Uint32Array(new SharedArrayBuffer(4 * n));
  // Directed: raw in-degrees, which lose the dropped edges on the way.
  const inDeg = rawIn;
  const parts = runShares<OutTaken>(team, T, () => ({ kind: 'out', st, plan: rows, units, next, layoutDeg, wt, outDegree, inDeg }), () =>
    outPagesTaken(st, rows, units, next, layoutDeg, wt, outDegree, inDeg),
  );
  st.nbrs.length = 0;
  if (st.weights) st.weights.length = 0;
  const byUnit: OutRange[] = [];
  for (const part of parts) for (const r of part) byUnit[r.unit] = r;
  const pages: Page[] = [];
  const stats: BuildStats = { selfLoopsDropped: 0, duplicatesDropped: 0 };
  for (const r of byUnit) {
    const base = pages.length;
    for (const p of r.pages) pages.push(reindexed(p, base + p.index));
    stats.selfLoopsDropped += r.selfLoops;
    stats.duplicatesDropped += r.duplicates;
  }
  const out: PageSet = { orientation: 'out', pages, firstPageOf: firstPages(pages, n) };
  phase('out-pages');

  let inSet: PageSet = out;
  let inDegree: Uint32Array = outDegree;
  if (directed) {
    inDegree = inDeg!;
    const set = layoutPages('in', inDegree, pageEdges, wt, false);
    fillInPages(pages, set, inDegree, pageEdges, T, {
      share: (sh) => void runShares<void>(team, T, () => ({ kind: 'transpose-share', sh }), () => undefined),
      run: (task, mine) => runShares(team, T, (i) => ({ kind: 'transpose', s: task(i) }), mine),
    }, internals.transpose);
    inSet = set;
    phase('in-pages');
  }
  let numEdges = 0;
  for (const p of out.pages) numEdges += p.edges;
  return {
    numVertices: n,
    numEdges,
    directed,
    weightType: wt,
    out,
    in: inSet,
    outDegree,
    inDegree,
    ids: { toOriginal, byOriginal },
    pageEdges,
    source: raw.source,
    build: stats,
  };
}

/**
 * Phases 1 and 2. A function of its own so that the tables by key (internal ids, cursors) are
 * garbage as soon as the staging area is filled.
 */
function stage(
  raw: RawEdges,
  directed: boolean,
  wt: WeightType | undefined,
  order: 'degree' | 'none',
  team: Team | undefined,
  internals: BuildInternals,
  phase: (name: BuildPhase) => void,
  endsMax: number,
  pageEdges: number,
): { n: number; layoutDeg: Uint32Array; rawIn: Uint32Array | undefined; toOriginal: Uint32Array; byOriginal: Uint32Array; st: Staging; outPlan: PagePlan } {
  const ks = keySpace(raw.src, raw.dst, raw.vertices, endsMax);
  const T = team?.size ?? 1;
  const shares = splitRaw(raw, wt !== undefined, T);
  const transfers = shares.slice(1).map(transferList);
  const shared = T > 1;
  const counts = Array.from({ length: T }, () => allocCounts(ks.keys, directed, shared));
  if (team !== undefined) {
    team.run(shares.slice(1).map((share) => ({ kind: 'adopt', share })), () => undefined, transfers);
    shares.length = 1;
  }
  runShares<void>(team, T, (i) => ({ kind: 'count', counts: counts[i] }), () =>
    countChunks(shares[0]!.src as Uint32Array[], shares[0]!.dst as Uint32Array[], shares[0]!.lens, counts[0]!),
  );
  const { plan, curs, keyAt, rankAt } = idsAndCursors(ks, counts, raw.vertices, directed, order, team, internals.wideCursors === true);
  counts.length = 0;
  phase('ids');
  // The staging area is touched all over by the first raw chunk: the peak of the build is the raw
  // lists + staging + the tables alive here (ids, cursors, layout), so nothing else may be.
  const st = allocStaging(plan.total, wt, shared);
  // The out-pages' plan is made here once this thread's share is scattered, while it waits for
  // the helpers' (the scatter's slowest share takes longer than the median by more than the plan).
  let outPlan: PagePlan | undefined;
  runShares<void>(team, T, (i) => ({ kind: 'scatter', cur: curs[i], newId: plan.newId, directed, st }), () => {
    scatterShare(shares[0]!, curs[0]!, plan.newId, directed, st);
    outPlan = planPages(plan.layoutDeg, pageEdges, false);
  });
  curs.length = 0;
  // Id maps by the key ranges of idsAndCursors (plain keyToOriginal tables would be copied).
  const toOriginal = new Uint32Array(new SharedArrayBuffer(4 * plan.n));
  const byOriginal = new Uint32Array(new SharedArrayBuffer(4 * plan.n));
  const keyToOriginal = plan.keyToOriginal;
  runShares<void>(
    keyToOriginal === undefined ? team : undefined,
    keyToOriginal === undefined ? T : 1,
    (i) => ({ kind: 'idmaps', newId: plan.newId, toOriginal, byOriginal, k0: keyAt[i]!, k1: keyAt[i + 1]!, r0: rankAt[i]! }),
    () => idMapsRange(plan.newId, keyToOriginal, toOriginal, byOriginal, 0, keyToOriginal === undefined ? keyAt[1]! : plan.keys, 0),
  );
  phase('staging');
  return { n: plan.n, layoutDeg: plan.layoutDeg, rawIn: plan.rawIn, toOriginal, byOriginal, st, outPlan: outPlan! };
}

/**
 * Internal ids and staging cursors from the threads' counts, each thread summing a range of keys
 * (returned, with the rank in original order of each range's first vertex).
 * Tables by key go to the helpers shared (a plain array in a task would be copied); the
 * temporary ones (degrees, starts) are garbage when this returns.
 */
function idsAndCursors(
  ks: KeySpace,
  counts: CountTables[],
  vertices: U32List | undefined,
  directed: boolean,
  order: 'degree' | 'none',
  team: Team | undefined,
  wide: boolean,
): { plan: IdPlan; curs: (Uint32Array | Float64Array)[]; keyAt: number[]; rankAt: number[] } {
  const T = team?.size ?? 1;
  const at = (i: number): number => Math.floor((ks.keys * i) / T);
  const dt = degreeTables(ks, vertices, T > 1);
  const hists = order === 'degree' ? Array.from({ length: T }, () => degreeHistogram(T > 1)) : [];
  const parts = runShares(team, T, (i) => ({ kind: 'degrees', counts, dt, direct: ks.direct, directed, k0: at(i), k1: at(i + 1), hist: hists[i] }), () =>
    degreesRange(counts, dt, ks.direct, directed, 0, at(1), hists[0]),
  );
  // The hubs placed here, the other vertices by the threads, each over its keys.
  const { plan, next } = renumber(ks, dt, parts, hists, directed, order, T > 1);
  const byDegree = order === 'degree';
  const sums = runShares(team, T, (i) => ({ kind: 'place', dt, layoutDeg: plan.layoutDeg, rawIn: plan.rawIn, next: next[i], byDegree, k0: at(i), k1: at(i + 1) }), () =>
    placeRange(dt, plan.layoutDeg, plan.rawIn, next[0]!, byDegree, 0, at(1)),
  );
  for (const s of sums) plan.total += s;
  const { curs, start } = allocCursors(plan, T, wide, T > 1);
  runShares<void>(team, T, (i) => ({ kind: 'cursors', newId: plan.newId, start, counts, curs, k0: at(i), k1: at(i + 1) }), () =>
    cursorsRange(plan.newId, start, counts, curs, 0, at(1)),
  );
  const keyAt: number[] = [];
  const rankAt: number[] = [];
  for (let i = 0, r = 0; i <= T; i++) {
    keyAt.push(at(i));
    rankAt.push(r);
    r += parts[i]?.n ?? 0;
  }
  return { plan, curs, keyAt, rankAt };
}

/** Runs share 0 here and share i on helper i - 1; returns the results in share order. */
function runShares<T>(team: Team | undefined, threads: number, task: (i: number) => Task, mine: () => T): T[] {
  if (team === undefined) return [mine()];
  const tasks: Task[] = [];
  for (let i = 1; i < threads; i++) tasks.push(task(i));
  const r = team.run(tasks, mine);
  return [r.mine, ...(r.theirs as T[])];
}

/**
 * The largest id of the raw ends; rejects NaN weights before anything is built. The threads share
 * the chunks out when all are shared (a generator's), else this one reads them all.
 */
function scanRaw(raw: RawEdges, weighted: boolean, team: Team | undefined): number {
  const m = raw.src.length;
  const chunks = raw.src.chunks.length;
  const lens: number[] = [];
  for (let c = 0; c < chunks; c++) lens.push(Math.min(CHUNK, m - c * CHUNK));
  const W = weighted ? (raw.weights!.chunks as WeightArray[]) : undefined;
  const shared = [raw.src.chunks, raw.dst.chunks, W ?? []].every((l) => l.every((ch) => ch.buffer instanceof SharedArrayBuffer));
  const T = team !== undefined && shared ? team.size : 1;
  const at = (i: number): number => Math.floor((chunks * i) / T);
  const task = (i: number): Task => ({
    kind: 'scan',
    src: raw.src.chunks.slice(at(i), at(i + 1)),
    dst: raw.dst.chunks.slice(at(i), at(i + 1)),
    w: W?.slice(at(i), at(i + 1)),
    lens: lens.slice(at(i), at(i + 1)),
    base: at(i) * CHUNK,
  });
  const parts = runShares(T > 1 ? team : undefined, T, task, () => scanChunks(raw.src.chunks, raw.dst.chunks, W, lens.slice(0, at(1)), 0));
  let max = -1;
  let nan = -1;
  for (const p of parts) {
    max = Math.max(max, p.max);
    if (nan < 0) nan = p.nan;
  }
  if (nan >= 0) throw new TesseraError(`edge ${nan + 1} has a NaN weight`, { file: raw.source, fix: 'give every edge a numeric weight' });
  return max;
}

/** Cuts the raw chunks into `threads` contiguous shares (the raw lists are emptied). */
function splitRaw(raw: RawEdges, weighted: boolean, threads: number): RawShare[] {
  const m = raw.src.length;
  const chunks = raw.src.chunks.length;
  const shares: RawShare[] = [];
  for (let i = 0; i < threads; i++) {
    const a = Math.floor((chunks * i) / threads);
    const b = Math.floor((chunks * (i + 1)) / threads);
    const lens: number[] = [];
    for (let c = a; c < b; c++) lens.push(Math.min(CHUNK, m - c * CHUNK));
    shares.push({
      src: raw.src.chunks.slice(a, b),
      dst: raw.dst.chunks.slice(a, b),
      weights: weighted ? (raw.weights!.chunks.slice(a, b) as WeightArray[]) : undefined,
      lens,
    });
  }
  raw.src.clear();
  raw.dst.clear();
  raw.weights?.clear();
  return shares;
}

/**
 * Buffers to transfer with a share sent to a helper: a chunk that owns its whole ArrayBuffer
 * moves; a view into a larger buffer is copied first (moving would detach its neighbours);
 * shared chunks are shared.
 */
function transferList(share: RawShare): ArrayBuffer[] {
  const list: ArrayBuffer[] = [];
  const own = <A extends Uint32Array | WeightArray>(arr: (A | undefined)[]): void => {
    for (let c = 0; c < arr.length; c++) {
      const a = arr[c]!;
      if (a.buffer instanceof SharedArrayBuffer) continue;
      if (a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength) arr[c] = a.slice() as A;
      list.push(arr[c]!.buffer as ArrayBuffer);
    }
  };
  own(share.src);
  own(share.dst);
  if (share.weights) own(share.weights);
  return list;
}

