/**
 * BFS's every level in one team (RunContext.team): GAPBS's direction-optimising loop (bfs.cc,
 * Beamer et al. SC 2012) run by each thread of the socket, the threads meeting at a barrier per
 * level instead of a superstep per level. Top-down levels share the frontier queue in chunks and
 * append what they claim to the next through thread-local lists (GAPBS's QueueBuffer over a
 * SlidingQueue); bottom-up levels share the engine's pull tasks. Every thread switches direction
 * on the same totals: top-down while the frontier's out-edges are at most the unexplored edges /
 * ALPHA, then bottom-up while the frontier grows or holds more than |V| / BETA vertices.
 *
 * State: depth and seen as the supersteps' kernel (kernels.ts), `queue` two lists of n ids and
 * `maps` three frontier bitmaps of n bits (GAPBS's bottom-up step reads a bitmap: 512 KB at RMAT
 * 22 stays in a core's cache where the byte map's 4 MB of random reads did not; a level reads one
 * map, flags the next and clears the one before, so clearing needs no barrier of its own). The
 * driver writes depth's -1s and the source; the team clears the rest.
 */
import { IdList, type CpuKernel } from '../../engine/kernel.js';
import type { Team } from '../../engine/team.js';
import { pullRange, pushRange, type BfsState } from './kernels.js';
import { nativeCpuKernels } from '../../../actors/gpu/native-host.js';

// The team's own loops over ids and bits on the addon where it loads: as TypeScript they ran
// interpreted in a session's first runs (the kernel runs once a run on each thread).
const native = nativeCpuKernels();

/** GAPBS's defaults (bfs.cc: alpha 15, beta 18). */
const ALPHA = 15;
const BETA = 18;
/** A top-down level over at most this many vertices is cut into pieces of PIECE edges (an RMAT hub's level). */
const SMALL = 4096;
const PIECE = 2048;
/** Vertices a thread claims at once in a long top-down level. */
const GRAIN = 64;
/**
 * Vertices of a bottom-up piece: the engine's tasks balance edges, a bottom-up step's cost goes
 * with its vertices (GAPBS: a dynamic schedule of 1024; here a native call a piece).
 */
const PULL_PIECE = 4096;

export interface BfsTeamState extends BfsState {
  queue: Uint32Array;
  /** Three bitmaps of (n + 31) >>> 5 words each. */
  maps: Uint32Array;
}

/** This thread's claims of a level, its edge prefix of a short frontier, its totals. */
const found = new IdList();
let prefix = new Float64Array(SMALL + 1);
const st = new Float64Array(2);
const sums = new Float64Array(2);

export const bfs_team: CpuKernel<BfsTeamState> = {
  team(ctx, t, out) {
    const g = ctx.graph, n = g.numVertices, deg = g.outDegree;
    const { depth, seen, queue, maps } = ctx.state;
    const source = ctx.args.source!;
    const qs = [queue.subarray(0, n), queue.subarray(n, 2 * n)];
    const w = (n + 31) >>> 5;
    const ms = [maps.subarray(0, w), maps.subarray(w, 2 * w), maps.subarray(2 * w, 3 * w)];
    // This thread's slice of the vertices, whole words of the maps.
    const lo = Math.min(n, Math.ceil((n * t.rank) / t.size / 32) * 32), hi = t.rank === t.size - 1 ? n : Math.min(n, Math.ceil((n * (t.rank + 1)) / t.size / 32) * 32);
    const wlo = lo >>> 5, whi = (hi + 31) >>> 5;
    for (const m of ms) m.fill(0, wlo, whi);
    if (source >= lo && source < hi) ms[0]![source >>> 5] = 1 << (source & 31);
    if (t.rank === 0) qs[0]![0] = source;
    t.sync();
    let edges = 0, level = 0, size = 1, scout = deg[source]!, unexplored = g.numEdges, pulling = false, awake = 0;
    while (size > 0) {
      const cur = ms[level % 3]!, next = ms[(level + 1) % 3]!;
      // The map of the level before this one: read last level, flagged next level.
      if (level > 0) ms[(level + 2) % 3]!.fill(0, wlo, whi);
      if (!pulling && scout > unexplored / ALPHA) ((pulling = true), (awake = size));
      st[0] = st[1] = 0;
      if (pulling) {
        const set = g.in.pages;
        t.forTasks(PULL_PIECE, (task) => pullRange(task.count === 1 ? [set[task.page]!] : set.slice(task.page, task.page + task.count), task.lo, task.hi, depth, cur, next, level + 1, st));
        edges += st[0]!;
        sums[0] = st[1]!;
        t.sync(sums);
        size = sums[0]!;
        const keep = size >= awake || size > n / BETA;
        awake = size;
        // Back to top-down: the new frontier listed from its flags.
        if (!keep && size > 0) ((pulling = false), (scout = 1), listFlags(t, next, wlo, whi, qs[(level + 1) & 1]!));
      } else {
        unexplored -= scout;
        found.clear();
        pushLevel(t, ctx.graph, qs[level & 1]!, size, depth, seen, next, level + 1);
        edges += st[0]!;
        const k = found.length;
        qs[(level + 1) & 1]!.set(found.ids.subarray(0, k), t.add(0, k));
        let s = 0;
        if (native?.degreeSum !== undefined) s = native.degreeSum(deg, found.ids, k, null, 0, 0);
        else for (let i = 0; i < k; i++) s += deg[found.ids[i]!]!;
        sums[0] = k;
        sums[1] = s;
        t.sync(sums);
        size = sums[0]!;
        scout = sums[1]!;
      }
      level++;
    }
    out.edges += edges;
    if (t.rank === 0) out.sum = level;
  },
};

/** A top-down level over list[0, size): whole vertices in chunks, or a short list cut into pieces of PIECE edges. */
function pushLevel(t: Team, g: Parameters<typeof pushRange>[0], list: Uint32Array, size: number, depth: Int32Array, seen: Int32Array, next: Uint32Array, level: number): void {
  if (size > SMALL) {
    t.forEach(size, GRAIN, (a, b) => pushRange(g, list, a, b, -1, -1, depth, seen, next, level, found, st));
    return;
  }
  // Every thread sums the same prefix of out-edges: piece j is edges [j * PIECE, (j + 1) * PIECE) of the list's.
  if (prefix.length < size + 1) prefix = new Float64Array(size + 1);
  const deg = g.outDegree;
  for (let i = 0; i < size; i++) prefix[i + 1] = prefix[i]! + deg[list[i]!]!;
  const total = prefix[size]!;
  t.forEach(Math.ceil(total / PIECE), 1, (a) => {
    const e0 = a * PIECE, e1 = Math.min(total, e0 + PIECE);
    // The first vertex whose edges reach past e0.
    let l = 0, h = size;
    while (l < h) {
      const m = (l + h) >>> 1;
      if (prefix[m + 1]! <= e0) l = m + 1;
      else h = m;
    }
    for (let i = l; i < size && prefix[i]! < e1; ) {
      const from = Math.max(0, e0 - prefix[i]!), to = Math.min(deg[list[i]!]!, e1 - prefix[i]!);
      if (from === 0 && to === deg[list[i]!]!) {
        // Whole vertices: one call over the run of them inside the piece.
        let j = i + 1;
        while (j < size && prefix[j + 1]! <= e1) j++;
        pushRange(g, list, i, j, -1, -1, depth, seen, next, level, found, st);
        i = j;
      } else {
        pushRange(g, list, i, i + 1, from, to, depth, seen, next, level, found, st);
        i++;
      }
    }
  });
}

/** The vertices flagged in words [wlo, whi) of `bits` into `into`: each thread lists its own words and appends them; ends at a barrier. */
function listFlags(t: Team, bits: Uint32Array, wlo: number, whi: number, into: Uint32Array): void {
  found.clear();
  if (native?.listBits !== undefined) found.added(native.listBits(bits, wlo, whi, found.room(32 * (whi - wlo))));
  else
    for (let i = wlo; i < whi; i++) {
      for (let x = bits[i]!; x !== 0; x &= x - 1) found.push(32 * i + 31 - Math.clz32(x & -x));
    }
  into.set(found.ids.subarray(0, found.length), t.add(0, found.length));
  t.sync();
}
