/**
 * A socket actor's share of a page store's host cache (src/graph/store.ts): fixed slots of shared
 * memory, each holding one page blob, and a slot table its threads read. The superstep's tasks
 * run in batches whose pages fit half the slots; while one batch runs, the next one's pages are
 * read into slots the running batch does not use (GTS overlaps page reads with kernels the same
 * way), the least recently used first, so pages a loop walks every superstep stay when they fit.
 * Only the pages a task walks are read (a push's frontier vertices' pages: Graphie's active
 * pages). The table changes only between batches (the threads are idle then); a slot about to be
 * refilled leaves the table before the batch that runs meanwhile starts, so a thread that walks a
 * page outside its batch reads it on its own (PageSource) and never sees a slot change under it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { TesseraError } from '../../src/errors.js';
import { checkedBlob, keyName, type PageStore } from '../../src/graph/store.js';
import { damagedFix } from '../../src/graph/tsr-read.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { Task } from '../../src/wire/frames.js';
import { nativeDropFileCache } from '../gpu/native.js';

const dropCache = nativeDropFileCache();

/** Reads in flight while a batch's pages are fetched. */
const READS = 8;

/** Page reads planned for a batch: [key, slot] pairs, filled by `fill`, mapped by `commit`. */
export type Loads = Array<[number, number]>;

export class SlotPool {
  /** Slot holding each page key, or -1 (shared with the actor's threads). */
  readonly slotOf: Int32Array;
  readonly buffers: SharedArrayBuffer[];
  private readonly pageIn: Int32Array;
  private readonly used: Float64Array;
  private clock = 0;
  private readonly verified: Uint8Array;
  private fh: FileHandle | undefined;
  /** Bytes read into slots (the actor's report). */
  bytesRead = 0;

  constructor(
    readonly store: PageStore,
    slotOf: SharedArrayBuffer,
    buffers: SharedArrayBuffer[],
    private readonly graph: KernelGraph,
  ) {
    this.slotOf = new Int32Array(slotOf);
    this.buffers = buffers;
    this.pageIn = new Int32Array(buffers.length).fill(-1);
    this.used = new Float64Array(buffers.length);
    this.verified = new Uint8Array(store.entries.length);
  }

  /** Slots a batch may fill: half, so the next batch's pages can be read meanwhile. */
  get batchPages(): number {
    return Math.max(1, this.buffers.length >> 1);
  }

  /**
   * Picks slots for the pages of `keys` that are not resident, least recently used first among
   * slots holding nothing of `keep` or `keys`, and takes the pages they held out of the table now.
   * Pages with no slot left stay out (their readers read them on their own). `keys` are distinct.
   */
  stage(keys: readonly number[], keep: ReadonlySet<number>): Loads {
    const loads: Loads = [];
    const taken = new Set<number>();
    for (const k of keys) {
      const s = this.slotOf[k]!;
      if (s >= 0) (this.used[s] = ++this.clock), taken.add(s);
    }
    for (const k of keys) {
      if (this.slotOf[k]! >= 0) continue;
      let best = -1;
      for (let s = 0; s < this.buffers.length; s++) {
        if (taken.has(s)) continue;
        const held = this.pageIn[s]!;
        if (held >= 0 && keep.has(held)) continue;
        if (best < 0 || this.used[s]! < this.used[best]!) best = s;
      }
      if (best < 0) break;
      const held = this.pageIn[best]!;
      if (held >= 0) this.slotOf[held] = -1;
      this.pageIn[best] = -1;
      this.used[best] = ++this.clock;
      taken.add(best);
      loads.push([k, best]);
    }
    return loads;
  }

  /** Reads the staged pages into their slots (READS at a time), each checked when first read. */
  async fill(loads: Loads): Promise<void> {
    if (loads.length === 0) return;
    const st = this.store;
    this.fh ??= await open(st.file, 'r').catch((e: Error) => {
      throw new TesseraError(`cannot open: ${e.message}`, { file: st.file, fix: 'check that the file is still there and readable' });
    });
    const fh = this.fh;
    let next = 0;
    const one = async (): Promise<void> => {
      for (let i = next++; i < loads.length; i = next++) {
        const [key, slot] = loads[i]!;
        const e = st.entries[key]!;
        const bytes = new Uint8Array(this.buffers[slot]!, 0, e.length);
        for (let off = 0; off < e.length; ) {
          const { bytesRead } = await fh.read(bytes, off, e.length - off, e.offset + off);
          if (bytesRead === 0) throw new TesseraError(`the file is truncated (it ends before byte ${e.offset + e.length})`, { file: st.file, fix: damagedFix(st.source) });
          off += bytesRead;
        }
        this.bytesRead += e.length;
        dropCache?.(fh.fd, e.offset, e.length);
        if (this.verified[key] === 0) {
          const set = key < this.graph.out.pages.length ? this.graph.out : this.graph.in;
          checkedBlob(this.buffers[slot]!, e, st, set.pages[e.index]!.offsets, keyName(st, key));
          this.verified[key] = 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS, loads.length) }, one));
  }

  /** Puts filled pages in the table (between batches). */
  commit(loads: Loads): void {
    for (const [key, slot] of loads) {
      this.pageIn[slot] = key;
      this.slotOf[key] = slot;
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
export function taskKeys(g: KernelGraph, t: Task, how: { vertex: boolean; mode: 'push' | 'pull'; pullPages: 'in' | 'out'; list: Uint32Array | undefined }, into: Set<number>): void {
  if (how.vertex) return;
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

/** Cuts tasks (in queue order) into batches walking at most `cap` pages each (a task alone may walk more). */
export function batches(tasks: readonly Task[], cap: number, keysOf: (t: Task, into: Set<number>) => void): Batch[] {
  const out: Batch[] = [];
  let cur: Batch = { tasks: [], keys: [] };
  let seen = new Set<number>();
  const mine = new Set<number>();
  for (const t of tasks) {
    mine.clear();
    keysOf(t, mine);
    let fresh = 0;
    for (const k of mine) if (!seen.has(k)) fresh++;
    if (cur.tasks.length > 0 && seen.size + fresh > cap) {
      out.push(cur);
      cur = { tasks: [], keys: [] };
      seen = new Set();
    }
    cur.tasks.push(t);
    for (const k of mine) if (!seen.has(k)) seen.add(k), cur.keys.push(k);
  }
  if (cur.tasks.length > 0) out.push(cur);
  return out;
}
