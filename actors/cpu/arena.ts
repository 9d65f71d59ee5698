/**
 * A socket actor's share of a page store's host cache (src/graph/store.ts): an arena of shared
 * memory (chunks of at most 1 GiB) used as a ring, pages at their exact sizes one after another,
 * and a page table its threads read. The superstep's tasks run in batches whose pages fit half the
 * arena; while one batch runs, the next one's pages are read into the ring ahead of it (GTS
 * overlaps page reads with kernels the same way), the oldest pages giving way first except those
 * the running or the next batch walks (the ring steps over them). Only the pages a task walks are
 * read (a push's frontier vertices' pages: Graphie's active pages). The actor walks its batches
 * forwards and backwards in turn, so a superstep starts with the pages the last one ended with.
 * The table changes only between batches (the threads are idle then); a page about to be
 * overwritten leaves it before the batch that runs meanwhile starts, so a thread that walks a page
 * outside its batch reads it on its own (PageSource) and never sees memory change under it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { TesseraError } from '../../src/errors.js';
import { arenaBytes, checkedBlob, keyName, RUN_PAGE, type PageStore } from '../../src/graph/store.js';
import { readAt } from '../../src/graph/tsr-read.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { Task } from '../../src/wire/frames.js';
import { nativeDropFileCache } from '../gpu/native-host.js';

const dropCache = nativeDropFileCache();

/** Reads in flight while a batch's pages are fetched. */
const READS = 8;

/** Runs of pages read with one call (arenaBytes: pages from RUN_PAGE on lie as in the file). */
const RUN_BYTES = 64 << 20;

/** Largest arena chunk (share.ts, which workers import without this module): no buffer near Node's 4 GiB limits. */
export { ARENA_CHUNK } from './share.js';

/** Page reads planned for a batch: key, chunk, byte offset. */
export type Loads = Array<[number, number, number]>;

/** A page's place in a chunk (held, or being read). */
interface Held {
  start: number;
  end: number;
  key: number;
}

export class PageArena {
  /** The page table (ArenaTable.where), shared with the actor's threads. */
  readonly where: Int32Array;
  /** Per chunk, what it holds in offset order. */
  private readonly held: Held[][];
  private chunk = 0;
  private at = 0;
  private readonly verified: Uint8Array;
  private fh: FileHandle | undefined;
  /** Bytes read into the arena (the actor's report). */
  bytesRead = 0;

  constructor(
    readonly store: PageStore,
    where: SharedArrayBuffer,
    readonly chunks: SharedArrayBuffer[],
    private readonly graph: KernelGraph,
    /** Pages from this size on lie in the arena as in the file (RUN_PAGE; tests use others). */
    private readonly runPage = RUN_PAGE,
  ) {
    this.where = new Int32Array(where);
    this.held = chunks.map(() => []);
    this.verified = new Uint8Array(store.entries.length);
  }

  /**
   * Bytes a batch's pages may take: half the arena (the next batch's pages are read meanwhile),
   * less a page for each chunk end a batch may pass (the ring may leave that much unused there).
   */
  get batchBytes(): number {
    const arena = this.chunks.reduce((a, c) => a + c.byteLength, 0);
    const page = arenaBytes(this.store.maxBlob, this.runPage);
    return Math.max(page, Math.floor(arena / 2) - page * (Math.ceil(this.chunks.length / 2) + 1));
  }

  /**
   * Bytes a page takes in the arena: a large page as much as up to the next blob in the file, so
   * that pages placed one after another in key order lie as they do in the file and one read
   * fetches a run of them.
   */
  pageBytes(key: number): number {
    return arenaBytes(this.store.entries[key]!.length, this.runPage);
  }

  /**
   * Places the pages of `keys` that are not held at the ring's cursor, stepping over the pages of
   * `keep` (the running batch) and those placed already, and takes the pages they overwrite out of
   * the table now. A held page of `keys` in the way is overwritten and placed again after (read
   * twice, but the ring stays whole). A page with no room left (a lap found none) stays out: its
   * readers read it on their own.
   */
  stage(keys: readonly number[], keep: ReadonlySet<number>): Loads {
    const loads: Loads = [];
    const busy = new Set<number>(keep);
    const wanted = new Set<number>(keys);
    // In key order: consecutive pages then lie as in the file (fill reads runs of them).
    const queue = [...keys].sort((a, b) => a - b);
    for (let q = 0; q < queue.length; q++) {
      const k = queue[q]!;
      if (this.where[2 * k]! >= 0 || busy.has(k)) continue;
      const place = this.place(this.pageBytes(k), k, busy, (d) => wanted.has(d) && !busy.has(d) && queue.push(d));
      if (place === undefined) break;
      busy.add(k);
      loads.push([k, place[0], place[1]]);
    }
    return loads;
  }

  /**
   * Room for `size` bytes at the cursor, recorded as page `key`, stepping over `busy` pages and
   * telling `evicted` of each page it overwrites; undefined after a lap without room.
   */
  private place(size: number, key: number, busy: ReadonlySet<number>, evicted: (key: number) => void): [number, number] | undefined {
    let lap = 0;
    for (;;) {
      const cap = this.chunks[this.chunk]!.byteLength;
      if (this.at + size > cap) {
        lap += cap - this.at;
        if (lap > 2 * this.chunks.reduce((a, c) => a + c.byteLength, 0)) return undefined;
        this.chunk = (this.chunk + 1) % this.chunks.length;
        this.at = 0;
        continue;
      }
      const list = this.held[this.chunk]!;
      // The first held page ending after the cursor, then those overlapping [at, at + size).
      let i = 0;
      while (i < list.length && list[i]!.end <= this.at) i++;
      let j = i;
      let stepped = false;
      while (j < list.length && list[j]!.start < this.at + size) {
        if (busy.has(list[j]!.key)) {
          lap += list[j]!.end - this.at;
          this.at = list[j]!.end;
          stepped = true;
          break;
        }
        j++;
      }
      if (stepped) continue;
      for (let x = i; x < j; x++) {
        const k = list[x]!.key;
        this.where[2 * k] = -1;
        evicted(k);
      }
      const start = this.at;
      list.splice(i, j - i, { start, end: start + size, key });
      this.at += size;
      return [this.chunk, start];
    }
  }

  /** Reads the staged pages into the arena (READS at a time), each checked when first read. */
  async fill(loads: Loads): Promise<void> {
    if (loads.length === 0) return;
    const st = this.store;
    this.fh ??= await open(st.file, 'r').catch((e: Error) => {
      throw new TesseraError(`cannot open: ${e.message}`, { file: st.file, fix: 'check that the file is still there and readable' });
    });
    const fh = this.fh;
    // Runs: loads that lie in the arena as in the file, read with one call each (up to RUN_BYTES).
    const runs: Array<[number, number]> = [];
    for (let i = 0; i < loads.length; ) {
      let j = i + 1;
      const [k0, c0, a0] = loads[i]!;
      const e0 = st.entries[k0]!;
      while (j < loads.length) {
        const [k, c, a] = loads[j]!;
        const e = st.entries[k]!;
        if (c !== c0 || e0.length < this.runPage || e.length < this.runPage || a - a0 !== e.offset - e0.offset || e.offset + e.length - e0.offset > RUN_BYTES) break;
        j++;
      }
      runs.push([i, j]);
      i = j;
    }
    let next = 0;
    const one = async (): Promise<void> => {
      for (let r = next++; r < runs.length; r = next++) {
        const [i, j] = runs[r]!;
        const [k0, chunk, at] = loads[i]!;
        const first = st.entries[k0]!;
        const last = st.entries[loads[j - 1]![0]]!;
        const span = last.offset + last.length - first.offset;
        await readAt(fh, new Uint8Array(this.chunks[chunk]!, at, span), first.offset, st.file, st.source);
        this.bytesRead += span;
        dropCache?.(fh.fd, first.offset, span);
        for (let x = i; x < j; x++) {
          const [key, , pat] = loads[x]!;
          if (this.verified[key] === 1) continue;
          const e = st.entries[key]!;
          const set = key < this.graph.out.pages.length ? this.graph.out : this.graph.in;
          checkedBlob(this.chunks[chunk]!, e, st, set.pages[e.index]!.offsets, keyName(st, key), pat);
          this.verified[key] = 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS, runs.length) }, one));
  }

  /** Puts filled pages in the table (between batches). */
  commit(loads: Loads): void {
    for (const [key, chunk, at] of loads) {
      this.where[2 * key] = chunk;
      this.where[2 * key + 1] = at / 8;
    }
  }

  async close(): Promise<void> {
    await this.fh?.close().catch(() => undefined);
    this.fh = undefined;
  }
}

/** One batch of a superstep's tasks and the page keys they walk. */
export interface Batch {
  tasks: Task[];
  keys: number[];
}

/** The page keys a task walks: its pages (pull), or the out-pages of its frontier slice's vertices (push). */
export function taskKeys(g: KernelGraph, t: Task, how: { mode: 'push' | 'pull'; pullPages: 'in' | 'out'; list: Uint32Array | undefined }, into: Set<number>): void {
  if (how.mode === 'pull') {
    const set = how.pullPages === 'out' ? g.out : g.in;
    const base = set.stored?.base ?? 0;
    for (let i = 0; i < t.count; i++) into.add(base + t.page + i);
    return;
  }
  const set = g.out;
  const base = set.stored?.base ?? 0;
  const list = how.list!;
  const pages = set.pages;
  let last = -1;
  for (let i = t.lo; i < t.hi; i++) {
    const v = list[i]!;
    let p = set.firstPageOf[v]!;
    if (!pages[p]!.split) {
      if (p !== last) into.add(base + p), (last = p);
      continue;
    }
    // A hub's split pages: those holding its edges [edgeLo, edgeHi) (all of them for a whole vertex).
    const lo = t.edgeHi !== undefined ? (t.edgeLo ?? 0) : 0;
    const hi = t.edgeHi ?? Infinity;
    for (let at = 0; p < pages.length && pages[p]!.split && pages[p]!.vBegin === v; at += pages[p]!.edges, p++) {
      if (at < hi && at + pages[p]!.edges > lo) into.add(base + p);
    }
    last = p - 1;
  }
}

/** Cuts tasks (in queue order) into batches whose pages take at most `cap` bytes (a task alone may take more). */
export function batches(tasks: readonly Task[], cap: number, keysOf: (t: Task, into: Set<number>) => void, bytesOf: (key: number) => number): Batch[] {
  const out: Batch[] = [];
  let cur: Batch = { tasks: [], keys: [] };
  let seen = new Set<number>();
  let bytes = 0;
  const mine = new Set<number>();
  for (const t of tasks) {
    mine.clear();
    keysOf(t, mine);
    let fresh = 0;
    for (const k of mine) if (!seen.has(k)) fresh += bytesOf(k);
    if (cur.tasks.length > 0 && bytes + fresh > cap) {
      out.push(cur);
      cur = { tasks: [], keys: [] };
      seen = new Set();
      bytes = 0;
    }
    cur.tasks.push(t);
    for (const k of mine) if (!seen.has(k)) seen.add(k), cur.keys.push(k), (bytes += bytesOf(k));
  }
  if (cur.tasks.length > 0) out.push(cur);
  return out;
}
