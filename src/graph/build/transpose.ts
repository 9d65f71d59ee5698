/**
 * Builder phase 4 (directed graphs): in-pages, laid out from the exact in-degrees and allocated
 * at their final size, then filled by transposing the out-pages: sources ascending, so every
 * in-list comes out sorted and needs no further pass. A cursor is (page, slot) per target,
 * interleaved so that one cache line serves both.
 *
 * The out-pages go in rounds of about ROUND edges, each in three steps shared by the threads:
 * count (each thread its part of the round's pages: edges per block of targets), scatter (each
 * thread its part into the round's buffer, grouped by block: threads in page order, so sources
 * stay ascending within a block), store (blocks, a few at a time to whichever thread is free,
 * into the in-lists). Every edge is read once per step whatever the number of threads (filling
 * each thread's target range from all out-pages read every edge once per thread: 15 of 16 reads
 * skipped on 16 threads), and a block's cursors and list ends stay in cache while it is written
 * (written straight from the out-pages, most edges' cursor and store are cache misses: 15-35%
 * slower on RMAT 19 to 22). Blocks are runs of 2^GROUP_BITS-target groups of about equal
 * in-degree, so RMAT's hub targets, a few thousand ids holding a large share of the edges, are
 * spread over several blocks.
 */
import type { Page, PageSet, WeightArray } from '../types.js';

/** Edges per round (the round's buffer holds 12 or 16 bytes an edge). */
const ROUND = 1 << 25;
/** Targets per group (blockOf's entries), and blocks at most. */
const GROUP_BITS = 4;
const BLOCKS = 4096;
/** Blocks a thread takes at a time in the store step. */
const STORE_BLOCKS = 4;
/** Graphs with fewer edges are written straight by one thread. */
const DIRECT_MAX = 1 << 20;
/** A target costs about this many edges in a block's weight (its list's first write is a cache miss). */
const PER_TARGET = 8;

/** How to fill (tests force either way): straight on one thread, or in rounds through blocks. */
export type TransposeMode = 'direct' | { round: number; groupBits: number; blocks: number };

/** What a transpose's threads share (views of SharedArrayBuffers), sent to each helper once. */
export interface TransposeShared {
  blocks: number;
  groupBits: number;
  /** Block of each group of targets. */
  blockOf: Uint16Array;
  inDegree: Uint32Array;
  /** threads x blocks: the round's counts, then each thread's next position in each block. */
  cnt: Uint32Array;
  /**
   * The round's edges grouped by block, a record each (one write stream a block, not three):
   * target rec[s j], source rec[s j + 1], weight recW[ws j + wo] (a view of the same buffer).
   */
  rec: Uint32Array;
  recW: WeightArray | undefined;
  s: number;
  ws: number;
  wo: number;
  /** The round's first position of each block (blocks + 1 entries), and the next block to store. */
  start: Float64Array;
  next: Int32Array;
  /** cur[2u], cur[2u + 1]: page and slot of target u's next in-edge. */
  cur: Uint32Array;
  nbrsOf: Uint32Array[];
  weightsOf: WeightArray[];
  pageEdges: number;
}

/** One step on one thread (worker.ts runs them on helpers): blocks planned, then rounds. */
export type TransposeStep =
  | { step: 'weigh'; g0: number; g1: number }
  | { step: 'blocks'; g0: number; g1: number; acc: number; per: number }
  | { step: 'count'; row: number; outs: Page[]; inits: Page[] }
  | { step: 'scatter'; row: number; outs: Page[] }
  | { step: 'store' };

/** The builder's helper threads as the transpose uses them (build.ts gives them). */
export interface TransposeHelpers {
  /** Makes `sh` the helpers' shared arrays (undefined: they let go of them). */
  share(sh: TransposeShared | undefined): void;
  /** Runs task(i) on helper i (i >= 1) while `mine` runs here; every result in thread order. */
  run(task: (i: number) => TransposeStep, mine: () => unknown): unknown[];
}

/**
 * Fills the in-pages of `set` (allocated; offsets set on split pages only: the others are filled
 * here, from inDegree) from the out-pages `outs`, on this thread and `threads - 1` helpers.
 */
export function fillInPages(outs: Page[], set: PageSet, inDegree: Uint32Array, pageEdges: number, threads: number, helpers: TransposeHelpers, mode?: TransposeMode): void {
  let edges = 0;
  for (const p of outs) edges += p.edges;
  const n = inDegree.length;
  const nbrsOf = set.pages.map((p) => p.nbrs);
  const weightsOf = set.pages.flatMap((p) => (p.weights === undefined ? [] : [p.weights]));
  if (mode === 'direct' || (mode === undefined && edges < DIRECT_MAX)) {
    const cur = new Uint32Array(2 * n);
    initCursors(set.pages, inDegree, cur);
    initSplitCursors(set, cur);
    for (const p of outs) direct(p, cur, pageEdges, nbrsOf, weightsOf);
    return;
  }
  const m = mode ?? { round: ROUND, groupBits: GROUP_BITS, blocks: BLOCKS };
  // Rounds: out-pages [ends[r - 1], ends[r]), at least one each.
  const ends: number[] = [];
  let most = 0;
  for (let k = 0, e = 0; k < outs.length; k++) {
    if (k > 0 && e + outs[k]!.edges > m.round) {
      ends.push(k);
      e = 0;
    }
    e += outs[k]!.edges;
    most = Math.max(most, e);
  }
  ends.push(outs.length);
  const sab = (bytes: number): SharedArrayBuffer => new SharedArrayBuffer(Math.max(8, bytes));
  const groups = Math.max(1, Math.ceil(n / 2 ** m.groupBits));
  const blocks = Math.min(m.blocks, 65536);
  const w0 = weightsOf[0];
  const sh: TransposeShared = {
    blocks,
    groupBits: m.groupBits,
    blockOf: new Uint16Array(sab(2 * groups)),
    inDegree,
    cnt: new Uint32Array(sab(4 * threads * blocks)),
    ...records(w0, most, sab),
    start: new Float64Array(sab(8 * (blocks + 1))),
    next: new Int32Array(sab(4)),
    cur: new Uint32Array(sab(8 * n)),
    nbrsOf,
    weightsOf,
    pageEdges,
  };
  helpers.share(sh);
  // Every step on every thread, this one's share here.
  const onThreads = (task: (i: number) => TransposeStep): unknown[] => helpers.run(task, () => transposeStep(sh, task(0)));
  initSplitCursors(set, sh.cur);
  // Blocks: runs of groups whose weights (in-degree plus PER_TARGET a target) sum to about
  // 1 / blocks of the total, block b starting where the weight before it reaches b / blocks;
  // each thread weighs, then assigns, a range of groups.
  const gAt = (i: number): number => Math.floor((groups * i) / threads);
  const sums = onThreads((i) => ({ step: 'weigh', g0: gAt(i), g1: gAt(i + 1) })) as number[];
  const before: number[] = [];
  let weight = 0;
  for (const x of sums) before.push(weight), (weight += x);
  onThreads((i) => ({ step: 'blocks', g0: gAt(i), g1: gAt(i + 1), acc: before[i]!, per: weight / blocks }));
  const start = sh.start;
  // Round 0's count step also fills the in-pages' offsets and cursors: pages cut by vertices.
  const inits = cutRuns(set.pages, 0, set.pages.length, threads, (p) => (p.split ? 0 : p.vEnd - p.vBegin));
  for (let r = 0, k0 = 0; r < ends.length; k0 = ends[r++]!) {
    const k1 = ends[r]!;
    const part = cutRuns(outs, k0, k1, threads, (p) => p.edges);
    onThreads((i) => ({ step: 'count', row: i, outs: outs.slice(part[i], part[i + 1]), inits: r === 0 ? set.pages.slice(inits[i], inits[i + 1]) : [] }));
    // Each thread's first position in each block: blocks in order, threads in order within one.
    let total = 0;
    for (let b = 0; b < blocks; b++) {
      start[b] = total;
      for (let i = 0; i < threads; i++) {
        const c = sh.cnt[i * blocks + b]!;
        sh.cnt[i * blocks + b] = total;
        total += c;
      }
    }
    start[blocks] = total;
    onThreads((i) => ({ step: 'scatter', row: i, outs: outs.slice(part[i], part[i + 1]) }));
    // Blocks taken STORE_BLOCKS at a time by whichever thread is free: their costs differ more
    // than their edges do (cut into equal shares of edges, the slowest thread took twice the median).
    sh.next[0] = 0;
    onThreads(() => ({ step: 'store' }));
  }
  // The helpers let go of the round's buffers.
  helpers.share(undefined);
}

/** Runs one step of a round on this thread. */
export function transposeStep(sh: TransposeShared, s: TransposeStep): number | undefined {
  if (s.step === 'weigh') return weigh(sh, s.g0, s.g1);
  if (s.step === 'blocks') assignBlocks(sh, s.g0, s.g1, s.acc, s.per);
  else if (s.step === 'count') {
    initCursors(s.inits, sh.inDegree, sh.cur);
    const row = sh.cnt.subarray(s.row * sh.blocks, (s.row + 1) * sh.blocks);
    row.fill(0);
    for (const p of s.outs) countBlocks(p, sh.groupBits, sh.blockOf, row);
  } else if (s.step === 'scatter') {
    const row = sh.cnt.subarray(s.row * sh.blocks, (s.row + 1) * sh.blocks);
    for (const p of s.outs) partition(p, sh.groupBits, sh.blockOf, row, sh);
  } else {
    for (let b0 = Atomics.add(sh.next, 0, STORE_BLOCKS); b0 < sh.blocks; b0 = Atomics.add(sh.next, 0, STORE_BLOCKS)) {
      const i0 = sh.start[b0]!;
      const i1 = sh.start[Math.min(sh.blocks, b0 + STORE_BLOCKS)]!;
      if (sh.recW === undefined) store(i0, i1, sh.rec, sh.cur, sh.pageEdges, sh.nbrsOf);
      else storeW(i0, i1, sh, sh.recW);
    }
  }
}

/** Weight of groups [g0, g1): their targets' in-degrees plus PER_TARGET each. */
function weigh(sh: TransposeShared, g0: number, g1: number): number {
  const { inDegree } = sh;
  const hi = Math.min(inDegree.length, g1 * 2 ** sh.groupBits);
  let w = 0;
  for (let u = g0 * 2 ** sh.groupBits; u < hi; u++) w += inDegree[u]! + PER_TARGET;
  return w;
}

/** Blocks of groups [g0, g1), the weight before g0 being `acc`: block floor(weight before / per). */
function assignBlocks(sh: TransposeShared, g0: number, g1: number, acc: number, per: number): void {
  const { inDegree, blockOf, blocks } = sh;
  const size = 2 ** sh.groupBits;
  const n = inDegree.length;
  for (let g = g0; g < g1; g++) {
    blockOf[g] = Math.min(blocks - 1, Math.floor(acc / per));
    const hi = Math.min(n, (g + 1) * size);
    for (let u = g * size; u < hi; u++) acc += inDegree[u]! + PER_TARGET;
  }
}

/**
 * Pages [k0, k1) cut into `threads` runs of about equal weight (a page goes to the run its weight's
 * midpoint falls in): run i is [cut[i], cut[i + 1]).
 */
function cutRuns(pages: Page[], k0: number, k1: number, threads: number, weight: (p: Page) => number): number[] {
  let total = 0;
  for (let k = k0; k < k1; k++) total += weight(pages[k]!);
  const cut = [k0];
  let k = k0;
  let acc = 0;
  for (let i = 1; i < threads; i++) {
    while (k < k1 && acc + weight(pages[k]!) / 2 < (total * i) / threads) acc += weight(pages[k++]!);
    cut.push(k);
  }
  cut.push(k1);
  return cut;
}

/** Offsets of non-split in-pages from the in-degrees, and their targets' cursors: each list's first slot. */
function initCursors(pages: Page[], inDegree: Uint32Array, cur: Uint32Array): void {
  for (const p of pages) {
    if (p.split) continue;
    const offsets = p.offsets;
    let at = 0;
    for (let u = p.vBegin; u < p.vEnd; u++) {
      offsets[u - p.vBegin] = at;
      cur[2 * u] = p.index;
      cur[2 * u + 1] = at;
      at += inDegree[u]!;
    }
    offsets[p.vEnd - p.vBegin] = at;
  }
}

/** Cursors of split targets: slot 0 of the first of their pages. */
function initSplitCursors(set: PageSet, cur: Uint32Array): void {
  for (const p of set.pages) if (p.split && set.firstPageOf[p.vBegin] === p.index) (cur[2 * p.vBegin] = p.index), (cur[2 * p.vBegin + 1] = 0);
}

/** row[block]++ for each edge of p. */
function countBlocks(p: Page, groupBits: number, blockOf: Uint16Array, row: Uint32Array): void {
  const nbrs = p.nbrs;
  for (let e = 0; e < p.edges; e++) row[blockOf[nbrs[e]! >>> groupBits]!]!++;
}

/** The round buffer's records: 8 bytes (target, source), 12 with a float32 weight, 16 with a float64. */
function records(w0: WeightArray | undefined, most: number, sab: (bytes: number) => SharedArrayBuffer): Pick<TransposeShared, 'rec' | 'recW' | 's' | 'ws' | 'wo'> {
  if (w0 === undefined) return { rec: new Uint32Array(sab(8 * most)), recW: undefined, s: 2, ws: 0, wo: 0 };
  if (w0 instanceof Float32Array) {
    const buf = sab(12 * most);
    return { rec: new Uint32Array(buf), recW: new Float32Array(buf), s: 3, ws: 3, wo: 2 };
  }
  const buf = sab(16 * most);
  return { rec: new Uint32Array(buf), recW: new Float64Array(buf), s: 4, ws: 2, wo: 1 };
}

/** Appends p's edges (target, source, weight) to their blocks' runs. */
function partition(p: Page, groupBits: number, blockOf: Uint16Array, row: Uint32Array, sh: TransposeShared): void {
  const { offsets, nbrs, weights } = p;
  const { rec, recW, s, ws, wo } = sh;
  const vb = p.vBegin;
  for (let v = vb; v < p.vEnd; v++) {
    const hi = offsets[v - vb + 1]!;
    for (let e = offsets[v - vb]!; e < hi; e++) {
      const x = nbrs[e]!;
      const j = row[blockOf[x >>> groupBits]!]!++;
      rec[s * j] = x;
      rec[s * j + 1] = v;
      if (recW !== undefined) recW[ws * j + wo] = weights![e]!;
    }
  }
}

/** Writes p's edges straight to their targets' lists. */
function direct(p: Page, cur: Uint32Array, pageEdges: number, nbrsOf: Uint32Array[], weightsOf: WeightArray[]): void {
  const { offsets, nbrs, weights } = p;
  const vb = p.vBegin;
  for (let v = vb; v < p.vEnd; v++) {
    const lo = offsets[v - vb]!;
    const hi = offsets[v - vb + 1]!;
    if (weights === undefined) {
      for (let e = lo; e < hi; e++) {
        const u2 = 2 * nbrs[e]!;
        let pg = cur[u2]!;
        let sl = cur[u2 + 1]!;
        // Only a split vertex's list runs past the end of a page (pages of pageEdges each).
        if (sl === pageEdges) {
          pg++;
          sl = 0;
          cur[u2] = pg;
        }
        nbrsOf[pg]![sl] = v;
        cur[u2 + 1] = sl + 1;
      }
    } else {
      for (let e = lo; e < hi; e++) {
        const u2 = 2 * nbrs[e]!;
        let pg = cur[u2]!;
        let sl = cur[u2 + 1]!;
        if (sl === pageEdges) {
          pg++;
          sl = 0;
          cur[u2] = pg;
        }
        nbrsOf[pg]![sl] = v;
        weightsOf[pg]![sl] = weights[e]!;
        cur[u2 + 1] = sl + 1;
      }
    }
  }
}

function store(i0: number, i1: number, rec: Uint32Array, cur: Uint32Array, pageEdges: number, nbrsOf: Uint32Array[]): void {
  for (let i = i0; i < i1; i++) {
    const u2 = 2 * rec[2 * i]!;
    let pg = cur[u2]!;
    let sl = cur[u2 + 1]!;
    if (sl === pageEdges) {
      pg++;
      sl = 0;
      cur[u2] = pg;
    }
    nbrsOf[pg]![sl] = rec[2 * i + 1]!;
    cur[u2 + 1] = sl + 1;
  }
}

function storeW(i0: number, i1: number, sh: TransposeShared, recW: WeightArray): void {
  const { rec, s, ws, wo, cur, pageEdges, nbrsOf, weightsOf } = sh;
  for (let i = i0; i < i1; i++) {
    const u2 = 2 * rec[s * i]!;
    let pg = cur[u2]!;
    let sl = cur[u2 + 1]!;
    if (sl === pageEdges) {
      pg++;
      sl = 0;
      cur[u2] = pg;
    }
    nbrsOf[pg]![sl] = rec[s * i + 1]!;
    weightsOf[pg]![sl] = recW[ws * i + wo]!;
    cur[u2 + 1] = sl + 1;
  }
}
