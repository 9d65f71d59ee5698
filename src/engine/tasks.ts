/** Cutting a superstep's work into tasks and handing each actor its share (dense pages, push frontier lists). */
import type { Graph, Page } from '../graph/types.js';
import { lowerBound } from '../graph/pages.js';
import type { Task } from '../wire/frames.js';
import { overlapsRanges, rangeEdges, rangeVertices, type VertexRanges } from './partition.js';

/**
 * A dense task's cost in edges: its edges plus this much per vertex. A pull kernel reads and
 * writes each vertex's own state even with few or no in-edges (BFS's bottom-up check of an
 * unvisited vertex costs about as much as 4 edges): cut by edges alone, RMAT's last pages (a
 * million low-degree or isolated vertices each) became tasks several times longer than the rest
 * (RMAT 22, 16 threads: BFS's two pull levels 60 -> 20 ms).
 */
const VERTEX_COST = 4;

/** What task planning needs of an engine's actors: fixed once they are up (Engine.create). */
export interface TaskLayout {
  graph: Graph;
  /** Threads of all CPU socket actors. */
  threads: number;
  /** Threads of each CPU socket actor, in socket order. */
  cpuThreads: number[];
  /** The vertices the CPU actors share: the complement of the GPUs' ranges. */
  cpuRanges: VertexRanges;
  /** The vertex ranges each GPU actor owns (topology order). */
  gpuOwned: VertexRanges[];
}

/** Dense tasks: every page cut into vertex ranges of about `target` edges (Engine.denseShares caches them). */
export function denseShares(l: TaskLayout, orientation: 'in' | 'out'): Task[][] {
  const g = l.graph;
  // About 16 tasks per CPU thread of the CPU actors' own work (not the graph's): with a small CPU
  // share (alpha 0.1 of RMAT 24 is ~26 page-sized tasks for 16 threads) every task starts at
  // once and an idle GPU finds nothing queued to steal (Garaph needs a queue to take from); threads
  // take tasks from a shared queue one at a time, so more tasks cost little.
  const pages = g[orientation].pages;
  // The pages' edge counts, not a pass over n degrees (10.8 ms of the first BFS run's first pull
  // on RMAT 22 where the sockets own every vertex, the plan being cached after).
  const cpuEdges = rangeEdges(l.cpuRanges, orientation === 'in' ? g.inDegree : g.outDegree, pages);
  const cpuCost = cpuEdges + VERTEX_COST * rangeVertices(l.cpuRanges);
  const target = Math.max(1024, Math.min(g.pageEdges, Math.ceil(cpuCost / (l.threads * 16))));
  const tasks: Task[] = [];
  // CPU actors cover cpuRanges (ascending); GPU actors own the rest (their tasks: their pages, below).
  let i = 0;
  for (const [begin, end] of l.cpuRanges) {
    // The first page holding `begin` (pages are in id order; split pages of one vertex share it).
    let a = i;
    let b = pages.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (pages[m]!.vEnd <= begin) a = m + 1;
      else b = m;
    }
    i = a;
    while (i < pages.length && pages[i]!.vBegin < end) {
      const p = pages[i]!;
      if (p.split) {
        let j = i;
        let edges = 0;
        while (j < pages.length && pages[j]!.split && pages[j]!.vBegin === p.vBegin) edges += pages[j++]!.edges;
        tasks.push({ page: i, count: j - i, lo: 0, hi: 1, edges });
        i = j;
        continue;
      }
      const nv = Math.min(p.vEnd, end) - p.vBegin;
      const off = p.offsets;
      for (let lo = Math.max(begin, p.vBegin) - p.vBegin; lo < nv; ) {
        // A task ends at the first vertex where its cost reaches `target` or at the range's end:
        // a binary search over the offsets (a scan over every vertex took ~140 ms of RMAT 24's
        // first pull superstep on the coordinator's thread).
        const want = off[lo]! + VERTEX_COST * lo + target;
        let x = lo + 1;
        let y = Math.min(nv, lo + Math.ceil(target / VERTEX_COST));
        while (x < y) {
          const m = (x + y) >>> 1;
          if (off[m]! + VERTEX_COST * m >= want) y = m;
          else x = m + 1;
        }
        tasks.push({ page: i, count: 1, lo, hi: x, edges: off[x]! - off[lo]! });
        lo = x;
      }
      // A page running past the range's end is taken up again by the next range.
      if (p.vEnd > end) break;
      i++;
    }
  }
  const shares = share(l, tasks);
  for (const owned of l.gpuOwned) {
    shares.push(pages.filter((p) => overlapsRanges(owned, p.vBegin, p.vEnd)).map((p) => ({ page: p.index, count: 1, lo: 0, hi: p.vEnd - p.vBegin, edges: p.edges })));
  }
  return shares;
}

/** A vertex map's tasks: about 8 id ranges a thread (uneven cores, page faults), 4096 ids each at least, shared over the CPU actors. */
export function vertexShares(l: TaskLayout): Task[][] {
  const n = l.graph.numVertices;
  const size = Math.max(4096, Math.ceil(n / (l.threads * 8)));
  const tasks: Task[] = [];
  for (let lo = 0; lo < n; lo += size) tasks.push({ page: 0, count: 0, lo, hi: Math.min(n, lo + size), edges: Math.min(n, lo + size) - lo });
  return share(l, tasks);
}

/** Contiguous shares of the task list over the CPU actors, edges in proportion to their threads. */
export function share(l: TaskLayout, tasks: Task[]): Task[][] {
  const total = tasks.reduce((a, t) => a + t.edges, 0) || 1;
  const shares: Task[][] = l.cpuThreads.map(() => []);
  let a = 0;
  let acc = 0;
  let bound = (l.cpuThreads[0]! / l.threads) * total;
  for (const t of tasks) {
    while (a < l.cpuThreads.length - 1 && acc >= bound) {
      a++;
      bound += (l.cpuThreads[a]! / l.threads) * total;
    }
    shares[a]!.push(t);
    acc += t.edges;
  }
  return shares;
}

/**
 * Push tasks: slices of the frontier list (in vertex order, see Frontier.list) of about equal
 * out-edges. With GPUs each owner's vertices are one slice of the list (one range per owner:
 * found by binary search; several (RAND, dealt pages): the list is copied owner by owner, each
 * range's run found the same way) and each GPU gets
 * its slice as one task; returns the list the tasks index. `outEdges`, the list's out-edges when
 * known, saves a pass over it (the last GPU's slice is the rest). With `splitHubs` (the kernel's
 * splitPush) a CPU vertex with over twice a task's edges is cut into tasks of its edges.
 */
export function pushTaskShares(l: TaskLayout, list: Uint32Array, outEdges?: number, splitHubs = false): { shares: Task[][]; list: Uint32Array } {
  const deg = l.graph.outDegree;
  let cpuLo = 0;
  let cpuHi = list.length;
  const gpuSlices: Task[] = [];
  const edgesOf = (lo: number, hi: number, of = list): number => {
    let edges = 0;
    for (let i = lo; i < hi; i++) edges += deg[of[i]!]!;
    return edges;
  };
  if (l.gpuOwned.length > 0) {
    if (l.cpuRanges.length <= 1 && l.gpuOwned.every((r) => r.length <= 1)) {
      // One range per owner (HIGH, LOW): the list is in vertex order, so each owner's part is
      // the slice between two binary searches; nothing is copied.
      const [begin, end] = l.cpuRanges[0] ?? [0, 0];
      cpuLo = lowerBound(list, begin);
      cpuHi = Math.max(cpuLo, lowerBound(list, end));
      const cpuEdges = edgesOf(cpuLo, cpuHi);
      let rest = outEdges === undefined ? undefined : outEdges - cpuEdges;
      const gpus = l.gpuOwned;
      gpus.forEach((owned, i) => {
        const [b, e] = owned[0] ?? [0, 0];
        const lo = lowerBound(list, b);
        const hi = Math.max(lo, lowerBound(list, e));
        const edges = rest !== undefined && i === gpus.length - 1 ? rest : edgesOf(lo, hi);
        if (rest !== undefined) rest -= edges;
        gpuSlices.push({ page: 0, count: 0, lo, hi, edges });
      });
      outEdges = cpuEdges;
    } else {
      // Several ranges (RAND, dealt pages): the list is in vertex order, so each range's vertices
      // are one run of it (two binary searches); the runs are copied owner by owner.
      const out = new Uint32Array(new SharedArrayBuffer(Math.max(4, 4 * list.length)), 0, list.length);
      const src = list;
      let at = 0;
      const take = (ranges: VertexRanges, edges?: number): { lo: number; hi: number; edges: number } => {
        const lo = at;
        for (const [b, e] of ranges) {
          const x = lowerBound(src, b);
          const y = Math.max(x, lowerBound(src, e));
          out.set(src.subarray(x, y), at);
          at += y - x;
        }
        return { lo, hi: at, edges: edges ?? edgesOf(lo, at, out) };
      };
      const cpu = take(l.cpuRanges);
      cpuHi = cpu.hi;
      // As with one range each: the last GPU's edges are the rest when the list's are known.
      let rest = outEdges === undefined ? undefined : outEdges - cpu.edges;
      l.gpuOwned.forEach((owned, i) => {
        const t = take(owned, i === l.gpuOwned.length - 1 ? rest : undefined);
        if (rest !== undefined) rest -= t.edges;
        gpuSlices.push({ page: 0, count: 0, ...t });
      });
      outEdges = cpu.edges;
      list = out;
    }
  }
  outEdges ??= edgesOf(cpuLo, cpuHi);
  const target = Math.max(256, Math.ceil(outEdges / (l.threads * 8)));
  const tasks: Task[] = [];
  let lo = cpuLo;
  let edges = 0;
  for (let i = cpuLo; i < cpuHi; i++) {
    const d = deg[list[i]!]!;
    if (splitHubs && d > 2 * target) {
      // A hub: the slice before it, then its edges in tasks of about `target`.
      if (i > lo) tasks.push({ page: 0, count: 0, lo, hi: i, edges });
      const parts = Math.ceil(d / target);
      for (let k = 0; k < parts; k++) {
        const a = Math.floor((d * k) / parts);
        const b = Math.floor((d * (k + 1)) / parts);
        tasks.push({ page: 0, count: 0, lo: i, hi: i + 1, edges: b - a, edgeLo: a, edgeHi: b });
      }
      lo = i + 1;
      edges = 0;
      continue;
    }
    edges += d;
    if (edges >= target) {
      tasks.push({ page: 0, count: 0, lo, hi: i + 1, edges });
      lo = i + 1;
      edges = 0;
    }
  }
  if (lo < cpuHi) tasks.push({ page: 0, count: 0, lo, hi: cpuHi, edges });
  const shares = share(l, tasks);
  for (const t of gpuSlices) shares.push(t.hi > t.lo ? [t] : []);
  return { shares, list };
}

/**
 * The sockets' pull tasks (shares [0, sockets)) that hold a vertex whose `state` entry equals
 * `value`; the others touch nothing (EdgeMapOptions.pullIf) and are dropped. A pass over the
 * tasks' vertices: worth it where a task costs a read from disk.
 */
export function activeShares(shares: Task[][], sockets: number, pages: readonly Page[], state: ArrayLike<number>, value: number): Task[][] {
  return shares.map((list, i) =>
    i >= sockets
      ? list
      : list.filter((t) => {
          const b = pages[t.page]!.vBegin;
          for (let v = b + t.lo; v < b + t.hi; v++) if (state[v] === value) return true;
          return false;
        }),
  );
}
