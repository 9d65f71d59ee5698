/**
 * BFS's every level in one team (RunContext.team): GAPBS's direction-optimising loop (bfs.cc,
 * Beamer et al. SC 2012) run by each thread of the socket, a level one shared loop (Team.loop)
 * instead of a superstep. Top-down levels share the frontier queue in chunks and append what they
 * claim to the next through thread-local lists (GAPBS's QueueBuffer over a SlidingQueue);
 * bottom-up levels share the engine's pull tasks in pieces. Every thread switches direction on
 * the same totals: top-down while the frontier's out-edges are at most the unexplored edges /
 * ALPHA, then bottom-up while the frontier grows or holds more than |V| / BETA vertices.
 *
 * Where the addon loads, each thread makes one call instead (cpu.bfsTeam, native/src/addon_bfs.cpp:
 * the same loop and constants, a level a phase that whichever thread finishes it closes): as
 * TypeScript, V8 compiled each worker's per-chunk code during a session's first runs, the slow ones
 * (RMAT 22 on 16 threads: bench/results/h100-2026-11-28-bfs-native-team). The loop below runs without it.
 *
 * State: depth and seen as the supersteps' kernel (kernels.ts), `queue` two lists of n ids and
 * `maps` three frontier bitmaps of n bits (GAPBS's bottom-up step reads a bitmap: n / 8 bytes
 * stay in cache). A level reads one map, flags the next and clears the one before in chunks of
 * its own loop, so clearing needs no loop of its own. The driver writes depth's -1s, zeroes the
 * maps, and puts the source in the first queue and map.
 */
import { IdList, type CpuKernel } from '../../engine/kernel.js';
import type { Team } from '../../engine/team.js';
import { pullRange, pushRange, type BfsState } from './kernels.js';
import { idsDegreeSum, taskPages } from '../../engine/run-tasks.js';
import { nativeCpuKernels, nativePageSet } from '../../../actors/gpu/native-host.js';

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
/** Map words a chunk clears or lists. */
const WORDS = 4096;

export interface BfsTeamState extends BfsState {
  queue: Uint32Array;
  /** Three bitmaps of (n + 31) >>> 5 words each. */
  maps: Uint32Array;
  /** The addon's words for the team (bfsTeam), zero: at least 32 + SMALL + 1 entries (index.ts TEAM_CTL). */
  ctl: Float64Array;
}

/** team.ts's constants as bfsTeam's params. */
const PARAMS = new Float64Array([ALPHA, BETA, SMALL, PIECE, GRAIN, PULL_PIECE, WORDS]);

/** This thread's claims of a level, its edge prefix of a short frontier, its counts. */
const found = new IdList();
let prefix = new Float64Array(SMALL + 1);
const st = new Float64Array(2);
const sums = new Float64Array(2);

export const bfs_team: CpuKernel<BfsTeamState> = {
  team(ctx, t, out) {
    const g = ctx.graph, n = g.numVertices, deg = g.outDegree;
    const { depth, seen, queue, maps, ctl } = ctx.state;
    if (native?.bfsTeam !== undefined) {
      // Every level in the addon, on this thread and its team's (addon_bfs.cpp, which checks ctl's
      // length): no JavaScript a chunk for V8 to compile during a session's first runs. (A team
      // never runs over pages read from disk: engine/team-step.ts noTeamwork.)
      st[0] = st[1] = 0;
      native.bfsTeam(nativePageSet(native, g.out), nativePageSet(native, g.in), deg, depth, seen, queue, maps, ctl, ctx.args.source!, g.numEdges, PARAMS, st);
      out.edges += st[0]!;
      if (t.rank === 0) out.sum = st[1]!;
      return;
    }
    const qs = [queue.subarray(0, n), queue.subarray(n, 2 * n)];
    const w = (n + 31) >>> 5;
    const ms = [maps.subarray(0, w), maps.subarray(w, 2 * w), maps.subarray(2 * w, 3 * w)];
    const clearChunks = Math.ceil(w / WORDS);
    const pulls = t.pieces(PULL_PIECE);
    // A thread may be several loops behind the others (Team.loop): what it reads outside the
    // chunks it claims are totals every thread has (the frontier's size and out-edges), never the
    // lists, which the threads ahead may be refilling already.
    let edges = 0, level = 0, size = 1, scout = deg[ctx.args.source!]!, frontierEdges = scout, unexplored = g.numEdges, pulling = false, awake = 0;
    while (size > 0) {
      const cur = ms[level % 3]!, next = ms[(level + 1) % 3]!, old = ms[(level + 2) % 3]!;
      // The map of the level before this one (read last level, flagged next level), in this loop's last chunks.
      const clears = level > 0 ? clearChunks : 0;
      const clear = (c: number): void => void old.fill(0, c * WORDS, Math.min(w, (c + 1) * WORDS));
      if (!pulling && scout > unexplored / ALPHA) ((pulling = true), (awake = size));
      st[0] = st[1] = 0;
      sums[0] = sums[1] = 0;
      if (pulling) {
        t.loop(pulls + clears, 1, (j) => {
          if (j >= pulls) return clear(j - pulls);
          const p = t.piece(PULL_PIECE, j);
          pullRange(taskPages(g.in, p), p.lo, p.hi, depth, cur, next, level + 1, st);
        }, () => void (sums[0] = st[1]!), sums);
        size = sums[0]!;
        const keep = size >= awake || size > n / BETA;
        awake = size;
        // Back to top-down: the new frontier listed from its flags.
        if (!keep && size > 0) ((pulling = false), (scout = 1), (frontierEdges = listFlags(t, deg, next, w, qs[(level + 1) & 1]!)));
      } else {
        unexplored -= scout;
        found.clear();
        const into = qs[(level + 1) & 1]!;
        const work = size > SMALL ? Math.ceil(size / GRAIN) : Math.ceil(frontierEdges / PIECE);
        t.loop(work + clears, 1, (j) => (j >= work ? clear(j - work) : pushChunk(g, qs[level & 1]!, size, j, depth, seen, next, level + 1)), (reserve) => {
          const k = found.length;
          into.set(found.ids.subarray(0, k), reserve(k));
          sums[0] = k;
          sums[1] = idsDegreeSum(deg, found.ids, k);
        }, sums);
        size = sums[0]!;
        scout = frontierEdges = sums[1]!;
      }
      edges += st[0]!;
      level++;
    }
    out.edges += edges;
    if (t.rank === 0) out.sum = level;
  },
};

/** The list and level `prefix` holds the edges before each vertex of. */
let prefixOf: Uint32Array | undefined;
let prefixLevel = -1;

/**
 * Chunk a of a top-down level over list[0, size): GRAIN vertices, or (a short list, as the hub's
 * level) edges [a * PIECE, (a + 1) * PIECE) of the list's edges in order. The prefix of a short
 * list is summed by each thread at its first chunk of the level: the list cannot change while a
 * chunk of its level is unfinished.
 */
function pushChunk(g: Parameters<typeof pushRange>[0], list: Uint32Array, size: number, a: number, depth: Int32Array, seen: Int32Array, next: Uint32Array, level: number): void {
  if (size > SMALL) return pushRange(g, list, a * GRAIN, Math.min(size, (a + 1) * GRAIN), -1, -1, depth, seen, next, level, found, st);
  const deg = g.outDegree;
  if (prefixOf !== list || prefixLevel !== level) {
    if (prefix.length < size + 1) prefix = new Float64Array(size + 1);
    for (let i = 0; i < size; i++) prefix[i + 1] = prefix[i]! + deg[list[i]!]!;
    prefixOf = list;
    prefixLevel = level;
  }
  const e0 = a * PIECE, e1 = Math.min(prefix[size]!, e0 + PIECE);
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
}

/** The vertices flagged in `bits` (w words) into `into`, in chunks of WORDS words, one loop; returns their out-edges. */
function listFlags(t: Team, deg: Uint32Array, bits: Uint32Array, w: number, into: Uint32Array): number {
  found.clear();
  sums[0] = 0;
  t.loop(Math.ceil(w / WORDS), 1, (c) => {
    const lo = c * WORDS, hi = Math.min(w, lo + WORDS);
    if (native?.listBits !== undefined) found.added(native.listBits(bits, lo, hi, found.room(32 * (hi - lo))));
    else for (let i = lo; i < hi; i++) for (let x = bits[i]!; x !== 0; x &= x - 1) found.push(32 * i + 31 - Math.clz32(x & -x));
  }, (reserve) => {
    const k = found.length;
    into.set(found.ids.subarray(0, k), reserve(k));
    sums[0] = idsDegreeSum(deg, found.ids, k);
  }, sums);
  return sums[0]!;
}
