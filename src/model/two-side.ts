/**
 * The boundary counts behind the model's beta for one socket + one GPU cut at one unit boundary
 * (partition.ts twoSideMatrices): for every cut of a page set between page units j-1 and j (ids
 * [0, s_j) left, [s_j, n) right), the messages held by the left side about right-owned neighbours
 * after aggregation (aggLR: distinct neighbours w >= s_j listed in a page of some holder < s_j),
 * the other way (aggRL), and the edges crossing each way (rawLR, rawRL). Difference arrays over the
 * unit index, filled in one pass over the edges: an edge from holder unit a to neighbour unit b
 * crosses the cuts a < j <= b. A sweep over alpha then costs one pass, not one per point.
 *
 * The pass walks the receiving side: w's holders (the vertices whose lists hold w) are w's lists in
 * the other orientation, so the lowest and highest holder unit of w are a running min/max, and the
 * edges are read in order with one random read of unitOf per edge (walking the holders' lists
 * instead writes a random min/max per edge: RMAT 24, 9-13 s against ~3 s). The id order and the
 * default RAND order come from the same pass, and a large graph's pass is cut into chunks of whole
 * vertices that worker threads walk side by side (warmTwoSideCounts; the sums add up).
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import { pageOver } from '../graph/pages.js';
import type { Graph, Orientation, Page, PageSet } from '../graph/types.js';
import { DEFAULT_PARTITION_SEED, unitOrder, unitsOf } from './units.js';

export interface TwoSideCounts {
  /** s_j: first id of unit j (id order); s_U = n. */
  starts: Float64Array;
  /** Each page's unit position in the order. */
  pageUnit: Uint32Array;
  aggLR: Float64Array;
  aggRL: Float64Array;
  rawLR: Float64Array;
  rawRL: Float64Array;
}

/** One unit order's difference arrays (U + 2 entries each), as a pass or a chunk of it leaves them. */
export interface HolderSums {
  rawLR: Float64Array;
  rawRL: Float64Array;
  aggLR: Float64Array;
  aggRL: Float64Array;
}

type UnitTable = Uint16Array | Uint32Array;

/** Per page set, per unit order ('id', or a RAND seed). */
const twoSideCache = new WeakMap<PageSet, Map<string, TwoSideCounts | null>>();

const keyOf = (seed: number | undefined): string => (seed === undefined ? 'id' : `rand:${seed}`);

function cacheOf(set: PageSet): Map<string, TwoSideCounts | null> {
  const cache = twoSideCache.get(set) ?? new Map<string, TwoSideCounts | null>();
  twoSideCache.set(set, cache);
  return cache;
}

/** The counts of the id order (seed undefined) or a RAND order; null when the pages do not tile the ids. */
export function twoSideCounts(graph: Graph, orientation: Orientation, seed?: number): TwoSideCounts | null {
  const cache = cacheOf(graph[orientation]);
  const key = keyOf(seed);
  if (!cache.has(key)) {
    const plan = planOf(graph, orientation, seed);
    const counts = plan === null ? plan : finish(plan, [holderSums(plan.holders, plan.unitOf, plan.positions, plan.U)]);
    remember(cache, plan, seed, counts);
  }
  return cache.get(key)!;
}

/**
 * twoSideCounts computed ahead on up to `threads` worker threads (graphs of at least `minEdges`
 * edges, default 8 M; smaller ones are left to the lazy single-threaded pass), in `chunks` runs of
 * pages (default two per thread). The model's sweep calls it before its synchronous points, which
 * then find the counts cached.
 */
export async function warmTwoSideCounts(
  graph: Graph,
  orientation: Orientation,
  seed: number | undefined,
  threads: number,
  opts: { minEdges?: number; chunks?: number } = {},
): Promise<void> {
  const cache = cacheOf(graph[orientation]);
  if (cache.has(keyOf(seed))) return;
  const workers = Math.min(threads, os.availableParallelism());
  // A graph on disk is counted page by page on this thread (its workers would hold every page at once).
  if (graph.numEdges < (opts.minEdges ?? 8_000_000) || workers < 2 || graph[orientation].stored !== undefined) return;
  const plan = planOf(graph, orientation, seed, true);
  if (plan === null) return void remember(cache, plan, seed, null);
  const chunks = chunksOf(graph[orientation === 'out' ? 'in' : 'out'], opts.chunks ?? workers * 2);
  const pool = new Piscina({ filename: WORKER.href, minThreads: workers, maxThreads: workers });
  try {
    const sums = await Promise.all(
      chunks.map(([a, b]) => {
        const task: TwoSideTask = {
          pages: plan.holders.slice(a, b).map((p) => ({ buffer: p.buffer, base: p.offsets.byteOffset, vBegin: p.vBegin, vEnd: p.vEnd, edges: p.edges, split: p.split })),
          weightType: graph.weightType,
          unitOf: plan.unitOf.buffer as SharedArrayBuffer,
          wide: plan.unitOf instanceof Uint32Array,
          positions: plan.positions,
          U: plan.U,
        };
        return pool.run(task) as Promise<HolderSums[]>;
      }),
    );
    remember(cache, plan, seed, finish(plan, sums));
  } finally {
    await pool.destroy();
  }
}

const WORKER = new URL('./two-side-entry.cjs', import.meta.url);

/** What a worker walks: a chunk of the holder pages (shared memory) and the unit tables. */
export interface TwoSideTask {
  pages: Array<{ buffer: SharedArrayBuffer; base: number; vBegin: number; vEnd: number; edges: number; split: boolean }>;
  weightType: Graph['weightType'];
  unitOf: SharedArrayBuffer;
  wide: boolean;
  positions: Uint32Array[];
  U: number;
}

/** The worker's side (two-side-entry.cts). */
export function runTwoSideTask(t: TwoSideTask): HolderSums[] {
  const pages = t.pages.map((r, i) => pageOver(r.buffer, i, r.vBegin, r.vEnd, r.edges, r.split, t.weightType, r.base));
  return holderSums(pages, t.wide ? new Uint32Array(t.unitOf) : new Uint16Array(t.unitOf), t.positions, t.U);
}

interface Plan {
  U: number;
  starts: Float64Array;
  /** Each vertex's unit in id order. */
  unitOf: UnitTable;
  /** Per order (the id order, then the RAND seed's): each unit's position in it. */
  positions: Uint32Array[];
  pageUnits: Uint32Array[];
  seeds: Array<number | undefined>;
  holders: readonly Page[];
}

/** The unit tables of the id order and one RAND order (the seed asked for, else the default). */
function planOf(graph: Graph, orientation: Orientation, seed: number | undefined, shared = false): Plan | null {
  const set = graph[orientation];
  const pages = set.pages;
  const n = graph.numVertices;
  // The pages must tile [0, n) in id order (every vertex owned through its page).
  let end = 0;
  for (const p of pages) {
    if (p.vBegin > end || p.vEnd < p.vBegin) return null;
    end = Math.max(end, p.vEnd);
  }
  if (end !== n) return null;
  const units = unitsOf(set);
  const U = units.edges.length;
  const starts = new Float64Array(U + 1);
  for (let u = 0; u < U; u++) starts[u] = pages[units.first[u]!]!.vBegin;
  starts[U] = n;
  const wide = U >= 0x10000;
  const bytes = (wide ? 4 : 2) * n;
  const buf = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  const unitOf = wide ? new Uint32Array(buf) : new Uint16Array(buf);
  for (let u = 0; u < U; u++) unitOf.fill(u, starts[u]!, starts[u + 1]!);
  // A sweep over strategies asks for both orders: one pass gives them together.
  const seeds = [undefined, seed ?? DEFAULT_PARTITION_SEED];
  const positions: Uint32Array[] = [];
  const pageUnits: Uint32Array[] = [];
  for (const s of seeds) {
    const order = unitOrder(U, s);
    const position = new Uint32Array(U);
    for (let i = 0; i < U; i++) position[order[i]!] = i;
    const pageUnit = new Uint32Array(pages.length);
    for (let u = 0; u < U; u++) for (let i = units.first[u]!; i < units.first[u + 1]!; i++) pageUnit[i] = position[u]!;
    positions.push(position);
    pageUnits.push(pageUnit);
  }
  return { U, starts, unitOf, positions, pageUnits, seeds, holders: graph[orientation === 'out' ? 'in' : 'out'].pages };
}

function remember(cache: Map<string, TwoSideCounts | null>, plan: Plan | null, seed: number | undefined, counts: TwoSideCounts[] | null): void {
  if (plan === null || counts === null) return void cache.set(keyOf(seed), null);
  plan.seeds.forEach((s, i) => cache.set(keyOf(s), counts[i]!));
}

/** Adds the chunks' sums per order and turns the difference arrays into counts. */
function finish(plan: Plan, chunks: HolderSums[][]): TwoSideCounts[] {
  const U = plan.U;
  return plan.seeds.map((_, k) => {
    const [first, ...rest] = chunks.map((c) => c[k]!);
    const s = first!;
    for (const r of rest) for (const f of ['rawLR', 'rawRL', 'aggLR', 'aggRL'] as const) for (let j = 0; j < U + 2; j++) s[f][j]! += r[f][j]!;
    for (const d of [s.aggLR, s.aggRL, s.rawLR, s.rawRL]) for (let j = 1; j <= U; j++) d[j]! += d[j - 1]!;
    return { starts: plan.starts, ...s, pageUnit: plan.pageUnits[k]! };
  });
}

/**
 * Up to `k` runs of the holder pages of about equal edges, cut between units (a vertex's split
 * pages stay in one run: its running min/max must not be settled twice).
 */
function chunksOf(holders: PageSet, k: number): Array<[number, number]> {
  const { first, edges } = unitsOf(holders);
  let total = 0;
  for (let u = 0; u < edges.length; u++) total += edges[u]!;
  const out: Array<[number, number]> = [];
  let a = 0;
  let acc = 0;
  for (let u = 0; u < edges.length; u++) {
    if (first[u]! > a && acc >= total / k) (out.push([a, first[u]!]), (a = first[u]!), (acc = 0));
    acc += edges[u]!;
  }
  if (a < holders.pages.length) out.push([a, holders.pages.length]);
  return out;
}

/** The longest page's edges (a scratch array's size). */
function maxEdges(pages: readonly Page[]): number {
  let m = 0;
  for (const p of pages) m = Math.max(m, p.nbrs.length);
  return m;
}

/**
 * The pass over a run of holder pages (whole vertices) for every order. A page's neighbour units
 * are looked up in one flat loop first: its random reads overlap there, while a per-vertex loop
 * (short lists, a mispredicted exit each) serialises them.
 */
export function holderSums(holders: readonly Page[], unitOf: UnitTable, positions: Uint32Array[], U: number): HolderSums[] {
  const runs = positions.map(() => new HolderRun());
  const sums = positions.map(() => ({ rawLR: new Float64Array(U + 2), rawRL: new Float64Array(U + 2), aggLR: new Float64Array(U + 2), aggRL: new Float64Array(U + 2) }));
  const nbrUnits = U < 0x10000 ? new Uint16Array(maxEdges(holders)) : new Uint32Array(maxEdges(holders));
  for (const page of holders) {
    const nbrs = page.nbrs;
    for (let e = 0; e < nbrs.length; e++) nbrUnits[e] = unitOf[nbrs[e]!]!;
    for (let k = 0; k < positions.length; k++) runs[k]!.page(page, nbrUnits, unitOf, positions[k]!, sums[k]!);
  }
  runs.forEach((r, k) => r.settle(sums[k]!));
  return sums;
}

const NONE_UNIT = 0xffffffff;

/** One received vertex's share of the sums: w in unit b, held by units lo..hi (lo NONE_UNIT: none), toB edges from lower units, fromB from higher. */
function settleHolders(s: HolderSums, b: number, lo: number, hi: number, toB: number, fromB: number): void {
  s.rawLR[b + 1]! -= toB;
  s.rawRL[b + 1]! += fromB;
  if (lo === NONE_UNIT) return;
  if (lo < b) (s.aggLR[lo + 1]!++, s.aggLR[b + 1]!--);
  if (hi > b) (s.aggRL[b + 1]!++, s.aggRL[hi + 1]!--);
}

/**
 * holderSums' walk of one unit order over the receiving side: the current vertex w (in unit
 * b) is held by units lo..hi (lo NONE: by none), toB of its edges come from lower units and fromB
 * from higher ones. Fields, not closure variables: a closure's captured variables live on the heap.
 */
class HolderRun {
  w = -1;
  b = 0;
  lo = NONE_UNIT;
  hi = 0;
  toB = 0;
  fromB = 0;

  page(page: Page, nbrUnits: UnitTable, unitOf: UnitTable, position: Uint32Array, s: HolderSums): void {
    const { offsets } = page;
    const { rawLR, rawRL } = s;
    let { w, b, lo, hi, toB, fromB } = this;
    for (let v = page.vBegin; v < page.vEnd; v++) {
      // A vertex whose list spans several (split) pages continues its running min/max.
      if (v !== w) {
        if (w >= 0) settleHolders(s, b, lo, hi, toB, fromB);
        (w = v), (b = position[unitOf[v]!]!), (lo = NONE_UNIT), (hi = 0), (toB = 0), (fromB = 0);
      }
      for (let e = offsets[v - page.vBegin]!, end = offsets[v - page.vBegin + 1]!; e < end; e++) {
        const a = position[nbrUnits[e]!]!;
        if (a < b) (rawLR[a + 1]!++, toB++);
        else if (b < a) (fromB++, rawRL[a + 1]!--);
        if (a < lo) lo = a;
        if (a > hi) hi = a;
      }
    }
    Object.assign(this, { w, b, lo, hi, toB, fromB });
  }

  settle(s: HolderSums): void {
    if (this.w >= 0) settleHolders(s, this.b, this.lo, this.hi, this.toB, this.fromB);
    this.w = -1;
  }
}
