/**
 * Extra page sets a GPU actor builds for its own vertex ranges, in the layout of src/graph/pages.ts
 * (so the native controller caches and streams them like graph pages): CDLP's native kernel
 * needs every neighbour of a vertex (in- then out-edges, as a multiset) in one list.
 */
import { allocPage, lowerBound } from '../../src/graph/pages.js';
import type { Page, PageSet } from '../../src/graph/types.js';
import type { Task } from '../../src/wire/frames.js';
import { mergeRanges } from '../../src/engine/partition.js';

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
 * Pages over the sorted, disjoint ranges whose list for v is what `fill` writes (fill(v, tmp) ->
 * length; tmp grows to `cap(v)`). At most pageEdges edges and vertices per page, none spanning
 * two ranges (the vertices between are not the owner's); a longer list gets split pages of its own.
 */
function rangePages(ranges: ReadonlyArray<readonly [number, number]>, pageEdges: number, cap: (v: number) => number, fill: (v: number, tmp: Uint32Array) => number): Page[] {
  let tmp = new Uint32Array(1024);
  const gather = (v: number): number => {
    const c = cap(v);
    if (c > tmp.length) tmp = new Uint32Array(Math.max(c, 2 * tmp.length));
    return fill(v, tmp);
  };
  const pages: Page[] = [];
  for (const [begin, end] of ranges) {
    const deg = new Uint32Array(end - begin);
    for (let v = begin; v < end; v++) deg[v - begin] = gather(v);
    let lo = begin;
    let edges = 0;
    const close = (hi: number): void => {
      if (hi === lo) return;
      const p = allocPage(pages.length, lo, hi, edges, false, undefined);
      let at = 0;
      for (let v = lo; v < hi; v++) {
        p.offsets[v - lo] = at;
        const k = gather(v);
        p.nbrs.set(tmp.subarray(0, k), at);
        at += k;
      }
      p.offsets[hi - lo] = at;
      pages.push(p);
      lo = hi;
      edges = 0;
    };
    for (let v = begin; v < end; v++) {
      const d = deg[v - begin]!;
      if (d > pageEdges) {
        close(v);
        const k = gather(v);
        for (let done = 0; done < k; done += pageEdges) {
          const c = Math.min(pageEdges, k - done);
          const p = allocPage(pages.length, v, v + 1, c, true, undefined);
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
  return rangePages(ranges, pageEdges, (v) => inDeg[v]! + outDeg[v]!, (v, tmp) => copyList(outSet, v, tmp, copyList(inSet, v, tmp, 0)));
}

/**
 * LCC's lists: N(v) = N_in(v) ∪ N_out(v), sorted and distinct (each page list is sorted, so a
 * merge of the two).
 */
export function unionPages(inSet: PageSet, outSet: PageSet, inDeg: Uint32Array, outDeg: Uint32Array, ranges: ReadonlyArray<readonly [number, number]>, pageEdges: number): Page[] {
  let a = new Uint32Array(1024);
  let b = new Uint32Array(1024);
  return rangePages(
    ranges,
    pageEdges,
    (v) => inDeg[v]! + outDeg[v]!,
    (v, tmp) => {
      if (inDeg[v]! > a.length) a = new Uint32Array(Math.max(inDeg[v]!, 2 * a.length));
      if (outDeg[v]! > b.length) b = new Uint32Array(Math.max(outDeg[v]!, 2 * b.length));
      const ka = copyList(inSet, v, a, 0);
      const kb = copyList(outSet, v, b, 0);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < ka || j < kb) {
        const x = i < ka ? a[i]! : 0xffffffff;
        const y = j < kb ? b[j]! : 0xffffffff;
        if (x <= y) i++;
        if (y <= x) j++;
        tmp[k++] = x < y ? x : y;
      }
      return k;
    },
  );
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
