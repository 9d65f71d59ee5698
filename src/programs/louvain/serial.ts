/**
 * Louvain's serial parts (Blondel, Guillaume, Lambiotte, Lefebvre 2008, "Fast unfolding of
 * communities in large networks") over a weighted undirected CSR: the sequential local-moving
 * sweep, the dense relabelling and the aggregation into a coarse graph. The driver runs the coarse
 * levels with them on the coordinator (index.ts says why); the references run them from level 0.
 *
 * Conventions (networkx `modularity`): A is symmetric, m2 = Σ_ij A_ij = 2m, k_i = Σ_j A_ij, and
 *   Q = Σ_c [ in_c / m2 - γ (tot_c / m2)^2 ],  in_c = Σ_{i,j ∈ c} A_ij,  tot_c = Σ_{i ∈ c} k_i.
 * A coarse vertex keeps its members' internal weight as `loop` (Σ over ordered pairs, so an edge
 * inside it counts twice, as in m2); the lists hold no self-entries.
 */
import { availableParallelism } from 'node:os';
import type { Graph } from '../../graph/types.js';
import { inCsr, outCsr } from '../adjacency.js';
import { classOf } from './kernels.js';
import { nativeCpuKernels } from '../../../actors/gpu/native-host.js';

export interface WCsr {
  readonly n: number;
  readonly off: Float64Array;
  readonly adj: Uint32Array;
  /** Weights parallel to adj; undefined: every weight 1. */
  readonly wt: Float64Array | undefined;
  /** Weighted degree k_i (loop included). */
  readonly k: Float64Array;
  /** Internal weight of a coarse vertex (0 on level 0: pages hold no self-loops). */
  readonly loop: Float64Array;
}

/**
 * The undirected view of a graph: one entry per neighbour of N_in(v) ∪ N_out(v), ascending, its
 * weight the smaller of the two arcs' where both exist (the graph the same edges give read as
 * undirected: the builder keeps the smallest weight of repeated edges). Plain loops (tests).
 */
export function undirectedView(g: Graph): WCsr {
  const out = outCsr(g);
  const inn = g.in === g.out ? undefined : inCsr(g);
  const n = g.numVertices;
  const weighted = out.weights !== undefined;
  const off = new Float64Array(n + 1);
  const adj: number[] = [];
  const wt: number[] = [];
  const k = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    let a = out.offsets[v]!;
    const a1 = out.offsets[v + 1]!;
    let b = inn === undefined ? 0 : inn.offsets[v]!;
    const b1 = inn === undefined ? 0 : inn.offsets[v + 1]!;
    while (a < a1 || b < b1) {
      const x = a < a1 ? out.nbrs[a]! : Infinity;
      const y = b < b1 ? inn!.nbrs[b]! : Infinity;
      let w: number;
      if (x < y) (w = weighted ? out.weights![a]! : 1), adj.push(x), a++;
      else if (y < x) (w = weighted ? inn!.weights![b]! : 1), adj.push(y), b++;
      else (w = weighted ? Math.min(out.weights![a]!, inn!.weights![b]!) : 1), adj.push(x), a++, b++;
      wt.push(w);
      k[v] += w;
    }
    off[v + 1] = adj.length;
  }
  return { n, off, adj: Uint32Array.from(adj), wt: weighted ? Float64Array.from(wt) : undefined, k, loop: new Float64Array(n) };
}

/**
 * Sequential local moving (Blondel's phase 1) in vertex order, from `comm` with `tot` its
 * community totals: a vertex goes to the neighbouring community of largest gain
 * w(v, c) - γ k_v tot_c / m2 (leaving its own first), only on a strict improvement, ties to the
 * smallest id. Sweeps until one moves nobody or gains less than `tol` in Q. Returns the moves made.
 */
export function moveSerial(g: WCsr, comm: Uint32Array, tot: Float64Array, resolution: number, m2: number, tol: number): number {
  const n = g.n;
  const acc = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  let moves = 0;
  for (let sweep = 0; sweep < 1000; sweep++) {
    let moved = 0;
    let gain = 0;
    for (let v = 0; v < n; v++) {
      const cv = comm[v]!;
      const kv = g.k[v]!;
      let t = 0;
      for (let e = g.off[v]!; e < g.off[v + 1]!; e++) {
        const c = comm[g.adj[e]!]!;
        if (seen[c] === 0) (seen[c] = 1), (acc[c] = 0), (touched[t++] = c);
        acc[c]! += g.wt === undefined ? 1 : g.wt[e]!;
      }
      tot[cv]! -= kv;
      const f = (resolution * kv) / m2;
      const stay = (seen[cv] === 1 ? acc[cv]! : 0) - f * tot[cv]!;
      let best = cv;
      let bestGain = stay;
      for (let i = 0; i < t; i++) {
        const c = touched[i]!;
        seen[c] = 0;
        if (c === cv) continue;
        const x = acc[c]! - f * tot[c]!;
        if (x > bestGain || (x === bestGain && best !== cv && c < best)) (best = c), (bestGain = x);
      }
      tot[best]! += kv;
      if (best !== cv) {
        comm[v] = best;
        moved++;
        gain += (2 * (bestGain - stay)) / m2;
      }
    }
    moves += moved;
    if (moved === 0 || gain < tol) break;
  }
  return moves;
}

/**
 * Level 0's sequential local moving (index.ts, the path for views up to `inlineEdges`): vertices
 * in `order`, each moved at once (Gauss-Seidel) to the community of largest gain as moveSerial,
 * with the minimum-label rule of the synchronous path (a singleton joins another singleton only
 * of smaller id) and pruning: a vertex is evaluated again only once neighbours joined communities
 * other than its own (Leiden's fast local move) and their moves have used up its slack, the
 * lead of its choice over the runner-up at its last evaluation (each can shift two of its gains
 * by w(u, v) + γ k_u k_v / m2; hubs, whose choice is rarely close, are seldom evaluated again).
 * Sweeps until one gains less than TOL; `tot` and `size` are comm's totals and sizes, kept up to
 * date. Returns the sweeps and the modularity gained (exact: every gain is taken on live totals).
 */
export function moveOrdered(g: WCsr, comm: Uint32Array, tot: Float64Array, size: Uint32Array, order: Uint32Array, resolution: number, m2: number): { sweeps: number; gain: number } {
  // The addon's louvainMoveOrdered: the same operations in the same order, natively (a large run's serial part).
  // From MOVE_BATCHES entries, the neighbours' weights are gathered a batch at a time on every core.
  const native = nativeCpuKernels()?.louvainMoveOrdered;
  const batch = g.adj.length >= MOVE_BATCHES && CORES >= 8 ? BATCH_VERTICES : 0;
  if (native !== undefined) return native(g.off, g.adj, g.wt ?? null, g.k, comm, tot, size, order, resolution, m2, MAX_SWEEPS, TOL, batch, BATCH_ENTRIES);
  return moveOrderedSerial(g, comm, tot, size, order, resolution, m2);
}

/** Views of at least this many entries, on 8 cores or more, move with batched gathering (below, the batches' meetings cost more than they spread). */
export const MOVE_BATCHES = 1 << 16;
const CORES = availableParallelism();
/** A batch: at most this many vertices, or about this many entries (addon_louvain.cpp). */
const BATCH_VERTICES = 512;
const BATCH_ENTRIES = 16384;

/** moveOrdered in TypeScript (without the addon; the native pass's oracle in tests). */
export function moveOrderedSerial(g: WCsr, comm: Uint32Array, tot: Float64Array, size: Uint32Array, order: Uint32Array, resolution: number, m2: number): { sweeps: number; gain: number } {
  const { n, off, adj, wt, k } = g;
  const acc = new Float64Array(n);
  // stamp[c] === tick: acc[c] holds the weight to c of the vertex evaluated tick-th (no clearing
  // between vertices; a vertex's own id would match its stamps from an earlier sweep).
  const stamp = new Int32Array(n).fill(-1);
  let tick = -1;
  const touched = new Uint32Array(n);
  const act = new Uint8Array(n).fill(1);
  const slack = new Float64Array(n);
  let sweeps = 0;
  let total = 0;
  while (sweeps < MAX_SWEEPS) {
    sweeps++;
    let moved = 0;
    let gain = 0;
    for (let i = 0; i < n; i++) {
      const v = order[i]!;
      if (act[v] === 0) continue;
      act[v] = 0;
      const cv = comm[v]!;
      const a = off[v]!;
      const b = off[v + 1]!;
      if (++tick === 0x7fffffff) stamp.fill(-1), (tick = 0);
      let t = 0;
      if (wt === undefined) {
        for (let e = a; e < b; e++) {
          const c = comm[adj[e]!]!;
          if (stamp[c] !== tick) (stamp[c] = tick), (acc[c] = 1), (touched[t++] = c);
          else acc[c]! += 1;
        }
      } else {
        for (let e = a; e < b; e++) {
          const c = comm[adj[e]!]!;
          if (stamp[c] !== tick) (stamp[c] = tick), (acc[c] = wt[e]!), (touched[t++] = c);
          else acc[c]! += wt[e]!;
        }
      }
      const kv = k[v]!;
      tot[cv]! -= kv;
      size[cv]!--;
      const f = (resolution * kv) / m2;
      const stay = (stamp[cv] === tick ? acc[cv]! : 0) - f * tot[cv]!;
      let best = cv;
      let bestGain = stay;
      // The runner-up's gain: v's slack is how far its choice leads.
      let second = -Infinity;
      for (let j = 0; j < t; j++) {
        const c = touched[j]!;
        if (c === cv) continue;
        const x = acc[c]! - f * tot[c]!;
        if (x > bestGain || (x === bestGain && best !== cv && c < best)) (second = bestGain), (best = c), (bestGain = x);
        else if (x > second) second = x;
      }
      if (best !== cv && size[cv] === 0 && size[best] === 1 && best > cv) (best = cv), (bestGain = stay), (second = Infinity);
      // A community v has no edge to offers it at most 0 (-f tot): a neighbour joining one makes it an option.
      slack[v] = bestGain - Math.max(second, 0);
      tot[best]! += kv;
      size[best]!++;
      if (best === cv) continue;
      comm[v] = best;
      moved++;
      gain += (2 * (bestGain - stay)) / m2;
      // Neighbours outside the community v joined, once v's moves used up their slack.
      const g2 = (2 * resolution * kv) / m2;
      for (let e = a; e < b; e++) {
        const u = adj[e]!;
        if (comm[u] === best) continue;
        const left = slack[u]! - 2 * (wt === undefined ? 1 : wt[e]!) - g2 * k[u]!;
        slack[u] = left;
        if (left < 0) act[u] = 1;
      }
    }
    total += gain;
    if (moved === 0 || gain < TOL) break;
  }
  return { sweeps, gain: total };
}

/** The sequential path's vertex order: the synchronous path's classes one after the other, each ascending (read-only: the last one is kept for the next run). */
export function classOrder(n: number): Uint32Array {
  if (lastOrder.length === n) return lastOrder;
  const order = new Uint32Array(n);
  let i = 0;
  for (let r = 0; r < CLASSES; r++) for (let v = 0; v < n; v++) if (classOf(v, CLASSES) === r) order[i++] = v;
  return (lastOrder = order);
}
let lastOrder = new Uint32Array(0);

/**
 * Louvain with level 0 sequential (index.ts: views up to `inlineEdges`): rounds of moveOrdered
 * from the last result, each followed by the serial coarse levels, while a refining round's level 0
 * gains at least ROUND_TOL (at most MAX_ROUNDS). Returns the partition (dense ids) and the notes' counts.
 *
 * The rounds run on the vertices that have neighbours (with `compact`, where some have none: RMAT
 * leaves ~30% of its ids without edges): such a vertex never moves and no one joins it, on any
 * level, so the rest renumbered in order, with the order's sequence kept, take every decision as
 * before (ids are compared only with ids, which keep their order) on arrays that fit the caches
 * better; each vertex without neighbours is then a community of its own.
 */
export function sequentialRounds(g: WCsr, resolution: number, m2: number, compact = true): { comm: Uint32Array; levels: number; rounds: number; sweeps: number } {
  // The addon's louvainRounds: the same passes, natively (the O(n) ones a session's first run took cold here).
  const native = nativeCpuKernels()?.louvainRounds;
  if (native === undefined) return sequentialRoundsTs(g, resolution, m2, compact);
  const batchVertices = CORES >= 8 ? BATCH_VERTICES : 0;
  const opts = { classes: CLASSES, maxSweeps: MAX_SWEEPS, tol: TOL, roundTol: ROUND_TOL, maxRounds: MAX_ROUNDS, batchVertices, batchEntries: BATCH_ENTRIES, moveBatches: MOVE_BATCHES, block: AGGREGATE_BLOCK, compact };
  return native(g.off, g.adj, g.wt ?? null, g.k, g.loop, resolution, m2, opts);
}

/** sequentialRounds in TypeScript, pass by pass (the addon's passes where it loads; the native whole's oracle in tests). */
export function sequentialRoundsTs(g: WCsr, resolution: number, m2: number, compact = true): { comm: Uint32Array; levels: number; rounds: number; sweeps: number } {
  const n = g.n;
  const order = classOrder(n);
  let kept = 0;
  for (let v = 0; v < n; v++) if (g.off[v + 1]! > g.off[v]!) kept++;
  if (!compact || kept === n) return roundsOn(g, order, resolution, m2);
  // The kept vertices' new ids (-1: none), and each new id's vertex.
  const to = new Int32Array(n).fill(-1);
  const from = new Uint32Array(kept);
  const off = new Float64Array(kept + 1);
  const k = new Float64Array(kept);
  const loop = new Float64Array(kept);
  for (let v = 0, i = 0; v < n; v++) {
    if (g.off[v + 1]! === g.off[v]!) continue;
    (to[v] = i), (from[i] = v), (k[i] = g.k[v]!), (loop[i] = g.loop[v]!);
    off[i + 1] = off[i]! + g.off[v + 1]! - g.off[v]!;
    i++;
  }
  // The lists keep their entries and order (the weights as they are): only the ids change.
  const adj = new Uint32Array(g.adj.length);
  const renumber = nativeCpuKernels()?.louvainRenumber;
  if (renumber !== undefined) renumber(g.adj, to, adj);
  else for (let e = 0; e < adj.length; e++) adj[e] = to[g.adj[e]!]!;
  const sub = new Uint32Array(kept);
  for (let i = 0, j = 0; i < n; i++) if (to[order[i]!]! >= 0) sub[j++] = to[order[i]!]!;
  const r = roundsOn({ n: kept, off, adj, wt: g.wt, k, loop }, sub, resolution, m2);
  // Community c of the kept vertices as the vertex from[c] (a vertex with neighbours: no id of a
  // vertex without), then renumbered as the partition over every vertex.
  const comm = new Uint32Array(n);
  for (let v = 0; v < n; v++) comm[v] = to[v]! >= 0 ? from[r.comm[to[v]!]!]! : v;
  relabel(comm);
  return { ...r, comm };
}

/** sequentialRounds' rounds on g, level 0 in `order`. */
function roundsOn(g: WCsr, order: Uint32Array, resolution: number, m2: number): { comm: Uint32Array; levels: number; rounds: number; sweeps: number } {
  const n = g.n;
  const comm = new Uint32Array(n);
  for (let v = 0; v < n; v++) comm[v] = v;
  const tot = new Float64Array(n);
  const size = new Uint32Array(n);
  let levels = 0;
  let rounds = 0;
  let sweeps = 0;
  while (rounds < MAX_ROUNDS) {
    tot.fill(0);
    size.fill(0);
    for (let v = 0; v < n; v++) (tot[comm[v]!]! += g.k[v]!), size[comm[v]!]!++;
    const moved = moveOrdered(g, comm, tot, size, order, resolution, m2);
    sweeps += moved.sweeps;
    if (rounds > 0 && moved.gain < ROUND_TOL) break;
    const C = relabel(comm);
    let merged = 0;
    if (C < n) {
      const top = serialLevels(aggregate(g, comm, C), resolution, m2);
      merged = 1 + top.levels;
      for (let v = 0; v < n; v++) comm[v] = top.comm[comm[v]!]!;
    }
    if (rounds === 0) levels = merged;
    rounds++;
    // Coarse levels that merged nothing leave level 0's converged partition: another round would not move.
    if (merged <= 1) break;
  }
  relabel(comm);
  return { comm, levels, rounds, sweeps };
}

/** Renumbers communities 0..C-1 in order of their smallest vertex; returns C. */
export function relabel(comm: Uint32Array): number {
  const map = new Int32Array(comm.length).fill(-1);
  let c = 0;
  for (let v = 0; v < comm.length; v++) {
    const x = comm[v]!;
    if (map[x] === -1) map[x] = c++;
    comm[v] = map[x]!;
  }
  return c;
}

/**
 * The coarse graph of a partition with dense ids 0..C-1 (Blondel's phase 2): the addon's
 * louvainAggregate on one thread per core from NATIVE_AGGREGATE view entries (the same arrays to
 * the bit), else aggregateSerial.
 */
export function aggregate(g: WCsr, comm: Uint32Array, C: number): WCsr {
  const native = g.adj.length >= NATIVE_AGGREGATE ? nativeCpuKernels()?.louvainAggregate : undefined;
  if (native === undefined) return aggregateSerial(g, comm, C);
  return { n: C, ...native(g.off, g.adj, g.wt ?? null, g.k, g.loop, comm, C, AGGREGATE_BLOCK) };
}

/** Views of at least this many entries aggregate natively (below, the threads cost more than they save). */
export const NATIVE_AGGREGATE = 1 << 16;
/**
 * A community's members are summed in blocks: a block takes members in order until it holds at
 * least this many entries. Each block's sums start from zero and the community adds its blocks'
 * in order, so the addon can gather one community's blocks on several threads with the same
 * result on any number of them (a community with few entries is one block: the plain sums).
 * A refining round's partition has a few dozen communities over the whole view.
 */
export const AGGREGATE_BLOCK = 1 << 14;

/** aggregate in TypeScript on this thread (without the addon; the native pass's oracle in tests). */
export function aggregateSerial(g: WCsr, comm: Uint32Array, C: number, block = AGGREGATE_BLOCK): WCsr {
  const { n, off: goff, adj: gadj, wt: gwt, k: gk, loop: gloop } = g;
  // Members of each community, in vertex order (a counting sort).
  const start = new Float64Array(C + 1);
  for (let v = 0; v < n; v++) start[comm[v]! + 1]!++;
  for (let c = 0; c < C; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, C);
  const members = new Uint32Array(n);
  for (let v = 0; v < n; v++) members[fill[comm[v]!]!++] = v;
  // The community's sums (acc, seen, touched) and its current block's (bacc, bseen, btouched).
  const acc = new Float64Array(C);
  const seen = new Uint8Array(C);
  const touched = new Uint32Array(C);
  const bacc = new Float64Array(C);
  const bseen = new Uint8Array(C);
  const btouched = new Uint32Array(C);
  const off = new Float64Array(C + 1);
  const k = new Float64Array(C);
  const loop = new Float64Array(C);
  let adj = new Uint32Array(Math.max(16, Math.min(g.adj.length, 4 * C)));
  let wt = new Float64Array(adj.length);
  let m = 0;
  for (let c = 0; c < C; c++) {
    let t = 0;
    let kc = 0;
    let inside = 0;
    for (let i = start[c]!; i < start[c + 1]!; ) {
      let tb = 0;
      let kb = 0;
      let ib = 0;
      for (let entries = 0; i < start[c + 1]! && entries < block; i++) {
        const v = members[i]!;
        kb += gk[v]!;
        ib += gloop[v]!;
        const a = goff[v]!;
        const b = goff[v + 1]!;
        entries += b - a;
        for (let e = a; e < b; e++) {
          const d = comm[gadj[e]!]!;
          const w = gwt === undefined ? 1 : gwt[e]!;
          if (d === c) ib += w;
          else if (bseen[d] === 0) (bseen[d] = 1), (bacc[d] = w), (btouched[tb++] = d);
          else bacc[d]! += w;
        }
      }
      kc += kb;
      inside += ib;
      for (let j = 0; j < tb; j++) {
        const d = btouched[j]!;
        bseen[d] = 0;
        if (seen[d] === 0) (seen[d] = 1), (acc[d] = bacc[d]!), (touched[t++] = d);
        else acc[d]! += bacc[d]!;
      }
    }
    k[c] = kc;
    loop[c] = inside;
    if (m + t > adj.length) {
      const grown = Math.max(m + t, 2 * adj.length);
      const a2 = new Uint32Array(grown);
      a2.set(adj.subarray(0, m));
      const w2 = new Float64Array(grown);
      w2.set(wt.subarray(0, m));
      (adj = a2), (wt = w2);
    }
    // Neighbours in the order the members' lists first reach them: deterministic, with no sort of
    // each list (a large share of the aggregation); the moves' ties do not depend on the order.
    for (let i = 0; i < t; i++) {
      const d = touched[i]!;
      seen[d] = 0;
      adj[m] = d;
      wt[m++] = acc[d]!;
    }
    off[c + 1] = m;
  }
  return { n: C, off, adj: adj.slice(0, m), wt: wt.slice(0, m), k, loop };
}

/**
 * Serial Louvain levels from `g` (each vertex its own community), until a level merges nothing:
 * returns each vertex's final community (dense ids) and the levels that merged. Each level moves
 * with moveOrdered in vertex order (pruned: on RMAT the first coarse level is about as large as
 * level 0, and classic sweeps over all of it took most of a large run), or with `classic`,
 * moveSerial's full sweeps to TOL (Blondel's algorithm as published, a test's baseline).
 */
export function serialLevels(g: WCsr, resolution: number, m2: number, classic = false): { comm: Uint32Array; levels: number } {
  const top = identity(g.n);
  let levels = 0;
  for (;;) {
    const comm = identity(g.n);
    const tot = g.k.slice();
    if (classic) moveSerial(g, comm, tot, resolution, m2, TOL);
    else moveOrdered(g, comm, tot, new Uint32Array(g.n).fill(1), identity(g.n), resolution, m2);
    const C = relabel(comm);
    if (C === g.n) break;
    levels++;
    for (let v = 0; v < top.length; v++) top[v] = comm[top[v]!]!;
    g = aggregate(g, comm, C);
  }
  return { comm: top, levels };
}

/** 0, 1, ..., n - 1. */
export function identity(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let v = 0; v < n; v++) a[v] = v;
  return a;
}

/** Output labels: each vertex's community as the smallest original id in it. */
export function smallestOriginal(comm: ArrayLike<number>, toOriginal: Uint32Array, out: Uint32Array): Uint32Array {
  const n = toOriginal.length;
  const low = new Float64Array(n).fill(Infinity);
  for (let v = 0; v < n; v++) low[comm[v]!] = Math.min(low[comm[v]!]!, toOriginal[v]!);
  for (let v = 0; v < n; v++) out[v] = low[comm[v]!]!;
  return out;
}

/** Sub-rounds per level-0 sweep (index.ts). */
export const CLASSES = 2;
/** A level's moving stops once a sweep gains less modularity than this (networkx's threshold). */
export const TOL = 1e-7;
/** Level-0 sweeps at most (synchronous moves converge in tens; a bound against oscillation). */
export const MAX_SWEEPS = 200;

/** Level-0 rounds at most: the first from singletons, the others refine the last result. */
export const MAX_ROUNDS = 4;
/**
 * A refining round whose level 0 gains less modularity than this ends the rounds there, its moves
 * kept, without its coarse levels: after such a round they merged nothing on the graphs measured
 * (RMAT 14-18: the third and fourth rounds gained 5e-9 to 2e-4, their coarse levels merging nothing), and their
 * aggregation reads the whole view.
 */
export const ROUND_TOL = 1e-4;
/** Views (adjacency entries, both directions) up to this size run level 0 sequentially on the coordinator (index.ts). */
export const INLINE_EDGES = 1 << 22;

/** Level 0's synchronous moving (index.ts), the bookkeeping the driver and the reference share. */
export type SweepState = {
  /** Level-0 rounds done (index.ts), levels that merged in the first. */
  rounds: number;
  levels: number;
  /** Sweeps of this round begun, and the sub-round (class) within the current one. */
  sweep: number;
  round: number;
  /** Q at the start of this round, of its best and of its last measured sweep. */
  startQ: number;
  bestQ: number;
  prevQ: number;
};

/** The arrays of level 0's moving (index.ts: MoveState's, less the scratch of one sub-round). */
export type LevelZero = {
  comm: Uint32Array;
  tot: Float64Array;
  size: Uint32Array;
  best: Uint32Array;
  act: Uint8Array;
  dirty: Uint8Array;
  mark: Uint8Array;
  /** comm with the current sub-round's proposals. */
  next: Uint32Array;
};

/** Starts a round of level-0 moving from the partition `from` (dense ids): every vertex active. */
export function startRound(z: LevelZero, from: ArrayLike<number>, k: Float64Array, s: SweepState): void {
  z.comm.set(from);
  z.next.set(from);
  z.tot.fill(0);
  z.size.fill(0);
  for (let v = 0; v < k.length; v++) (z.tot[z.comm[v]!]! += k[v]!), z.size[z.comm[v]!]!++;
  z.act.fill(1);
  z.dirty.fill(1);
  // The marks of the sub-round whose proposals the last round dropped.
  z.mark.fill(0);
  Object.assign(s, { sweep: 0, round: 0, startQ: 0, bestQ: 0, prevQ: 0 });
}

/**
 * After a round's moving: its best partition aggregated and taken through the serial coarse
 * levels. Returns the partition (dense ids) and whether to run another round from it (the round
 * improved Q, and rounds remain); undefined when this round found nothing: its best stands.
 */
export function endRound(g: WCsr, z: LevelZero, s: SweepState, resolution: number, m2: number): { comm: Uint32Array; again: boolean } | undefined {
  if (s.rounds > 0 && s.bestQ - s.startQ < ROUND_TOL) return undefined;
  const dense = z.best.slice();
  const C = relabel(dense);
  let levels = 0;
  if (C < g.n) {
    const top = serialLevels(aggregate(g, dense, C), resolution, m2);
    levels = 1 + top.levels;
    for (let v = 0; v < g.n; v++) dense[v] = top.comm[dense[v]!]!;
  }
  if (s.rounds === 0) s.levels = levels;
  s.rounds++;
  return { comm: dense, again: s.rounds < MAX_ROUNDS };
}

/** The vertices sub-round `round` evaluates (kernels.ts evaluate) into `out`; returns their count. */
export function toEvaluate(z: LevelZero, round: number, out: Uint32Array): number {
  let c = 0;
  for (let v = 0; v < z.act.length; v++) if ((z.act[v] === 1 && classOf(v, CLASSES) === round) || (round === 0 && z.dirty[v] === 1)) out[c++] = v;
  return c;
}

/** Q of the partition at a sweep's start: Σ_v w(v, comm v) in vertex order, totals in id order. */
export function sweepQ(kin: Float64Array, tot: Float64Array, m2: number, resolution: number): number {
  let inside = 0;
  for (let v = 0; v < kin.length; v++) inside += kin[v]!;
  let sq = 0;
  for (let c = 0; c < tot.length; c++) sq += tot[c]! * tot[c]!;
  return inside / m2 - (resolution * sq) / (m2 * m2);
}

/**
 * After a sweep's first sub-round measured Q: keeps the best partition so far in `best`; true
 * when moving should stop (Q gained less than TOL over the last sweep, or fell: synchronous
 * moves may oscillate, so the best partition seen is the one kept, or MAX_SWEEPS ran).
 */
export function measured(s: SweepState, q: number, comm: Uint32Array, best: Uint32Array): boolean {
  if (s.sweep === 0) s.startQ = q;
  if (s.sweep === 0 || q > s.bestQ) (s.bestQ = q), best.set(comm);
  const stop = (s.sweep > 0 && q - s.prevQ < TOL) || s.sweep >= MAX_SWEEPS;
  s.prevQ = q;
  return stop;
}
/**
 * Applies a sub-round's proposals: moves, community totals and sizes updated, the movers' marks
 * folded into act and dirty (and cleared); returns the moves.
 */
export function applyMoves(comm: Uint32Array, next: Uint32Array, tot: Float64Array, size: Uint32Array, k: Float64Array, mark: Uint8Array, act: Uint8Array, dirty: Uint8Array): number {
  let moved = 0;
  for (let v = 0; v < comm.length; v++) {
    if (mark[v] === 1) (mark[v] = 0), (act[v] = 1), (dirty[v] = 1);
    const c = next[v]!;
    const old = comm[v]!;
    if (c === old) continue;
    tot[old]! -= k[v]!;
    tot[c]! += k[v]!;
    size[old]!--;
    size[c]!++;
    comm[v] = c;
    moved++;
  }
  return moved;
}
