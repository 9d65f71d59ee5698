/**
 * The bounded-memory builder: an edge stream (external-source.ts) -> a .tsr file, holding the
 * per-vertex arrays (degrees, ids, cursors: O(V)) but never all the edges, for graphs whose edges
 * do not fit in host memory. It gives the pages, degrees and id maps buildGraph + writeTsr give,
 * bit for bit, by running the same phases over runs on disk:
 *
 * 1. the stream is copied to a raw run file (records in the build's weight type; ids as read);
 * 2. degrees are counted from it by key (build/ids.ts: original ids, or dense ranks of a bitmap
 *    when ids are sparse) and renumbered (same tables, same tie order), and the out-pages are
 *    planned from the raw out-degrees (pages.ts);
 * 3. a distribution pass sorts the edges by new source into buckets: each bucket is a range of
 *    planned out-pages (never inside a hub's split pages) whose raw edges fit the memory budget,
 *    written as blocks of one run file (external-io.ts). Undirected edges go both ways, in the
 *    order buildGraph's scatter gives them;
 * 4. bucket by bucket: a counting sort by source into a staging area, then buildGraph's own
 *    out-page assembly (assemble.ts: sort, self-loops and repeats dropped, smallest weight kept,
 *    split pages re-cut), the pages written to the .tsr as they come (tsr-stream.ts). Directed
 *    graphs: every kept edge goes to a second run file, bucketed by target range (cut by raw
 *    in-degree, an upper bound of the kept one);
 * 5. directed graphs: bucket by bucket, a counting sort by target (sources come in ascending
 *    order, as buildGraph's transpose gives them) feeds in-pages laid out from the kept
 *    in-degrees (layoutPages' layout), written as each fills.
 * Degree arrays and id maps follow, then the header. Run files live next to the output (or in
 * `tmpDir`), are tracked for Ctrl-C and removed however the build ends. The disk space needed is
 * checked before anything is written (external-plan.ts), and again once the edges are counted.
 */
import path from 'node:path';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { TesseraError } from '../../errors.js';
import { laidOutPage, planPages, type PagePlan } from '../pages.js';
import { maxPlannedPages, TsrStreamWriter } from '../tsr-stream.js';
import type { Page, WeightType } from '../types.js';
import { DEFAULT_PAGE_EDGES } from '../types.js';
import { outPagesRange, type PlanRows } from './assemble.js';
import { collectGarbage } from './gc.js';
import { arenaBytes, PageArena, recordBlock, recordWords, RunFile, weightAt, type RecordBlock } from './external-io.js';
import { checkDisk, diskNeed, memoryPlan, READ_RECORDS, type DiskNeed, type MemoryPlan } from './external-plan.js';
import type { EdgeStream } from './external-source.js';
import { keyedIds, type KeyedIds } from './external-ids.js';
import type { Staging } from './scatter.js';

/** Buckets from this many edges are followed by a garbage collection. */
const GC_EDGES = 1 << 20;

export type ExternalPhase = 'read' | 'count' | 'runs' | 'out-pages' | 'in-pages';

export interface ExternalOptions {
  /** Bytes the whole process may hold (resident set), node itself included. */
  hostMemory: number;
  /** Target edges per page (default 2^20). */
  pageEdges?: number;
  /** 'degree' (default) or 'none', as buildGraph. */
  renumber?: 'degree' | 'none';
  /** Override the input's directedness (false: every edge is stored both ways). */
  directed?: boolean;
  /** Store weights as float32 or float64 (default: the input's type); 'none' drops them. */
  weightType?: WeightType | 'none';
  /** Directory of the run files (default: the output's). */
  tmpDir?: string;
  /** Progress of each phase, in its own unit (bytes read, or edges). */
  onProgress?: (phase: ExternalPhase, done: number, total: number) => void;
  /** The disk estimate, once before anything is written and once the edges are counted. */
  onDiskPlan?: (need: DiskEstimate) => void;
  /** Tests: edges per bucket (forces many runs; a hub's list or a page is never cut). */
  runEdges?: number;
  /** Tests: records per block of a run file. */
  blockRecords?: number;
  /** Tests: free bytes of a directory, instead of statfs. */
  freeBytes?: (dir: string) => number;
}

export type DiskEstimate = DiskNeed & { tmpDir: string; outDir: string };

export interface ExternalResult {
  numVertices: number;
  numEdges: number;
  directed: boolean;
  weightType?: WeightType;
  pages: { out: number; in: number };
  /** Buckets of the out and in passes (runs on disk). */
  buckets: { out: number; in: number };
  build: { selfLoopsDropped: number; duplicatesDropped: number };
  memory: MemoryPlan;
}

/** Builds `out` (.tsr) from `stream` in bounded memory. */
export async function buildTsrExternal(stream: EdgeStream, out: string, opts: ExternalOptions): Promise<ExternalResult> {
  const pageEdges = opts.pageEdges ?? DEFAULT_PAGE_EDGES;
  if (!Number.isInteger(pageEdges) || pageEdges < 1 || pageEdges > 0x7fffffff) {
    throw new TesseraError(`page size ${pageEdges} is not a positive integer below 2^31`, { key: 'pageEdges', fix: 'use e.g. 1048576' });
  }
  const directed = opts.directed ?? stream.directed;
  const tmpDir = opts.tmpDir ?? path.dirname(path.resolve(out));
  const stem = path.join(tmpDir, `${path.basename(out)}.run-${process.pid}`);
  const base = process.memoryUsage.rss();
  const progress = opts.onProgress ?? (() => undefined);
  const dirs = { tmpDir, outDir: path.dirname(path.resolve(out)) };
  const free = opts.freeBytes;
  const vertices = await stream.vertices();
  const nv = vertices?.length ?? 0;

  // Up front: what is known before reading (a generator's counts; a text file's estimate). The
  // memory of a file's vertices is known once it is read: here only the part that does not
  // depend on them.
  const ids0 = stream.idSpace ?? nv;
  memoryPlan(opts.hostMemory, base, { keys: ids0, n: ids0, nv, directed, wt: undefined, pageEdges, longest: pageEdges, sparseMax: 0 });
  if (stream.expectedEdges !== undefined) {
    const m = stream.expectedEdges;
    // Weights not known yet (a text file's first line tells): float64, the most they take.
    const input = stream.weights ?? 'float64';
    const wt0 = opts.weightType === 'none' || input === 'none' ? undefined : (opts.weightType ?? input);
    const need = diskNeed(m, stream.idSpace ?? nv, directed, wt0, pageEdges);
    opts.onDiskPlan?.({ ...need, ...dirs });
    checkDisk(need, dirs, false, free);
  }

  const files: RunFile[] = [];
  let writer: TsrStreamWriter | undefined;
  try {
    // 1. raw run
    let raw: RunFile | undefined;
    let wt: WeightType | undefined;
    let max = -1;
    let nanAt = -1;
    await stream.run((src, dst, w, k) => {
      if (raw === undefined) {
        wt = opts.weightType === 'none' || w === undefined ? undefined : (opts.weightType ?? (w instanceof Float32Array ? 'float32' : 'float64'));
        raw = new RunFile(`${stem}.raw`, wt, 1, READ_RECORDS);
        files.push(raw);
      }
      const at = raw.records;
      for (let i = 0; i < k; i++) {
        const s = src[i]!;
        const d = dst[i]!;
        if (s > max) max = s;
        if (d > max) max = d;
        let x = 0;
        if (wt !== undefined) {
          x = w![i]!;
          if (x !== x && nanAt < 0) nanAt = at + i;
        }
        raw.put(0, s, d, x);
      }
    }, (d, t) => progress('read', d, t));
    if (nanAt >= 0) throw new TesseraError(`edge ${nanAt + 1} has a NaN weight`, { file: stream.source, fix: 'give every edge a numeric weight' });
    raw?.finish();
    const m = raw?.records ?? 0;
    if (raw === undefined) raw = new RunFile(`${stem}.raw`, undefined, 1, 1);
    if (!files.includes(raw)) files.push(raw);

    // Now the edges are counted: the exact disk need (ids bounded by the largest).
    const need = diskNeed(m, Math.min(max + 1 + nv, 2 * m + nv), directed, wt, pageEdges);
    opts.onDiskPlan?.({ ...need, ...dirs });
    checkDisk(need, dirs, true, free);

    // 2. ids
    const ids = await keyedIds(raw, vertices, m, max, directed, opts.renumber ?? 'degree', (d) => progress('count', d, m));
    vertices?.clear();
    const { n, plan } = ids;
    if (m === 0 && n === 0) throw new TesseraError('the graph has no vertices and no edges', { file: stream.source, fix: 'check that the input is not empty' });
    const layoutDeg = plan.layoutDeg;
    const rawIn = plan.rawIn;
    const outPlan = planPages(layoutDeg, pageEdges, false);
    let longest = pageEdges;
    for (let v = 0; v < n; v++) longest = Math.max(longest, layoutDeg[v]!, rawIn?.[v] ?? 0);
    const mem = memoryPlan(opts.hostMemory, base, { keys: plan.keys, n, nv, directed, wt, pageEdges, longest, sparseMax: ids.sparseMax });

    // 3. distribution into out-buckets
    const outCap = Math.max(opts.runEdges ?? mem.outBucketEdges, 1);
    const outCut = cutOutPlan(outPlan, outCap);
    // The pages' index by vertex is not needed here (the .tsr does not store it).
    outPlan.firstPageOf = new Uint32Array(0);
    const K = outCut.pageAt.length - 1;
    const arcs = directed ? m : 2 * m;
    const outRuns = new RunFile(`${stem}.out`, wt, Math.max(K, 1), opts.blockRecords ?? blockFor(mem.writeBufferBytes, K, wt));
    files.push(outRuns);
    await distribute(ids, raw, outRuns, bucketsByVertex(n, outCut.vertexAt), directed, (d) => progress('runs', d, m));
    raw.remove();
    ids.release();

    // 4. out-pages (and directed: in-runs)
    const inCap = Math.max(opts.runEdges ?? mem.inBucketEdges, 1);
    const inVertexAt = directed ? cutByDegree(rawIn!, inCap) : [0, n];
    const KI = inVertexAt.length - 1;
    const inRuns = directed ? new RunFile(`${stem}.in`, wt, Math.max(KI, 1), opts.blockRecords ?? blockFor(mem.writeBufferBytes, KI, wt)) : undefined;
    if (inRuns) files.push(inRuns);
    writer = new TsrStreamWriter(out, { numVertices: n, directed, weightType: wt, pageEdges, source: stream.source }, {
      out: outPlan.vBegin.length,
      in: directed ? maxPlannedPages(n, m, pageEdges) : 0,
    });
    const outDegree = new Uint32Array(new SharedArrayBuffer(4 * n));
    const stats = { selfLoopsDropped: 0, duplicatesDropped: 0 };
    const numEdges = await outPages(outRuns, outCut, outPlan, layoutDeg, rawIn, wt, outDegree, stats, writer, inRuns, directed ? bucketsByVertex(n, inVertexAt) : undefined, (d) => progress('out-pages', d, arcs));
    outRuns.remove();
    inRuns?.finish();
    // The staging area, page arena and write buffers are garbage now: gone before the in-pages
    // allocate theirs.
    collectGarbage();

    // 5. in-pages
    let inDegree: Uint32Array = outDegree;
    if (inRuns !== undefined) {
      inDegree = rawIn!;
      await inPages(inRuns, inVertexAt, inDegree, pageEdges, wt, writer, (d) => progress('in-pages', d, numEdges));
      inRuns.remove();
    }
    writer.addArray('outDegree', outDegree);
    if (directed) writer.addArray('inDegree', inDegree);
    writer.addArray('toOriginal', ids.toOriginal);
    writer.addArray('byOriginal', ids.byOriginal);
    writer.finish(numEdges, stats);
    const pages = { out: writer.pages('out'), in: directed ? writer.pages('in') : writer.pages('out') };
    writer = undefined;
    return { numVertices: n, numEdges, directed, weightType: wt, pages, buckets: { out: K, in: directed ? KI : 0 }, build: stats, memory: mem };
  } finally {
    writer?.abort();
    for (const f of files) f.remove();
  }
}

/** Records per write block: the buffers of all buckets share `bytes`; 64 Ki records at most. */
function blockFor(bytes: number, buckets: number, wt: WeightType | undefined): number {
  return Math.max(64, Math.min(1 << 16, Math.floor(bytes / (Math.max(buckets, 1) * 4 * recordWords(wt)))));
}

/**
 * Cuts the planned out-pages into buckets of at most `cap` raw edges (a bucket holds at least one
 * page, and a hub's split pages all). Returns each bucket's first page and first vertex.
 */
function cutOutPlan(plan: PagePlan, cap: number): { pageAt: number[]; vertexAt: number[] } {
  const P = plan.vBegin.length;
  const pageAt = [0];
  const vertexAt = [0];
  let acc = 0;
  for (let i = 0; i < P; ) {
    // A unit: one page, or all the split pages of one vertex.
    let j = i + 1;
    let e = plan.edges[i]!;
    if (plan.split[i]) {
      while (j < P && plan.split[j] && plan.vBegin[j] === plan.vBegin[i]) e += plan.edges[j++]!;
    }
    if (acc > 0 && acc + e > cap) {
      pageAt.push(i);
      vertexAt.push(plan.vBegin[i]!);
      acc = 0;
    }
    acc += e;
    i = j;
  }
  pageAt.push(P);
  vertexAt.push(P === 0 ? 0 : plan.vEnd[P - 1]!);
  return { pageAt, vertexAt };
}

/**
 * Pass 4: the out-buckets in order, each scattered and assembled into out-pages, written as they
 * come; directed graphs send every kept edge to its target's in-bucket. Returns the kept edges.
 */
async function outPages(
  runs: RunFile,
  cut: { pageAt: number[]; vertexAt: number[] },
  plan: PagePlan,
  layoutDeg: Uint32Array,
  rawIn: Uint32Array | undefined,
  wt: WeightType | undefined,
  outDegree: Uint32Array,
  stats: { selfLoopsDropped: number; duplicatesDropped: number },
  writer: TsrStreamWriter,
  inRuns: RunFile | undefined,
  inBucketOf: Uint32Array | undefined,
  progress: (done: number) => void,
): Promise<number> {
  const K = cut.pageAt.length - 1;
  const { firstPageOf: _, ...rows } = plan;
  let largest = 0;
  let arenaSize = 0;
  for (let b = 0; b < K; b++) {
    largest = Math.max(largest, runs.count(b));
    arenaSize = Math.max(arenaSize, arenaBytes(rows.vBegin, rows.vEnd, rows.edges, cut.pageAt[b]!, cut.pageAt[b + 1]!, wt));
  }
  const pool = stagingPool(largest, wt);
  const arena = new PageArena(arenaSize);
  const block = recordBlock(READ_RECORDS, wt);
  let numEdges = 0;
  let done = 0;
  for (let b = 0; b < K; b++) {
    arena.reset();
    const pages = outBucket(runs, b, block, pool, arena, cut.vertexAt[b]!, cut.vertexAt[b + 1]!, layoutDeg, rows, cut.pageAt[b]!, cut.pageAt[b + 1]!, wt, outDegree, rawIn, stats);
    for (const p of pages) {
      writer.addPage('out', p, wt);
      numEdges += p.edges;
      if (inRuns !== undefined) toInRuns(p, inRuns, inBucketOf!);
    }
    const k = runs.count(b);
    done += k;
    progress(done);
    // A hub's own pages and sort scratch are garbage now: returned before the next bucket.
    if (k >= GC_EDGES) collectGarbage();
    await yieldTurn();
  }
  return numEdges;
}

/** Pass 3: every raw edge, renumbered, to its source's out-bucket (undirected: both ways). */
async function distribute(ids: KeyedIds, raw: RunFile, runs: RunFile, bucketOf: Uint32Array, directed: boolean, progress: (done: number) => void): Promise<void> {
  await ids.forEachEdge(
    raw,
    (a, b, x) => {
      runs.put(bucketOf[a]!, a, b, x);
      if (!directed) runs.put(bucketOf[b]!, b, a, x);
    },
    progress,
  );
  runs.finish();
}

/** Cuts [0, n) into vertex ranges of at most `cap` edges by degree (one vertex at least). */
function cutByDegree(deg: Uint32Array, cap: number): number[] {
  const at = [0];
  let acc = 0;
  for (let v = 0; v < deg.length; v++) {
    const d = deg[v]!;
    if (acc > 0 && acc + d > cap) {
      at.push(v);
      acc = 0;
    }
    acc += d;
  }
  at.push(deg.length);
  return at;
}

function bucketsByVertex(n: number, vertexAt: number[]): Uint32Array {
  const of = new Uint32Array(n);
  for (let b = 0; b + 1 < vertexAt.length; b++) of.fill(b, vertexAt[b]!, vertexAt[b + 1]!);
  return of;
}

/** Staging chunks of 2^20 positions (scatter.ts layout), allocated once for the largest bucket. */
interface PoolChunk {
  nbrs: Uint32Array;
  weights: Float32Array | Float64Array | undefined;
}

const CHUNK_BITS = 20;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

function stagingPool(largest: number, wt: WeightType | undefined): PoolChunk[] {
  // Views of one buffer each for ids and weights: the allocator maps a large buffer apart and
  // returns it whole when it is dropped (chunks of 4 MiB would stay resident in its heap).
  const ids = new ArrayBuffer(4 * largest);
  const w = wt === undefined ? undefined : new ArrayBuffer((wt === 'float32' ? 4 : 8) * largest);
  const pool: PoolChunk[] = [];
  for (let at = 0; at < largest; at += 1 << CHUNK_BITS) {
    const k = Math.min(1 << CHUNK_BITS, largest - at);
    pool.push({
      nbrs: new Uint32Array(ids, 4 * at, k),
      weights: w === undefined ? undefined : wt === 'float32' ? new Float32Array(w, 4 * at, k) : new Float64Array(w, 8 * at, k),
    });
  }
  return pool;
}

/**
 * One out-bucket: its records scattered by source into the staging pool (each list in the order
 * the records came, as buildGraph's scatter leaves it), then assembled into out-pages.
 */
function outBucket(
  runs: RunFile,
  b: number,
  block: RecordBlock,
  pool: PoolChunk[],
  arena: PageArena,
  v0: number,
  v1: number,
  layoutDeg: Uint32Array,
  rows: PlanRows,
  i0: number,
  i1: number,
  wt: WeightType | undefined,
  outDegree: Uint32Array,
  inDeg: Uint32Array | undefined,
  stats: { selfLoopsDropped: number; duplicatesDropped: number },
): Page[] {
  const total = runs.count(b);
  const cur = new Uint32Array(v1 - v0);
  for (let v = v0, acc = 0; v < v1; v++) {
    cur[v - v0] = acc;
    acc += layoutDeg[v]!;
  }
  const words = block.words;
  const u = block.u32;
  for (const k of runs.blocks(b, block)) {
    for (let i = 0; i < k; i++) {
      const p = cur[u[i * words]! - v0]!++;
      const c = pool[p >>> CHUNK_BITS]!;
      c.nbrs[p & CHUNK_MASK] = u[i * words + 1]!;
      if (c.weights !== undefined) c.weights[p & CHUNK_MASK] = weightAt(block, i);
    }
  }
  const st: Staging = {
    total,
    nbrs: pool.map((c) => c.nbrs),
    weights: wt === undefined ? undefined : pool.map((c) => c.weights!),
  };
  const r = outPagesRange(st, rows, i0, i1, 0, layoutDeg, wt, outDegree, inDeg, arena.alloc);
  stats.selfLoopsDropped += r.selfLoops;
  stats.duplicatesDropped += r.duplicates;
  return r.pages;
}

/** Every edge of out-page p as a record of its target's in-bucket. */
function toInRuns(p: Page, runs: RunFile, bucketOf: Uint32Array): void {
  const { offsets, nbrs, weights } = p;
  for (let v = p.vBegin; v < p.vEnd; v++) {
    for (let e = offsets[v - p.vBegin]!; e < offsets[v - p.vBegin + 1]!; e++) {
      const t = nbrs[e]!;
      runs.put(bucketOf[t]!, v, t, weights === undefined ? 0 : weights[e]!);
    }
  }
}

/**
 * In-pages from the in-runs: each bucket's records (sources ascending) counting-sorted by target
 * into a local CSR, then copied into pages laid out as layoutPages lays them out, each written
 * once full (a page may span buckets, a hub's list several pages).
 */
async function inPages(
  runs: RunFile,
  vertexAt: number[],
  inDegree: Uint32Array,
  pageEdges: number,
  wt: WeightType | undefined,
  writer: TsrStreamWriter,
  progress: (done: number) => void,
): Promise<void> {
  const block = recordBlock(READ_RECORDS, wt);
  const plan = planPages(inDegree, pageEdges, false);
  plan.firstPageOf = new Uint32Array(0);
  let most = 0;
  for (let i = 0; i < plan.vBegin.length; i++) most = Math.max(most, arenaBytes(plan.vBegin, plan.vEnd, plan.edges, i, i + 1, wt));
  const arena = new PageArena(most);
  let largest = 0;
  for (let b = 0; b + 1 < vertexAt.length; b++) largest = Math.max(largest, runs.count(b));
  const nb = new Uint32Array(largest);
  const wb = wt === undefined ? undefined : wt === 'float32' ? new Float32Array(largest) : new Float64Array(largest);
  let i = 0;
  let page: Page | undefined;
  let fill = 0;
  const open = (): void => {
    arena.reset();
    page = i < plan.vBegin.length ? laidOutPage(plan, i, inDegree, wt, arena.alloc) : undefined;
    fill = 0;
  };
  const close = (): void => {
    writer.addPage('in', page!, wt);
    i++;
    open();
  };
  open();
  let done = 0;
  const words = block.words;
  const u = block.u32;
  for (let b = 0; b + 1 < vertexAt.length; b++) {
    const u0 = vertexAt[b]!;
    const u1 = vertexAt[b + 1]!;
    // cur[t - u0]: next slot of t's list; once filled, the end of t's list (the start of t + 1's).
    const cur = new Uint32Array(u1 - u0);
    for (let t = u0, acc = 0; t < u1; t++) {
      cur[t - u0] = acc;
      acc += inDegree[t]!;
    }
    for (const k of runs.blocks(b, block)) {
      for (let r = 0; r < k; r++) {
        const p = cur[u[r * words + 1]! - u0]!++;
        nb[p] = u[r * words]!;
        if (wb !== undefined) wb[p] = weightAt(block, r);
      }
    }
    for (let t = u0; t < u1; t++) {
      let lo = t === u0 ? 0 : cur[t - u0 - 1]!;
      const hi = cur[t - u0]!;
      while (lo < hi) {
        const k = Math.min(hi - lo, page!.edges - fill);
        page!.nbrs.set(nb.subarray(lo, lo + k), fill);
        if (wb !== undefined) page!.weights!.set(wb.subarray(lo, lo + k), fill);
        fill += k;
        lo += k;
        if (page!.split && fill === page!.edges) close();
      }
      if (page !== undefined && !page.split && t === page.vEnd - 1) close();
    }
    done += runs.count(b);
    progress(done);
    await yieldTurn();
  }
}

