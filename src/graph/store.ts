/**
 * Pages read from a `.tsr` on demand: graphs larger than host memory (GTS streams a graph's
 * slotted pages from SSDs, §3; Graphie reads only the pages a superstep walks). Every
 * vertex-indexed array stays in RAM (degrees, id maps, each page's CSR offsets, program state);
 * the pages' edges (neighbour ids, weights) stay in the file:
 * - a socket actor reads the pages a batch of its tasks walks into its share of the limit (a ring
 *   of shared memory, actors/cpu/arena.ts) ahead of the batch; its threads see them through the
 *   actor's page table;
 * - a GPU actor's controller reads a page from the file whenever it loads it onto the device
 *   (through its pinned staging ring: actors/gpu/native.ts registerPageSet);
 * - anything else (the coordinator's own small supersteps, a driver's pass, a task walking past
 *   its batch's pages) reads a page into a buffer of its own and keeps the last few
 *   (`PageSource`); a kernel may hold such a view as long as it likes (nothing reuses it).
 * A `StoredPage` is a Page whose `nbrs`, `weights` and `buffer` are resolved when read, so
 * kernels need no change; each blob is verified (checksum, neighbour ids) when first read.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { TesseraError } from '../errors.js';
import { pageOver, weightBytes } from './pages.js';
import { offsetsProblem } from './tsr-check.js';
import { damagedFix, pageFrom, readAt, readTsrArray, readTsrHeader } from './tsr-read.js';
import { TSR_ALIGN, type TsrHeader, type TsrPageEntry } from './tsr-format.js';
import type { Graph, Orientation, Page, PageSet, WeightType } from './types.js';
import bytes from 'bytes-iec';
import { checkGraphFits } from './memory.js';
import { nativeDropFileCache } from '../../actors/gpu/native-host.js';
import { firstPages } from './first-pages.js';

// The kernel's cache of what a store read is let go (posix_fadvise): the pages' host memory is
// the actors' arenas', bounded by hostMemoryLimit, and a pass over a graph larger than memory would only
// evict them. Without the addon the kernel keeps its cache.
const dropCache = nativeDropFileCache();

/** One graph file's pages, by key: out-pages from 0, then (directed graphs) in-pages. */
export interface PageStore {
  readonly file: string;
  readonly numVertices: number;
  readonly weightType: WeightType | undefined;
  readonly source: string;
  /** Host memory the pages' edges may take at once (hostMemoryLimit). */
  readonly cacheBytes: number;
  /** The largest page blob. */
  readonly maxBlob: number;
  readonly entries: readonly TsrPageEntry[];
}

/** What a page set read from a store carries (PageSet.stored). */
export interface StoredSet {
  readonly store: PageStore;
  /** Key of the set's page 0. */
  readonly base: number;
  /** Every page's offsets, one after another (resident). */
  readonly offsets: Uint32Array;
  /** Where each page's offsets start in `offsets`. */
  readonly offsetsAt: Uint32Array;
}

/**
 * Where a socket actor's arena holds pages: `where[2 key]` the chunk holding page `key` (-1: not
 * held), `where[2 key + 1]` its byte offset there / 8.
 */
export interface ArenaTable {
  readonly where: Int32Array;
  readonly chunks: readonly SharedArrayBuffer[];
}

/** A page of a store: offsets resident, edges read when first asked for (see PageSource). */
export class StoredPage implements Page {
  /** Where `view` lies (chunk, byte offset; -1: none), for sources with an arena table. */
  chunk = -1;
  at = 0;
  view: Page | undefined;
  constructor(
    readonly index: number,
    readonly vBegin: number,
    readonly vEnd: number,
    readonly split: boolean,
    readonly edges: number,
    readonly offsets: Uint32Array,
    readonly key: number,
    readonly source: PageSource,
  ) {}
  get nbrs(): Uint32Array {
    return this.source.page(this).nbrs;
  }
  get weights(): Float32Array | Float64Array | undefined {
    return this.source.page(this).weights;
  }
  get buffer(): SharedArrayBuffer {
    return this.source.page(this).buffer;
  }
  /** Where the page lies in its file: a GPU controller reads it from there itself (actors/gpu/native.ts). */
  get blob(): { file: string; offset: number; length: number; weightBytes: number } {
    const st = this.source.store;
    const e = st.entries[this.key]!;
    return { file: st.file, offset: e.offset, length: e.length, weightBytes: weightBytes(st.weightType) };
  }
}

/**
 * Where one thread's stored pages come from: its socket actor's arena, else the file,
 * each read into a fresh buffer; the last `keep` read stay held (a kernel reads `p.nbrs` once a
 * page, a driver walks pages in order).
 */
export class PageSource {
  private fd: number | undefined;
  private readonly held = new Map<number, Page>();
  private readonly verified: Uint8Array;
  /** Bytes read from the file by this source (reports, tests). */
  bytesRead = 0;
  constructor(
    readonly store: PageStore,
    private readonly keep: number,
    readonly arena?: ArenaTable,
  ) {
    this.verified = new Uint8Array(store.entries.length);
  }

  page(p: StoredPage): Page {
    const t = this.arena;
    const c = t === undefined ? -1 : t.where[2 * p.key]!;
    if (c >= 0) {
      const at = 8 * t!.where[2 * p.key + 1]!;
      if (p.chunk !== c || p.at !== at || p.view === undefined) {
        p.view = pageOver(t!.chunks[c]!, p.index, p.vBegin, p.vEnd, p.edges, p.split, this.store.weightType, at);
        p.chunk = c;
        p.at = at;
      }
      return p.view;
    }
    let v = this.held.get(p.key);
    if (v !== undefined) {
      this.held.delete(p.key);
      this.held.set(p.key, v);
      return v;
    }
    v = this.read(p);
    this.held.set(p.key, v);
    if (this.held.size > this.keep) this.held.delete(this.held.keys().next().value!);
    return v;
  }

  private read(p: StoredPage): Page {
    const st = this.store;
    const e = st.entries[p.key]!;
    const sab = new SharedArrayBuffer(e.length);
    const bytes = new Uint8Array(sab);
    try {
      this.fd ??= openSync(st.file, 'r');
      for (let off = 0; off < e.length; ) {
        const n = readSync(this.fd, bytes, off, e.length - off, e.offset + off);
        if (n === 0) throw new TesseraError(`the file is truncated (it ends before byte ${e.offset + e.length})`, { file: st.file, fix: damagedFix(st.source) });
        off += n;
      }
    } catch (err) {
      if (err instanceof TesseraError) throw err;
      throw new TesseraError(`cannot read page ${p.key}: ${(err as Error).message}`, { file: st.file, fix: 'check that the file is still there and readable' });
    }
    this.bytesRead += e.length;
    dropCache?.(this.fd, e.offset, e.length);
    if (this.verified[p.key] === 1) return pageOver(sab, p.index, p.vBegin, p.vEnd, p.edges, p.split, st.weightType);
    const page = checkedBlob(sab, e, st, p.offsets, keyName(st, p.key));
    this.verified[p.key] = 1;
    return page;
  }

  /** Drops the held pages and closes the file (reopened if asked again). */
  close(): void {
    this.held.clear();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** 'out page 3' / 'in page 0' of a key. */
export function keyName(st: PageStore, key: number): string {
  const e = st.entries[key]!;
  return `${key === e.index ? 'out' : 'in'} page ${e.index}`;
}

/**
 * A blob read into `sab` (at its start), checked as a read .tsr page is (checksum, structure,
 * neighbour ids) and its offsets against the resident copy the kernels read.
 */
export function checkedBlob(sab: SharedArrayBuffer, e: TsrPageEntry, st: PageStore, offsets: Uint32Array, what: string, base = 0): Page {
  const page = pageFrom(sab, e, st, st.file, what, true, base);
  for (let i = 0; i < offsets.length; i++) {
    if (page.offsets[i] !== offsets[i]) throw new TesseraError(`${what} is corrupt: its offsets changed since the file was opened`, { file: st.file, fix: damagedFix(st.source) });
  }
  return page;
}

/** Pages of one orientation over a store's entries [base, base + count). */
export function storedSet(orientation: Orientation, store: PageStore, base: number, count: number, offsets: Uint32Array, offsetsAt: Uint32Array, firstPageOf: Uint32Array, source: PageSource): PageSet {
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const e = store.entries[base + i]!;
    const nv = e.vEnd - e.vBegin;
    pages.push(new StoredPage(i, e.vBegin, e.vEnd, e.split, e.edges, offsets.subarray(offsetsAt[i]!, offsetsAt[i]! + nv + 1), base + i, source));
  }
  return { orientation, pages, firstPageOf, stored: { store, base, offsets, offsetsAt } };
}

/** Bytes of a .tsr's page blobs (what a page store holds on disk). */
export function pageBytesOf(header: TsrHeader): number {
  let b = 0;
  for (const e of header.pages.out) b += e.length;
  if (header.directed) for (const e of header.pages.in) b += e.length;
  return b;
}

const iec = (b: number): string => bytes.format(b, { mode: 'binary', decimalPlaces: 1, unitSeparator: ' ' }) ?? `${b} B`;

/** Pages from this size on lie in an actor's arena as in the file, so runs of them are read at once. */
export const RUN_PAGE = 1 << 16;

/** Bytes a page blob of `length` takes in an actor's arena (actors/cpu/arena.ts). */
export function arenaBytes(length: number, runPage = RUN_PAGE): number {
  return length >= runPage ? Math.ceil(length / TSR_ALIGN) * TSR_ALIGN : (length + 7) & ~7;
}

/** Pages each reader keeps of those it reads itself (PageSource). */
export const KEEP = 2;

/** Offset reads in flight while opening a store. */
const OFFSET_READS = 16;

/**
 * Opens a .tsr as a page store: reads its header, vertex arrays and every page's offsets (4 bytes
 * a vertex and orientation), and leaves the edges in the file. `cacheBytes`: the host memory the
 * edges may take at once (the engine splits it between its socket actors' arenas).
 */
export async function openStoredTsr(path: string, cacheBytes: number): Promise<Graph> {
  const header = await readTsrHeader(path);
  const n = header.numVertices;
  // Resident: per vertex its degrees, id maps and offsets, and the page cache.
  checkGraphFits(n, 0, { file: path, what: 'this .tsr', says: `holds ${n} vertices, whose arrays stay in memory beside the ${iec(cacheBytes)} page cache`, held: cacheBytes });
  const entries = header.directed ? [...header.pages.out, ...header.pages.in] : header.pages.out;
  let maxBlob = 0;
  for (const e of entries) maxBlob = Math.max(maxBlob, e.length);
  const store: PageStore = { file: path, numVertices: n, weightType: header.weightType, source: header.source, cacheBytes, maxBlob, entries };
  const source = new PageSource(store, KEEP);
  const fh = await open(path, 'r');
  const setOf = async (o: Orientation, base: number): Promise<PageSet> => {
    const table = o === 'out' ? header.pages.out : header.pages.in;
    const offsetsAt = new Uint32Array(table.length);
    let total = 0;
    for (let i = 0; i < table.length; i++) (offsetsAt[i] = total), (total += table[i]!.vEnd - table[i]!.vBegin + 1);
    const offsets = new Uint32Array(new SharedArrayBuffer(4 * total));
    const bytes = new Uint8Array(offsets.buffer);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < table.length; i = next++) {
        const e = table[i]!;
        const len = 4 * (e.vEnd - e.vBegin + 1);
        const at = 4 * offsetsAt[i]!;
        await readAt(fh, bytes.subarray(at, at + len), e.offset, path, header.source);
        const problem = offsetsProblem({ offsets: offsets.subarray(offsetsAt[i]!, offsetsAt[i]! + len / 4), vBegin: e.vBegin, vEnd: e.vEnd, edges: e.edges }, true);
        if (problem !== undefined) throw new TesseraError(`${o} page ${i} is corrupt: ${problem}`, { file: path, fix: damagedFix(header.source) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(OFFSET_READS, table.length) }, worker));
    return storedSet(o, store, base, table.length, offsets, offsetsAt, firstPages(table, n), source);
  };
  try {
    const out = await setOf('out', 0);
    const inSet = header.directed ? await setOf('in', header.pages.out.length) : out;
    const outDegree = await readTsrArray(fh, header, 'outDegree');
    const inDegree = header.directed ? await readTsrArray(fh, header, 'inDegree') : outDegree;
    const toOriginal = await readTsrArray(fh, header, 'toOriginal');
    const byOriginal = await readTsrArray(fh, header, 'byOriginal');
    return { numVertices: n, numEdges: header.numEdges, directed: header.directed, weightType: header.weightType, out, in: inSet, outDegree, inDegree, ids: { toOriginal, byOriginal }, pageEdges: header.pageEdges, source: header.source };
  } finally {
    await fh.close();
  }
}

/**
 * How the sockets' part of a store's page cache (`bytes`, default all of it) is shared out: each
 * socket actor's arena bytes in proportion to its threads, after what every reader of single
 * pages keeps (`keep` pages a thread and two for the coordinator, each as large as the largest).
 * Too small a limit is refused, naming the least that works.
 */
export function arenaShares(store: PageStore, threads: readonly number[], keep: number, bytes = store.cacheBytes): number[] {
  const readers = readersBytes(store, threads, keep);
  const total = threads.reduce((a, b) => a + b, 0);
  const shares = threads.map((t) => Math.floor(((bytes - readers) * t) / total / 8) * 8);
  // An arena holds at least four of the largest page: one batch's, the next one's (read
  // meanwhile) and what the ring may leave unused at a chunk's end in each.
  const page = arenaBytes(store.maxBlob);
  if (shares.some((s) => s < 4 * page)) {
    throw new TesseraError(`hostMemoryLimit ${iec(store.cacheBytes)} (--host-memory, or the topology's) is too small for pages of up to ${iec(store.maxBlob)} on this topology`, {
      key: 'hostMemoryLimit',
      fix: `raise hostMemoryLimit (--host-memory) to at least ${iec(leastForSockets(store, threads, keep))}, or convert the graph with smaller pages (tessera convert --page-edges)`,
    });
  }
  return shares;
}

/** What the readers of single pages keep: `keep` pages a thread and two for the coordinator, each as large as the largest. */
export function readersBytes(store: PageStore, threads: readonly number[], keep: number): number {
  return (2 + keep * threads.reduce((a, b) => a + b, 0)) * store.maxBlob;
}

/** The least host memory arenaShares accepts for these sockets. */
export function leastForSockets(store: PageStore, threads: readonly number[], keep: number): number {
  const total = threads.reduce((a, b) => a + b, 0);
  return readersBytes(store, threads, keep) + Math.max(...threads.map((t) => Math.ceil((4 * total) / t))) * arenaBytes(store.maxBlob);
}

/** Bytes of a store's pages (both orientations) that overlap the vertex ranges. */
function rangePageBytes(store: PageStore, ranges: ReadonlyArray<readonly [number, number]>): number {
  let bytes = 0;
  for (const e of store.entries) if (ranges.some(([b, en]) => e.vEnd > b && e.vBegin < en)) bytes += e.length;
  return bytes;
}

/**
 * How hostMemoryLimit is shared on a topology for a graph read from disk (undefined for one in
 * memory): each actor in proportion to the page bytes of the vertices it owns, the sockets at least
 * what arenaShares needs. Sockets get arenas (actors/cpu/arena.ts); GPU actors a host buffer of
 * the pages they read from the file (the controller's, GTS's MMBuf; none below a page). Stealing
 * would read a page twice: refused.
 */
export function storeArenas(
  graph: Graph,
  topology: { sockets: ReadonlyArray<{ threads: number }> },
  steal: string | undefined,
  gpuOwned: ReadonlyArray<ReadonlyArray<readonly [number, number]>> = [],
): { sockets: number[]; gpus: number[] } | undefined {
  const store = graph.out.stored?.store;
  if (store === undefined) return undefined;
  if (steal === 'always')
    throw new TesseraError(`steal 'always' does not apply to a graph read from disk page by page (a stolen page would be read twice)`, { key: 'steal', fix: 'drop --steal always, or drop hostMemoryLimit / --host-memory' });
  const threads = topology.sockets.map((s) => s.threads);
  const all = store.entries.reduce((a, e) => a + e.length, 0);
  const gpuBytes = gpuOwned.map((r) => rangePageBytes(store, r));
  const gpuAll = gpuBytes.reduce((a, b) => a + b, 0);
  const cpuPart = all > 0 ? Math.max(0, all - gpuAll) / all : 1;
  const socketBytes = gpuAll === 0 ? store.cacheBytes : Math.min(store.cacheBytes, Math.max(leastForSockets(store, threads, KEEP), Math.floor(store.cacheBytes * cpuPart)));
  const left = store.cacheBytes - socketBytes;
  const gpus = gpuBytes.map((b) => {
    const share = gpuAll > 0 ? Math.floor((left * b) / gpuAll / 8) * 8 : 0;
    return share >= store.maxBlob ? share : 0;
  });
  return { sockets: arenaShares(store, threads, KEEP, socketBytes), gpus };
}
