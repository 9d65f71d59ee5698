/**
 * LCC's CPU kernels (the definition and its semantics: index.ts): the degree-ordered triangle
 * enumeration (lccCount, lccFill, lccTri), which tc runs too.
 */
import type { CpuKernel, KernelGraph } from '../../engine/kernel.js';
import type { PageSet } from '../../graph/types.js';

export interface LccCountState {
  /** |N(v)|. */
  deg: Uint32Array;
  /** |N+(v)|: the neighbours with a smaller internal id. */
  fwdDeg: Uint32Array;
}

export interface LccFillState {
  /** Offsets of N+(v) in fwd, n + 1 entries. */
  fwdOff: Float64Array;
  /** N+(v) of every v, each sorted. */
  fwd: Uint32Array;
  /** mult(v, u) ∈ {1, 2} per entry of fwd. */
  mult: Uint8Array;
}

export interface LccTriState extends LccFillState {
  /** t(v), the ordered-pair count, as low and high Uint32 words. */
  tLo: Uint32Array;
  tHi: Uint32Array;
}

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
export function mergeNbrs(g: KernelGraph, v: number, limit: number, fwd: Uint32Array | undefined, mult: Uint8Array | undefined, at: number): number {
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

export const lccCount: CpuKernel<LccCountState> = {
  pull(ctx, pages, lo, hi, out) {
    const deg = ctx.state.deg;
    const fwdDeg = ctx.state.fwdDeg;
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

export const lccFill: CpuKernel<LccFillState> = {
  pull(ctx, pages, lo, hi, out) {
    const fwdOff = ctx.state.fwdOff;
    const fwd = ctx.state.fwd;
    const mult = ctx.state.mult;
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

export const lccTri: CpuKernel<LccTriState> = {
  pull(ctx, pages, lo, hi, out) {
    const fwdOff = ctx.state.fwdOff;
    const fwd = ctx.state.fwd;
    const mult = ctx.state.mult;
    const tLo = ctx.state.tLo;
    const tHi = ctx.state.tHi;
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
