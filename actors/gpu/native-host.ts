/**
 * The addon's functions that need no device (native/src/addon_passes.cpp, addon_tsr.cpp,
 * addon_model.cpp, addon_cpu.cpp): the coordinator's host passes, the .tsr checks and loads, the
 * model's boundary counts and the built-in programs' native CPU kernels. Each accessor returns
 * undefined without an addon (or with an older build), and the caller runs its TypeScript twin.
 */
import type { Page, PageSet } from '../../src/graph/types.js';
import { addonModule } from './native.js';

/**
 * The coordinator's fold of flagged changes on native threads (addon_passes.cpp FoldFlags): for every
 * set flags[i], v = begin + i, 'claim' sets state[v] = value where it is -1, 'min' lowers it to
 * values[i]; changed vertices not yet in `next` join it (and `found`, ascending, with wantList).
 */
export type FoldFlagsFn = (
  op: 'claim' | 'min',
  state: Int32Array | Uint32Array | Float32Array | Float64Array,
  next: Uint8Array,
  flags: Uint8Array,
  begin: number,
  valueOrValues: number | Int32Array | Uint32Array | Float32Array | Float64Array,
  wantList: boolean,
) => { active: number; found?: Uint32Array };

/**
 * The indices of the set flags, ascending, into `out` (at most out.length) on native threads
 * (addon_passes.cpp ListFlags), and with `degree` the sum of degree[i] over them.
 */
export type ListFlagsFn = (flags: Uint8Array, out: Uint32Array, degree?: Uint32Array) => { count: number; edges: number };
/** `advise` (default true): ask for huge pages first (false for an array advised before). */
export type FillArrayFn = (array: Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array, value: number, advise?: boolean) => void;
export type CopyArrayFn = (dst: ArrayBufferView, src: ArrayBufferView) => void;
/** Faults the array's memory in on other threads without writing it; undefined where the kernel cannot. */
export type PopulateFn = (array: ArrayBufferView) => Promise<void> | undefined;
export type FillIndexFn = (array: Int32Array | Uint32Array | Float64Array, advise?: boolean) => void;
export type CountEqualFn = (array: Uint32Array | Int32Array, value: number) => number;
/**
 * A page partition's boundary counts on native threads (addon_model.cpp; src/model/boundary-count.ts
 * countMatricesJs bit for bit): page i's nbrs[i] are held by element pageElement[i] (255: none),
 * owner[w] is w's element; agg and raw (k x k, k <= 24) are overwritten.
 */
export type ModelCountFn = (nbrs: Uint32Array[], pageElement: Uint8Array, owner: Uint8Array, k: number, agg: Float64Array, raw: Float64Array) => void;

/**
 * A .tsr load's blob checks on native threads (addon_tsr.cpp): for blob i, spec[3i..3i+2] =
 * [nv, from, to] (nv = -1: checksum only); out[2i] = tsrChecksum, out[2i+1] = flags (1: offsets
 * words [0, nv] not from 0, decreasing or not ending at to - from; 2: a word of [from, to) >= n).
 */
export type TsrCheckFn = (blobs: Uint8Array[], spec: Float64Array, n: number, out: Uint32Array) => void;
/**
 * tsrCheck with the reads (addon_tsr.cpp): blob i is read from `positions[i]` of fd (pread on the
 * addon's threads) and, with `check`, checked; out[3i], out[3i + 1]: checksum and flags, out[3i + 2]:
 * 0 when it was read whole (else read it again for the error).
 */
export type TsrLoadFn = (fd: number, blobs: Uint8Array[], positions: Float64Array, spec: Float64Array, n: number, check: boolean, out: Uint32Array, whole?: Uint8Array) => Promise<void>;

/** Vertex flags: a byte a vertex (1 = set), or a bit a vertex in 32-bit words (BFS's team: n / 8 bytes stay in cache). */
export type Flags = Uint8Array | Uint32Array;
/** A page set's pages as the addon's CPU kernels read them (NativeCpuKernels.pageSet). */
export type NativePageSet = { readonly __nativePageSet: true };

/** louvainRounds' constants (serial.ts). */
export interface LouvainRoundsOptions {
  classes: number;
  maxSweeps: number;
  tol: number;
  roundTol: number;
  maxRounds: number;
  /** 0: no batched gathering. */
  batchVertices: number;
  batchEntries: number;
  /** Views of fewer entries move unbatched. */
  moveBatches: number;
  /** Aggregation blocks (serial.ts AGGREGATE_BLOCK). */
  block: number;
  /** false: the rounds run on every vertex, not only on those with neighbours. */
  compact: boolean;
}

/**
 * The built-in programs' native CPU kernels (native/src/addon_cpu.cpp), each over one task's range
 * on the calling thread; stats[0] += edges examined, stats[1] += vertices activated.
 */
export interface NativeCpuKernels {
  pageSet(pages: readonly Page[], firstPageOf: Uint32Array): NativePageSet;
  bfsPull(offsets: Uint32Array, nbrs: Uint32Array, vBegin: number, lo: number, hi: number, depth: Int32Array, frontier: Flags, next: Flags, level: number, stats: Float64Array): void;
  /** list[lo, hi) (edgeLo < 0) or list[lo]'s out-edges [edgeLo, edgeHi); claimed ids into found (room for the task's edges), stats[1] of them. */
  bfsPush(out: NativePageSet, list: Uint32Array, lo: number, hi: number, edgeLo: number, edgeHi: number, depth: Int32Array, seen: Int32Array, next: Flags, level: number, found: Uint32Array, stats: Float64Array): void;
  affSample(offsets: Uint32Array, nbrs: Uint32Array, vBegin: number, lo: number, hi: number, comp: Int32Array, rounds: number, stats: Float64Array): void;
  affFinal(out: NativePageSet, inSet: NativePageSet | null, lo: number, hi: number, comp: Int32Array, skip: number, from: number, stats: Float64Array): void;
  /** op 0: comp[v] = v; 1: compress; 2: compress, roots' labels lowered; 3: label[v] = label[root]. */
  affVertex(op: 0 | 1, comp: Int32Array, label: Uint32Array, lo: number, hi: number): void;
  /** deg summed over ids[0, k), or (ids null) over v in [lo, hi) with flags[v] set; absent in older builds. */
  degreeSum?(deg: Uint32Array, ids: Uint32Array | null, k: number, flags: Uint8Array | null, lo: number, hi: number): number;
  /** The vertices whose bits are set in words [wlo, whi) of `bits`, ascending, into out; their count. */
  listBits?(bits: Uint32Array, wlo: number, whi: number, out: Uint32Array): number;
  /** PageRank's pull over page vertices vBegin + [lo, hi) (addon_pr.cpp; pr/kernels.ts): stats[0] += edges, stats[1] += dangling mass; contrib null in the first iteration (r0); absent in older builds. */
  prPull?(offsets: Uint32Array, nbrs: Uint32Array, vBegin: number, lo: number, hi: number, outDeg: Uint32Array, contrib: Float64Array | null, nextContrib: Float64Array, rank: Float64Array, base: number, damping: number, r0: number, stats: Float64Array): void;
  /** SSSP's push from list[lo, hi) over the out-pages (addon_sssp.cpp; sssp/kernels.ts): stats[0] += edges, stats[1] += vertices appended to found; absent in older builds. */
  ssspPush?(out: NativePageSet, list: Uint32Array, lo: number, hi: number, dist: Float64Array, next: Uint8Array, found: Uint32Array, stats: Float64Array): void;
  /** SSSP's pull over page vertices vBegin + [lo, hi): stats[0] += edges, stats[1] += vertices lowered; absent in older builds. */
  ssspPull?(offsets: Uint32Array, nbrs: Uint32Array, weights: Float32Array | Float64Array | null, vBegin: number, lo: number, hi: number, dist: Float64Array, frontier: Uint8Array, next: Uint8Array, stats: Float64Array): void;
  /** delta.ts's bucket filter over [lo, hi) (addon_sssp.cpp; sssp/kernels.ts ssspSelect): stats[0] += taken, stats[1] += left pending; absent in older builds. */
  ssspSelect?(dist: Float64Array, pending: Uint8Array, act: Uint8Array | null, next: Uint8Array, lo: number, hi: number, bound: number, low: Float64Array, stats: Float64Array): void;
  /** The undirected view for vertices [v0, v1) (addon_louvain_view.cpp; engine/undirected-csr.ts fillVertices): count != 0 sets deg and k, else writes the lists from off; returns the bad weights counted; absent in older builds. */
  undirectedFill?(out: NativePageSet, inSet: NativePageSet | null, v0: number, v1: number, count: number, deg: Uint32Array, off: Float64Array, adj: Uint32Array | null, wt: Float64Array | null, k: Float64Array): number;
  /** Louvain's modularity pass over view vertices vBegin + [lo, hi) (addon_louvain_view.cpp; louvain/kernels.ts louvainIntra): stats[0] += entries, stats[1] += weight inside labels; absent in older builds. */
  louvainIntra?(off: Float64Array, adj: Uint32Array, wt: Float64Array | null, label: Uint32Array, vBegin: number, lo: number, hi: number, stats: Float64Array): void;
  /** out[e] = to[adj[e]] (addon_louvain_view.cpp; louvain/serial.ts sequentialRounds); absent in older builds. */
  louvainRenumber?(adj: Uint32Array, to: Int32Array, out: Uint32Array): void;
  /** Per page i of the set, out[3i..3i+2] = the sum and count of its finite weights and its first negative or NaN weight's index (-1: none), on the addon's threads (sssp's weight check); absent in older builds. */
  weightScan?(set: NativePageSet, out: Float64Array): void;
  /** Louvain's coarse graph on one thread per core, members summed in blocks of `block` entries (addon_louvain.cpp; src/programs/louvain/serial.ts aggregate). */
  louvainAggregate?(off: Float64Array, adj: Uint32Array, wt: Float64Array | null, k: Float64Array, loop: Float64Array, comm: Uint32Array, C: number, block: number): { off: Float64Array; adj: Uint32Array; wt: Float64Array; k: Float64Array; loop: Float64Array };
  /**
   * Louvain's sequential local moving (addon_louvain.cpp; serial.ts moveOrdered): comm, tot and
   * size updated in place. batchVertices > 0: the neighbours' weights gathered a batch at a time on
   * every core (batchEntries entries at most), the same result to the bit.
   */
  louvainMoveOrdered?(off: Float64Array, adj: Uint32Array, wt: Float64Array | null, k: Float64Array, comm: Uint32Array, tot: Float64Array, size: Uint32Array, order: Uint32Array, resolution: number, m2: number, maxSweeps: number, tol: number, batchVertices?: number, batchEntries?: number): { sweeps: number; gain: number };
  /** Betweenness's forward push (addon_bc.cpp; src/programs/bc/kernels.ts): depth by compare-and-swap, sigma added by compare-and-swap; stats[0] += edges, stats[1] += vertices appended to found. */
  bcFwdPush?(out: NativePageSet, list: Uint32Array, lo: number, hi: number, dist: Int32Array, sigma: Float64Array, next: Uint8Array, found: Uint32Array, level: number, stats: Float64Array): void;
  /** Betweenness's forward pull over one page's vertices vBegin + [lo, hi). */
  bcFwdPull?(offsets: Uint32Array, nbrs: Uint32Array, vBegin: number, lo: number, hi: number, dist: Int32Array, sigma: Float64Array, frontier: Uint8Array, next: Uint8Array, level: number, stats: Float64Array): void;
  /** Betweenness's backward step over one page's vertices of the level (frontier, or depth where byDist): the TypeScript's sums to the bit. */
  bcBackPull?(offsets: Uint32Array, nbrs: Uint32Array, vBegin: number, lo: number, hi: number, dist: Int32Array, sigma: Float64Array, delta: Float64Array, bc: Float64Array, frontier: Uint8Array, level: number, byDist: boolean, stats: Float64Array): void;
  /** Betweenness's backward step over list[lo, hi). */
  bcBackPush?(out: NativePageSet, list: Uint32Array, lo: number, hi: number, dist: Int32Array, sigma: Float64Array, delta: Float64Array, bc: Float64Array, level: number, byDist: boolean, stats: Float64Array): void;
  /**
   * Louvain's sequential path whole (addon_louvain_rounds.cpp; serial.ts sequentialRounds): the
   * class order, the compaction, the rounds of moves and serial coarse levels, the relabelling.
   * comm: dense ids in order of each community's smallest vertex.
   */
  louvainRounds?(off: Float64Array, adj: Uint32Array, wt: Float64Array | null, k: Float64Array, loop: Float64Array, resolution: number, m2: number, opts: LouvainRoundsOptions): { comm: Uint32Array; levels: number; rounds: number; sweeps: number };
  /**
   * BFS's every level on the calling team thread (addon_bfs.cpp; src/programs/bfs/team.ts): every
   * thread of the team calls it with the same arguments; ctl (zeroed, at least 32 + params[2] + 1
   * entries) is theirs. params: alpha, beta, small, piece, grain, pullPiece, words. stats[0] +=
   * this thread's edges examined, stats[1] = the levels run.
   */
  bfsTeam?(out: NativePageSet, inSet: NativePageSet, deg: Uint32Array, depth: Int32Array, seen: Int32Array, queue: Uint32Array, maps: Uint32Array, ctl: Float64Array, source: number, edges: number, params: Float64Array, stats: Float64Array): void;
  /**
   * wcc's Afforest whole on the calling team thread (addon_cpu.cpp; src/programs/wcc/afforest.ts):
   * every thread of the team calls it with the same arguments, ctl (zeroed, at least 32 entries)
   * theirs; label ends as each component's smallest orig. stats[0] += this thread's edges.
   */
  wccTeam?(out: NativePageSet, inSet: NativePageSet | null, orig: Uint32Array, comp: Int32Array, label: Uint32Array, ctl: Float64Array, rounds: number, piece: number, stats: Float64Array): void;
}

/** The addon's foldFlags, or undefined without an addon (or an older build). */
export function nativeFoldFlags(): FoldFlagsFn | undefined {
  return addonModule()?.foldFlags;
}

/** The addon's listFlags, or undefined without an addon (or an older build). */
export function nativeListFlags(): ListFlagsFn | undefined {
  return addonModule()?.listFlags;
}

/** The addon's copyArray, or undefined without an addon (or an older build). */
export function nativeCopyArray(): CopyArrayFn | undefined {
  return addonModule()?.copyArray;
}

/** The addon's countEqual (entries equal to a value, on its threads), or undefined without an addon (or an older build). */
export function nativeCountEqual(): CountEqualFn | undefined {
  return addonModule()?.countEqual;
}

/** The addon's fillIndex, or undefined without an addon (or an older build). */
export function nativeFillIndex(): FillIndexFn | undefined {
  return addonModule()?.fillIndex;
}

/** The addon's dropFileCache (posix_fadvise DONTNEED), or undefined without an addon (or an older build). */
export function nativeDropFileCache(): ((fd: number, offset: number, length: number) => number) | undefined {
  return addonModule()?.dropFileCache;
}

/** The addon's tsrCheck, or undefined without an addon (or an older build), or with TESSERA_NATIVE_TSR=0 (the JS checks then run). */
export function nativeTsrCheck(): TsrCheckFn | undefined {
  if (process.env.TESSERA_NATIVE_TSR === '0') return undefined;
  return addonModule()?.tsrCheck;
}

/** The addon's modelCount, or undefined without an addon (or an older build), or with TESSERA_NATIVE_MODEL=0 (the JS count then runs). */
export function nativeModelCount(): ModelCountFn | undefined {
  if (process.env.TESSERA_NATIVE_MODEL === '0') return undefined;
  return addonModule()?.modelCount;
}

/** The addon's tsrLoad, or undefined as for nativeTsrCheck. */
export function nativeTsrLoad(): TsrLoadFn | undefined {
  if (process.env.TESSERA_NATIVE_TSR === '0') return undefined;
  return addonModule()?.tsrLoad;
}

/** The addon's tsrStop (loads in flight stop at their next chunk), or undefined with an older build. */
export function nativeTsrStop(): (() => void) | undefined {
  return addonModule()?.tsrStop;
}

/** The addon's fillArray, or undefined without an addon (or an older build). */
export function nativeFillArray(): FillArrayFn | undefined {
  return addonModule()?.fillArray;
}

export function nativePopulate(): PopulateFn | undefined {
  return addonModule()?.populate;
}

/**
 * The addon's CPU kernels, or undefined without an addon, with an older build, or with
 * TESSERA_NATIVE_KERNELS=0 (the programs' TypeScript kernels then run: tests compare the two).
 */
export function nativeCpuKernels(): NativeCpuKernels | undefined {
  if (process.env.TESSERA_NATIVE_KERNELS === '0') return undefined;
  return addonModule()?.cpu;
}

const pageSets = new WeakMap<PageSet, NativePageSet>();

/** The addon's handle of a page set (cached per PageSet, which keeps the pages' buffers alive). */
export function nativePageSet(cpu: NativeCpuKernels, set: PageSet): NativePageSet {
  let h = pageSets.get(set);
  if (h === undefined) pageSets.set(set, (h = cpu.pageSet(set.pages, set.firstPageOf)));
  return h;
}
