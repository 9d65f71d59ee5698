/**
 * LCC — Graphalytics semantics (local clustering coefficient):
 *   N(v) = N_in(v) ∪ N_out(v), distinct neighbours, direction ignored; d = |N(v)|
 *   LCC(v) = 0 when d <= 1, else t / (d (d-1)), t = Σ_{u ∈ N(v)} |N(v) ∩ N_out(u)|
 * i.e. the ORDERED neighbour pairs (u, w) with an edge u→w, direction respected (undirected:
 * each neighbour-neighbour edge counts twice, the usual 2·triangles / (d(d-1)); directed: a
 * reciprocal pair counts twice). Equivalently t(v) = Σ over the triangles {v, u, w} of the
 * underlying undirected graph of mult(u, w) = [u→w] + [w→u]. Weights are ignored. Pages hold no
 * self-loops (the builder drops them), so v is never its own neighbour.
 *
 * Degree-ordered triangle enumeration (GAP tc / Schank–Wagner "forward"), three supersteps:
 *   lcc-count  (pull) d(v) = |N(v)| and d+(v) = |N+(v)|, N+(v) = the neighbours with a smaller
 *              internal id — renumbering is by descending degree, so N+ holds the higher-degree
 *              neighbours and |N+(v)| <= sqrt(2|E|);
 *   lcc-fill   (pull) N+(v) as a flat sorted CSR (offsets from a prefix sum on the coordinator)
 *              with mult(v, u) ∈ {1, 2} per entry;
 *   lcc-tri    (pull) each triangle w < u < v is found once, at v: for each u = N+(v)[j], the
 *              sorted prefix N+(v)[0..j) (all < u) is intersected with the sorted N+(u) — a linear
 *              merge, or a galloping search of the shorter list in the longer when their lengths
 *              differ 16-fold. Each corner gets mult of the opposite edge: v's share is a local
 *              sum; the shares of u and w (both in N+(v)) are summed per position of N+(v) in a
 *              per-worker buffer and added once per (v, x ∈ N+(v)) with Atomics.add on a Uint32
 *              low word plus an exact carry into a high word (other tasks add to the same
 *              vertices: no lost update; counts up to 2^53).
 * LCC = t / (d (d-1)) is applied on the coordinator. The work is Σ_v Σ_{u ∈ N+(v)} (|N+(u)| +
 * position of u) instead of the Σ_{(u,v)} min(d_u, d_v) of per-vertex intersections of full
 * lists: hubs have short N+ lists, so skewed graphs stay fast (RMAT scale 18: ~10x less work).
 * No hash sets, nothing allocated per vertex; per worker only O(max degree) buffers. Any vertex
 * order gives the right counts; the builder's degree order gives the speed.
 * Serial reference: reference/lcc.ts.
 */
import type { CpuKernel, KernelGraph } from '../engine/kernel.js';
import type { Program } from '../engine/program.js';
import type { PageSet } from '../graph/types.js';

export type LccParams = Record<string, never>;

/** Per-worker buffers: a vertex's in- and out-lists, and the per-position shares of N+(v). */
let tmpIn = new Uint32Array(1 << 12);
let tmpOut = new Uint32Array(1 << 12);
let acc = new Float64Array(1 << 10);

/** Copies v's whole list in `set` (all of its pages) into `dst` from 0; returns its length. */
function gather(set: PageSet, v: number, dst: Uint32Array): number {
  const pages = set.pages;
  let pi = set.firstPageOf[v]!;
  let p = pages[pi]!;
  if (!p.split) {
    const a = p.offsets[v - p.vBegin]!;
    const b = p.offsets[v - p.vBegin + 1]!;
    dst.set(p.nbrs.subarray(a, b));
    return b - a;
  }
  let k = 0;
  while (p !== undefined && p.split && p.vBegin === v) {
    dst.set(p.nbrs.subarray(0, p.edges), k);
    k += p.edges;
    p = pages[++pi]!;
  }
  return k;
}

/** Loads v's out-list (and in-list when directed) into tmpOut / tmpIn, their lengths into lens. */
function load(g: KernelGraph, v: number, lens: Uint32Array): void {
  const ko = g.outDegree[v]!;
  if (ko > tmpOut.length) tmpOut = new Uint32Array(Math.max(ko, 2 * tmpOut.length));
  lens[0] = gather(g.out, v, tmpOut);
  if (g.in === g.out) {
    lens[1] = 0;
    return;
  }
  const ki = g.inDegree[v]!;
  if (ki > tmpIn.length) tmpIn = new Uint32Array(Math.max(ki, 2 * tmpIn.length));
  lens[1] = gather(g.in, v, tmpIn);
}

const lens = new Uint32Array(2);
/** Entries below `limit` seen by the last mergeNbrs call. */
let below = 0;

/**
 * Walks v's neighbour union N(v) in ascending order, returns |N(v)| and leaves in `below` the
 * number of entries below `limit`; with `fwd`, writes those entries at fwd[at...] and their
 * multiplicity (2 when linked both ways, else 1) at mult[at...].
 */
function mergeNbrs(g: KernelGraph, v: number, limit: number, fwd: Uint32Array | undefined, mult: Uint8Array | undefined, at: number): number {
  load(g, v, lens);
  const ko = lens[0]!;
  const ki = lens[1]!;
  if (g.in === g.out) {
    let i = 0;
    while (i < ko && tmpOut[i]! < limit) i++;
    below = i;
    if (fwd !== undefined) for (let k = 0; k < i; k++) (fwd[at + k] = tmpOut[k]!), (mult![at + k] = 2);
    return ko;
  }
  let a = 0;
  let b = 0;
  let d = 0;
  let c = 0;
  while (a < ki || b < ko) {
    const x = a < ki ? tmpIn[a]! : 0xffffffff;
    const y = b < ko ? tmpOut[b]! : 0xffffffff;
    let u: number;
    let m = 1;
    if (x < y) (u = x), a++;
    else if (y < x) (u = y), b++;
    else (u = x), (m = 2), a++, b++;
    if (u < limit) {
      if (fwd !== undefined) (fwd[at + c] = u), (mult![at + c] = m);
      c++;
    }
    d++;
  }
  below = c;
  return d;
}

export const lccCountKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const deg = ctx.state.deg as Uint32Array;
    const fwdDeg = ctx.state.fwdDeg as Uint32Array;
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      out.edges += g.outDegree[v]! + (g.in === g.out ? 0 : g.inDegree[v]!);
      deg[v] = mergeNbrs(g, v, v, undefined, undefined, 0);
      fwdDeg[v] = below;
    }
  },
};

export const lccFillKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const fwdOff = ctx.state.fwdOff as Float64Array;
    const fwd = ctx.state.fwd as Uint32Array;
    const mult = ctx.state.mult as Uint8Array;
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      if (fwdOff[v + 1] === fwdOff[v]) continue;
      out.edges += g.outDegree[v]! + (g.in === g.out ? 0 : g.inDegree[v]!);
      mergeNbrs(g, v, v, fwd, mult, fwdOff[v]!);
    }
  },
};

/** t[v] += inc (inc a non-negative integer < 2^53) on a (lo, hi) Uint32 pair, atomically. */
function addCount(lo: Uint32Array, hi: Uint32Array, v: number, inc: number): void {
  const low = inc >>> 0;
  const old = Atomics.add(lo, v, low);
  const carry = (inc - low) / 0x100000000 + (old + low > 0xffffffff ? 1 : 0);
  if (carry !== 0) Atomics.add(hi, v, carry);
}

export const lccTriangleKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const fwdOff = ctx.state.fwdOff as Float64Array;
    const fwd = ctx.state.fwd as Uint32Array;
    const mult = ctx.state.mult as Uint8Array;
    const tLo = ctx.state.tLo as Uint32Array;
    const tHi = ctx.state.tHi as Uint32Array;
    const v0 = pages[0]!.vBegin;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      const a0 = fwdOff[v]!;
      const k = fwdOff[v + 1]! - a0;
      if (k < 2) continue;
      if (k > acc.length) acc = new Float64Array(Math.max(k, 2 * acc.length));
      const sum = acc;
      sum.fill(0, 0, k);
      let tv = 0;
      for (let j = 1; j < k; j++) {
        // Triangles w < u < v: w ∈ N+(v)[0..j) ∩ N+(u), both sorted.
        const u = fwd[a0 + j]!;
        const multVU = mult[a0 + j]!;
        let b = fwdOff[u]!;
        const b1 = fwdOff[u + 1]!;
        const a1 = a0 + j;
        let a = a0;
        let tu = 0;
        if (b1 - b > 16 * j) {
          // Gallop the short prefix of N+(v) through the long N+(u).
          edges += j;
          for (; a < a1 && b < b1; a++) {
            const x = fwd[a]!;
            let lo2 = b;
            let hi2 = b;
            let step = 1;
            while (hi2 < b1 && fwd[hi2]! < x) {
              lo2 = hi2 + 1;
              hi2 += step;
              step *= 2;
            }
            if (hi2 > b1) hi2 = b1;
            while (lo2 < hi2) {
              const mid = Math.floor((lo2 + hi2) / 2);
              if (fwd[mid]! < x) lo2 = mid + 1;
              else hi2 = mid;
            }
            b = lo2;
            if (b < b1 && fwd[b] === x) {
              tv += mult[b]!;
              tu += mult[a]!;
              sum[a - a0]! += multVU;
              b++;
            }
          }
        } else if (j > 16 * (b1 - b)) {
          // Gallop the short N+(u) through the long prefix of N+(v).
          edges += b1 - b;
          for (; b < b1 && a < a1; b++) {
            const y = fwd[b]!;
            let lo2 = a;
            let hi2 = a;
            let step = 1;
            while (hi2 < a1 && fwd[hi2]! < y) {
              lo2 = hi2 + 1;
              hi2 += step;
              step *= 2;
            }
            if (hi2 > a1) hi2 = a1;
            while (lo2 < hi2) {
              const mid = Math.floor((lo2 + hi2) / 2);
              if (fwd[mid]! < y) lo2 = mid + 1;
              else hi2 = mid;
            }
            a = lo2;
            if (a < a1 && fwd[a] === y) {
              tv += mult[b]!;
              tu += mult[a]!;
              sum[a - a0]! += multVU;
              a++;
            }
          }
        } else {
          edges += b1 - b;
          while (a < a1 && b < b1) {
            const x = fwd[a]!;
            const y = fwd[b]!;
            if (x < y) a++;
            else if (y < x) b++;
            else {
              tv += mult[b]!;
              tu += mult[a]!;
              sum[a - a0]! += multVU;
              a++;
              b++;
            }
          }
        }
        sum[j]! += tu;
      }
      for (let j = 0; j < k; j++) if (sum[j] !== 0) addCount(tLo, tHi, fwd[a0 + j]!, sum[j]!);
      if (tv !== 0) addCount(tLo, tHi, v, tv);
    }
    out.edges += edges;
  },
};

/** Per-worker sorted N(v) and a neighbour's out-list, for lcc-direct. */
let nv = new Uint32Array(1 << 12);
let nu = new Uint32Array(1 << 12);
let nm = new Uint8Array(1 << 12);

/**
 * lcc-direct (GPU topologies; the structure of the native `lcc` kernel, one pull superstep):
 * per vertex v, N(v) sorted and distinct, t = Σ_{u ∈ N(v)} |N(v) ∩ N_out(u)| by a merge of two
 * sorted lists (galloping when N_out(u) is much shorter), LCC = t / (d (d-1)). Same integers,
 * same division as the three-step path, so the same doubles; slower on hubs, which is why
 * CPU-only topologies keep the degree-ordered enumeration.
 */
export const lccDirectKernel: CpuKernel = {
  pull(ctx, pages, lo, hi, out) {
    const res = ctx.state.lcc as Float64Array;
    const g = ctx.graph;
    const v0 = pages[0]!.vBegin;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      const cap = g.outDegree[v]! + (g.in === g.out ? 0 : g.inDegree[v]!);
      if (cap > nv.length) (nv = new Uint32Array(Math.max(cap, 2 * nv.length))), (nm = new Uint8Array(nv.length));
      const d = mergeNbrs(g, v, 0x100000000, nv, nm, 0);
      if (d <= 1) {
        res[v] = 0;
        continue;
      }
      let t = 0;
      for (let j = 0; j < d; j++) {
        const u = nv[j]!;
        const k = g.outDegree[u]!;
        if (k > nu.length) nu = new Uint32Array(Math.max(k, 2 * nu.length));
        gather(g.out, u, nu);
        edges += k;
        if (16 * k < d) {
          // Binary-search each w of the short N_out(u) in N(v).
          for (let e = 0; e < k; e++) {
            const w = nu[e]!;
            let a = 0;
            let b = d;
            while (a < b) {
              const m = (a + b) >>> 1;
              if (nv[m]! < w) a = m + 1;
              else b = m;
            }
            if (a < d && nv[a] === w) t++;
          }
        } else {
          let a = 0;
          let b = 0;
          while (a < d && b < k) {
            const x = nv[a]!;
            const y = nu[b]!;
            if (x < y) a++;
            else if (y < x) b++;
            else (t++, a++, b++);
          }
        }
      }
      res[v] = t / (d * (d - 1));
    }
    out.edges += edges;
  },
};

export const lcc: Program<LccParams> = {
  name: 'lcc',
  output: 'float',
  async run(ctx) {
    const n = ctx.graph.numVertices;
    if (ctx.gpuActors > 0) {
      const res = ctx.alloc('f64', 0) as Float64Array;
      await ctx.edgeMap('lcc-direct', ctx.all(), { lcc: res }, {}, { modes: ['pull'] });
      ctx.note('lccPath', 'direct');
      return res;
    }
    const deg = ctx.alloc('u32', 0) as Uint32Array;
    const fwdDeg = ctx.alloc('u32', 0) as Uint32Array;
    const all = ctx.all();
    await ctx.edgeMap('lcc-count', all, { deg, fwdDeg }, {}, { modes: ['pull'] });
    const fwdOff = ctx.alloc('f64', 0, n + 1) as Float64Array;
    for (let v = 0; v < n; v++) fwdOff[v + 1] = fwdOff[v]! + fwdDeg[v]!;
    const total = fwdOff[n]!;
    const fwd = ctx.alloc('u32', 0, total) as Uint32Array;
    const mult = ctx.alloc('u8', 0, total) as Uint8Array;
    await ctx.edgeMap('lcc-fill', all, { fwdOff, fwd, mult }, {}, { modes: ['pull'] });
    const tLo = ctx.alloc('u32', 0) as Uint32Array;
    const tHi = ctx.alloc('u32', 0) as Uint32Array;
    await ctx.edgeMap('lcc-tri', all, { fwdOff, fwd, mult, tLo, tHi }, {}, { modes: ['pull'] });
    const lcc = ctx.alloc('f64', 0) as Float64Array;
    for (let v = 0; v < n; v++) {
      const d = deg[v]!;
      if (d > 1) lcc[v] = (tHi[v]! * 0x100000000 + tLo[v]!) / (d * (d - 1));
    }
    return lcc;
  },
};
