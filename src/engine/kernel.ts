/**
 * What a CPU kernel sees. Kernels are plain loops over typed arrays (GAP/Ligra style): a pull
 * kernel walks the in-edges of a vertex range of one page (or every page of one split vertex),
 * a push kernel walks the out-edges of a slice of the frontier list. The engine chooses which
 * (the sparse/dense switch lives in one place: coordinator.ts) and kernels never allocate per edge.
 */
import type { Page, PageSet } from '../graph/types.js';
import type { StateKind } from '../wire/frames.js';
import type { Team } from './team.js';

export type StateArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

/** The graph as a worker holds it: pages and degrees over shared memory. */
export interface KernelGraph {
  readonly numVertices: number;
  readonly numEdges: number;
  readonly directed: boolean;
  readonly out: PageSet;
  readonly in: PageSet;
  readonly outDegree: Uint32Array;
  readonly inDegree: Uint32Array;
  readonly pageEdges: number;
}

/** The state arrays a kernel is given, by name (a program's kernels declare their own shape). */
export type KernelState = { readonly [name: string]: StateArray };

export interface KernelCtx<S extends object = KernelState> {
  readonly graph: KernelGraph;
  /** The arrays the driver passed to edgeMap / vertexMap, by the names it gave them. */
  readonly state: S;
  readonly args: Record<string, number>;
  /** Current frontier as a byte per vertex (1 = active); present in pull mode when the kernel reads it. */
  readonly frontier: Uint8Array | undefined;
  /** Current frontier as a vertex list; present in push mode. */
  readonly frontierList: Uint32Array | undefined;
  /** Byte per vertex the kernel sets to 1 for vertices active in the next superstep. */
  readonly next: Uint8Array;
  /**
   * A push task of part of one vertex's out-edges (splitPush kernels): frontierList[lo]'s edges
   * [edgeLo, edgeHi), counted from its first (undefined: whole vertices). Set per task.
   */
  edgeLo?: number;
  edgeHi?: number;
}

/** Per-task results, summed over tasks by the actor and over actors by the coordinator. */
export interface TaskOut {
  /** Vertices newly activated (each counted once). */
  active: number;
  /** Program-defined scalar (PageRank: rank held by dangling vertices). */
  sum: number;
  /** Edges examined. */
  edges: number;
  /** Push kernels append newly activated vertices here (when the program wants a list). */
  discovered: IdList | undefined;
}

/**
 * A growable list of vertex ids over a Uint32Array (TaskOut.discovered): kernels push ids; a
 * native kernel writes into room(k) and reports added(k). A JS array copied id by id into a typed
 * array for the vote cost a loop per id on the push's hot path (98 k ids from RMAT 22's hub).
 */
export class IdList {
  ids: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.ids = new Uint32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.ids.length) this.grow(this.length + 1);
    this.ids[this.length++] = v;
  }

  /** The free entries after the last id, at least `k` of them. */
  room(k: number): Uint32Array {
    if (this.length + k > this.ids.length) this.grow(this.length + k);
    return this.ids.subarray(this.length);
  }

  /** Counts `k` ids written into room(). */
  added(k: number): void {
    this.length += k;
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy of the ids (a vote's list). */
  copy(): Uint32Array {
    return this.ids.slice(0, this.length);
  }

  private grow(min: number): void {
    const next = new Uint32Array(Math.max(min, 2 * this.ids.length));
    next.set(this.ids.subarray(0, this.length));
    this.ids = next;
  }
}

/**
 * A program's CPU kernel: the named export of its kernels module (define.ts `kernels`), which
 * workers import by URL. `S` types ctx.state (e.g. `{ depth: Int32Array }`).
 */
export interface CpuKernel<S extends object = KernelState> {
  /** Dense: compute vertices [lo, hi) of pages[0] (or the single split vertex of all `pages`). */
  pull?(ctx: KernelCtx<S>, pages: Page[], lo: number, hi: number, out: TaskOut): void;
  /** Sparse: push from frontierList[lo..hi). */
  push?(ctx: KernelCtx<S>, lo: number, hi: number, out: TaskOut): void;
  /**
   * push handles each out-edge on its own and honours ctx.edgeLo/edgeHi: the engine may then cut
   * one vertex's out-edges across tasks that run at once (Task.edgeLo).
   */
  splitPush?: boolean;
  /** Vertex map: vertex ids [lo, hi), no edges, no frontier or next (RunContext.vertexMap). */
  vertex?(ctx: KernelCtx<S>, lo: number, hi: number, out: TaskOut): void;
  /**
   * A whole phase run by every thread of the socket together (RunContext.team, engine/team.ts):
   * loops shared with t.forEach, barriers and totals with t.sync. ctx has no frontier.
   */
  team?(ctx: KernelCtx<S>, t: Team, out: TaskOut): void;
}

export const STATE_CTORS: Record<StateKind, new (b: SharedArrayBuffer) => StateArray> = {
  f64: Float64Array,
  f32: Float32Array,
  i32: Int32Array,
  u32: Uint32Array,
  u8: Uint8Array,
};

/** A zeroed state array of `length` entries over a new SharedArrayBuffer. */
export function sharedArray(kind: StateKind, length: number): StateArray {
  const bytes = { f64: 8, f32: 4, i32: 4, u32: 4, u8: 1 }[kind];
  return new STATE_CTORS[kind](new SharedArrayBuffer(Math.max(8, bytes * length)));
}

/**
 * Sets every byte of `bytes` to `value` (0..255). Uint8Array.prototype.fill over a
 * SharedArrayBuffer goes byte by byte (~9 ms for 16 M flags, vs ~1 ms through 8-byte words): the
 * coordinator clears a frontier bitmap every superstep.
 */
export function fillBytes(bytes: Uint8Array, value: number): void {
  const n = bytes.length;
  let i = 0;
  for (; i < n && (bytes.byteOffset + i) % 8 !== 0; i++) bytes[i] = value;
  const words = (n - i) >> 3;
  if (words > 0) new BigUint64Array(bytes.buffer, bytes.byteOffset + i, words).fill(BigInt(value & 255) * 0x0101010101010101n);
  for (i += words << 3; i < n; i++) bytes[i] = value;
}

/**
 * Out-edges [a, b) of vertex v (counted from its first): calls fn over each out-page slice holding
 * them (outSlices clipped, for a task of part of a hub's edges).
 */
export function outSlicesBetween(g: KernelGraph, v: number, a: number, b: number, fn: (p: Page, lo: number, hi: number) => void): void {
  let before = 0;
  outSlices(g, v, (p, lo, hi) => {
    const s = Math.max(lo, lo + a - before);
    const e = Math.min(hi, lo + b - before);
    before += hi - lo;
    if (e > s) fn(p, s, e);
  });
}

/** Edges of vertex v in a push step: calls fn over each out-page slice holding v's edges. */
export function outSlices(g: KernelGraph, v: number, fn: (p: Page, lo: number, hi: number) => void): void {
  let pi = g.out.firstPageOf[v]!;
  let p = g.out.pages[pi]!;
  if (!p.split) {
    const i = v - p.vBegin;
    fn(p, p.offsets[i]!, p.offsets[i + 1]!);
    return;
  }
  while (p !== undefined && p.split && p.vBegin === v) {
    fn(p, 0, p.edges);
    p = g.out.pages[++pi]!;
  }
}

/** First edge of v in page p (a split page holds v's edges only). */
const firstEdge = (p: Page, v: number): number => (p.split ? 0 : p.offsets[v - p.vBegin]!);
/** One past the last edge of v in page p. */
const endEdge = (p: Page, v: number): number => (p.split ? p.edges : p.offsets[v - p.vBegin + 1]!);

/**
 * Walks v's list of `set` until fn returns false. Returns the edges examined, negated minus one
 * when fn stopped the walk.
 */
function walkList(set: PageSet, v: number, fn: (u: number) => boolean | void): number {
  const pages = set.pages;
  let edges = 0;
  for (let pi = set.firstPageOf[v]!; ; pi++) {
    const p = pages[pi]!;
    const a = firstEdge(p, v);
    const b = endEdge(p, v);
    const nbrs = p.nbrs;
    for (let e = a; e < b; e++) {
      const u = nbrs[e]!;
      if (fn(u) === false) return -1 - (edges + e - a + 1);
    }
    edges += b - a;
    const q = pages[pi + 1];
    if (!p.split || q === undefined || !q.split || q.vBegin !== v) return edges;
  }
}

/**
 * Calls fn(u) once per neighbour u of v in the undirected view, N_out(v) ∪ N_in(v) (a GPU
 * operator's `view: 'undirected'`), in ascending order: the two sorted lists merged (a split
 * vertex's pages walked in turn), so u->v and v->u count once. Stops early when fn returns false.
 * Returns the list entries read. Kernels make fn once per task, not per vertex (it allocates a
 * closure). A program that walks the view many times reads it faster as a CSR (undirected-csr.ts).
 */
export function undirectedNeighbours(g: KernelGraph, v: number, fn: (u: number) => boolean | void): number {
  if (g.in === g.out) {
    const a = walkList(g.out, v, fn);
    return a < 0 ? -1 - a : a;
  }
  const os = g.out.pages, is = g.in.pages;
  let op = g.out.firstPageOf[v]!, iq = g.in.firstPageOf[v]!;
  let P = os[op]!, Q = is[iq]!;
  let an = P.nbrs, bn = Q.nbrs;
  let i = firstEdge(P, v), ae = endEdge(P, v), j = firstEdge(Q, v), be = endEdge(Q, v);
  let read = 0;
  for (;;) {
    // A split vertex's list goes on in the next page.
    if (i === ae && P.split && os[op + 1]?.split === true && os[op + 1]!.vBegin === v) (P = os[++op]!), (an = P.nbrs), (i = 0), (ae = P.edges);
    if (j === be && Q.split && is[iq + 1]?.split === true && is[iq + 1]!.vBegin === v) (Q = is[++iq]!), (bn = Q.nbrs), (j = 0), (be = Q.edges);
    let u: number;
    if (i < ae && j < be) {
      const x = an[i]!, y = bn[j]!;
      u = x < y ? x : y;
      if (x <= y) (i++, read++);
      if (y <= x) (j++, read++);
    } else if (i < ae) (u = an[i++]!), read++;
    else if (j < be) (u = bn[j++]!), read++;
    else return read;
    if (fn(u) === false) return read;
  }
}

// The undirected view's fill, for a kernels module to export under its own name (undirected-csr.ts).
export { csrFill, type FillState } from './csr-fill.js';
