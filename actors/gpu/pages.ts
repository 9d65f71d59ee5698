/**
 * Extra page sets a GPU actor builds for its own vertex ranges, in the layout of src/graph/pages.ts
 * (so the native controller caches and streams them like graph pages): CDLP's native kernel
 * needs every neighbour of a vertex (in- then out-edges, as a multiset) in one list.
 */
import { allocPage, lowerBound, pageView } from '../../src/graph/pages.js';
import type { Page, PageSet } from '../../src/graph/types.js';
import type { Task } from '../../src/wire/frames.js';
import { mergeRanges } from '../../src/engine/partition.js';
import { prefault } from '../../src/engine/fill.js';

/**
 * The pages of `set` holding the vertices of the tasks' slices of `list` (ascending ids), and
 * their edges: the tasks' own, or with `inDeg` the vertices' in-degrees. The vertices of one
 * unsplit page are a run of the list, skipped by binary search; a split vertex brings all its
 * pages; a page without edges is left out. Several tasks may share a page: it is listed once.
 */
export function listPages(set: PageSet, list: Uint32Array, tasks: readonly Task[], inDeg?: Uint32Array): { pages: number[]; edges: number } {
  const pages: number[] = [];
  let edges = 0;
  for (const t of tasks) {
    if (inDeg === undefined) edges += t.edges;
    else for (let k = t.lo; k < t.hi; k++) edges += inDeg[list[k]!]!;
    for (let k = t.lo; k < t.hi; ) {
      const v = list[k]!;
      let pi = set.firstPageOf[v]!;
      const p = set.pages[pi]!;
      if (p.split) {
        do pages.push(pi++);
        while (pi < set.pages.length && set.pages[pi]!.split && set.pages[pi]!.vBegin === v);
        k++;
        continue;
      }
      if (p.edges > 0) pages.push(pi);
      k = lowerBound(list, p.vEnd, k + 1, t.hi); // the end of the page's run
    }
  }
  return { pages: tasks.length > 1 ? [...new Set(pages)] : pages, edges };
}

/** Calls fn with each slice of v's list in `set` (one slice, or one per split page). */
function slices(set: PageSet, v: number, fn: (nbrs: Uint32Array, a: number, b: number) => void): void {
  const pages = set.pages;
  let pi = set.firstPageOf[v]!;
  let p = pages[pi]!;
  if (!p.split) {
    fn(p.nbrs, p.offsets[v - p.vBegin]!, p.offsets[v - p.vBegin + 1]!);
    return;
  }
  while (p !== undefined && p.split && p.vBegin === v) {
    fn(p.nbrs, 0, p.edges);
    p = pages[++pi]!;
  }
}

/**
 * Pages over the sorted, disjoint ranges whose list for v is what `fill(v, dst, at)` writes into
 * dst from at (returning the end; `count(v)` its length, at most `cap(v)`). At most pageEdges edges
 * and vertices per page, none spanning two ranges (the vertices between are not the owner's); a
 * longer list gets split pages of its own. Lists are written straight into their page (no scratch
 * list and copy a vertex); with `fillRange(lo, hi, dst)`, an unsplit page's lists in one call
 * (their lengths exactly count's).
 */
function rangePages(
  ranges: ReadonlyArray<readonly [number, number]>,
  pageEdges: number,
  count: (v: number) => number,
  cap: (v: number) => number,
  fill: (v: number, dst: Uint32Array, at: number) => number,
  fillRange?: (lo: number, hi: number, dst: Uint32Array) => void,
): Page[] {
  let tmp = new Uint32Array(1024);
  const pages: Page[] = [];
  // A fresh page's buffer faulted in on the addon's threads (2 MiB pages where the kernel gives
  // them) before its lists are written here: first touches one 4 KiB page at a time on this thread
  // were most of a page set's build.
  const page = (vBegin: number, vEnd: number, edges: number, split: boolean): Page => {
    const p = allocPage(pages.length, vBegin, vEnd, edges, split, undefined);
    prefault(pageView(p));
    return p;
  };
  for (const [begin, end] of ranges) {
    const deg = new Uint32Array(end - begin);
    for (let v = begin; v < end; v++) deg[v - begin] = count(v);
    let lo = begin;
    let edges = 0;
    const close = (hi: number): void => {
      if (hi === lo) return;
      const p = page(lo, hi, edges, false);
      let at = 0;
      for (let v = lo; v < hi; v++) {
        p.offsets[v - lo] = at;
        at = fillRange !== undefined ? at + deg[v - begin]! : fill(v, p.nbrs, at);
      }
      p.offsets[hi - lo] = at;
      fillRange?.(lo, hi, p.nbrs);
      pages.push(p);
      lo = hi;
      edges = 0;
    };
    for (let v = begin; v < end; v++) {
      const d = deg[v - begin]!;
      if (d > pageEdges) {
        close(v);
        if (cap(v) > tmp.length) tmp = new Uint32Array(Math.max(cap(v), 2 * tmp.length));
        const k = fill(v, tmp, 0);
        for (let done = 0; done < k; done += pageEdges) {
          const c = Math.min(pageEdges, k - done);
          const p = page(v, v + 1, c, true);
          p.offsets[1] = c;
          p.nbrs.set(tmp.subarray(done, done + c));
          pages.push(p);
        }
        lo = v + 1;
        continue;
      }
      if (edges + d > pageEdges || v - lo >= pageEdges) close(v);
      edges += d;
    }
    close(end);
  }
  return pages;
}

/** Copies v's whole list in `set` into dst from `at`; returns the new end. */
function copyList(set: PageSet, v: number, dst: Uint32Array, at: number): number {
  slices(set, v, (nbrs, a, b) => {
    dst.set(nbrs.subarray(a, b), at);
    at += b - a;
  });
  return at;
}

/**
 * CDLP's lists: v's in-list followed by its out-list (directed graphs: a neighbour linked both
 * ways appears twice, as CDLP counts it).
 */
export function inOutPages(inSet: PageSet, outSet: PageSet, inDeg: Uint32Array, outDeg: Uint32Array, ranges: ReadonlyArray<readonly [number, number]>, pageEdges: number): Page[] {
  const both = (v: number): number => inDeg[v]! + outDeg[v]!;
  return rangePages(ranges, pageEdges, both, both, (v, dst, at) => copyList(outSet, v, dst, copyList(inSet, v, dst, at)));
}

/**
 * LCC's lists: N(v) = N_in(v) ∪ N_out(v), sorted and distinct (each page list is sorted, so a
 * merge of the two).
 */
export function unionPages(inSet: PageSet, outSet: PageSet, inDeg: Uint32Array, outDeg: Uint32Array, ranges: ReadonlyArray<readonly [number, number]>, pageEdges: number): Page[] {
  let a = new Uint32Array(1024);
  let b = new Uint32Array(1024);
  // Merges v's two lists where they lie (a page's slice; a split list copied whole first) into
  // dst from at, or with dst undefined counts the union; returns the end.
  const merge = (v: number, dst: Uint32Array | undefined, at: number): number => {
    const p = inSet.pages[inSet.firstPageOf[v]!]!;
    let an: Uint32Array = p.nbrs, i = 0, ae = 0;
    if (!p.split) (i = p.offsets[v - p.vBegin]!), (ae = p.offsets[v - p.vBegin + 1]!);
    else {
      if (inDeg[v]! > a.length) a = new Uint32Array(Math.max(inDeg[v]!, 2 * a.length));
      (an = a), (ae = copyList(inSet, v, a, 0));
    }
    const q = outSet.pages[outSet.firstPageOf[v]!]!;
    let bn: Uint32Array = q.nbrs, j = 0, be = 0;
    if (!q.split) (j = q.offsets[v - q.vBegin]!), (be = q.offsets[v - q.vBegin + 1]!);
    else {
      if (outDeg[v]! > b.length) b = new Uint32Array(Math.max(outDeg[v]!, 2 * b.length));
      (bn = b), (be = copyList(outSet, v, b, 0));
    }
    return dst === undefined ? at + unionCount(an, i, ae, bn, j, be) : unionWrite(an, i, ae, bn, j, be, dst, at);
  };
  return rangePages(ranges, pageEdges, (v) => merge(v, undefined, 0), (v) => inDeg[v]! + outDeg[v]!, merge);
}

/** The same lists as unionPages, cut from the undirected view's CSR (v's list adj[off[v], off[v + 1])). */
export function csrPages(off: Float64Array, adj: Uint32Array, ranges: ReadonlyArray<readonly [number, number]>, pageEdges: number): Page[] {
  const len = (v: number): number => off[v + 1]! - off[v]!;
  return rangePages(
    ranges,
    pageEdges,
    len,
    len,
    (v, dst, at) => {
      dst.set(adj.subarray(off[v]!, off[v + 1]!), at);
      return at + len(v);
    },
    (lo, hi, dst) => dst.set(adj.subarray(off[lo]!, off[hi]!)),
  );
}

/** The size of the union of two ascending lists an[i, ae) and bn[j, be). */
function unionCount(an: Uint32Array, i: number, ae: number, bn: Uint32Array, j: number, be: number): number {
  let k = 0;
  while (i < ae && j < be) {
    const x = an[i]!, y = bn[j]!;
    if (x <= y) i++;
    if (y <= x) j++;
    k++;
  }
  return k + (ae - i) + (be - j);
}

/** Writes the union of two ascending lists into dst from at; returns the end. */
function unionWrite(an: Uint32Array, i: number, ae: number, bn: Uint32Array, j: number, be: number, dst: Uint32Array, at: number): number {
  while (i < ae && j < be) {
    const x = an[i]!, y = bn[j]!;
    if (x <= y) i++;
    if (y <= x) j++;
    dst[at++] = x < y ? x : y;
  }
  while (i < ae) dst[at++] = an[i++]!;
  while (j < be) dst[at++] = bn[j++]!;
  return at;
}

/** The vertex ranges stolen pull tasks cover, merged into maximal contiguous runs. */
export function vertexRuns(tasks: Task[], pages: Page[]): Array<[number, number]> {
  return mergeRanges(
    tasks.map((t): [number, number] => {
      const p = pages[t.page]!;
      return t.count > 1 || p.split ? [p.vBegin, p.vBegin + 1] : [p.vBegin + t.lo, p.vBegin + t.hi];
    }),
  );
}

/** Set bytes of a 0/1 flag array (four at a time over the aligned middle). */
export function countFlags(flags: Uint8Array): number {
  let k = 0;
  let i = 0;
  const n = flags.length;
  for (; i < n && (flags.byteOffset + i) % 4 !== 0; i++) k += flags[i]!;
  if (i === n) return k;
  const words = new Uint32Array(flags.buffer, flags.byteOffset + i, (n - i) >> 2);
  // Bytes are 0 or 1: the byte sum of a word is its top byte after multiplying by 0x01010101.
  for (let w = 0; w < words.length; w++) k += Math.imul(words[w]!, 0x01010101) >>> 24;
  for (i += words.length * 4; i < n; i++) k += flags[i]!;
  return k;
}
