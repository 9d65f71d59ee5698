/**
 * PageRank's CPU kernels (the definition and its semantics: index.ts). `pr` pulls: each vertex
 * sums its in-neighbours' contributions and writes its rank, its next contribution and the
 * dangling mass in the same pass (no atomics, one writer per vertex). The first iteration reads no
 * contributions: with `args.r0` every vertex starts at rank r0, so u's contribution is r0 / outdeg(u)
 * (0 for a sink), computed where it is read (no pass writing rank and contrib before the run).
 * `prSinks` counts the sinks (the first iteration's dangling mass is r0 times that).
 */
import type { CpuKernel, KernelCtx, TaskOut } from '../../engine/kernel.js';
import type { Page } from '../../graph/types.js';
import { nativeCpuKernels } from '../../../actors/gpu/native-host.js';

// A page's vertices in C++ (native/src/addon_pr.cpp) where the addon loads: the same sums to the
// bit, without the loops' JIT warm-up on every thread in a session's first run.
const native = nativeCpuKernels()?.prPull;
const st = new Float64Array(2);

export interface PrState {
  /** rank / outdeg of the previous iteration (0 for sinks): what in-neighbours read. Absent in the first iteration (args.r0). */
  contrib?: Float64Array;
  /** The contributions this iteration writes (the driver swaps the two). */
  nextContrib: Float64Array;
  rank: Float64Array;
}

export const pr: CpuKernel<PrState> = {
  pull(ctx, pages, lo, hi, out) {
    const { contrib, nextContrib, rank } = ctx.state;
    const r0 = ctx.args.r0;
    if (native === undefined || pages.length > 1) return pullTs(ctx, pages, lo, hi, out);
    if (contrib === undefined && r0 === undefined) throw new Error("kernel 'pr' needs state contrib, or args.r0 in the first iteration");
    const p = pages[0]!;
    st.fill(0);
    native(p.offsets, p.nbrs, p.vBegin, lo, hi, ctx.graph.outDegree, contrib ?? null, nextContrib, rank, ctx.args.base!, ctx.args.damping!, r0 ?? 0, st);
    out.edges += st[0]!;
    out.sum += st[1]!;
  },
};

/** pr.pull in TypeScript (without the addon, and a split vertex's pages; the native pull's oracle in tests). */
export function pullTs(ctx: KernelCtx<PrState>, pages: Page[], lo: number, hi: number, out: TaskOut): void {
  const contrib = ctx.state.contrib;
  const nextContrib = ctx.state.nextContrib;
  const rank = ctx.state.rank;
  const outDeg = ctx.graph.outDegree;
  const base = ctx.args.base!;
  const d = ctx.args.damping!;
  const r0 = ctx.args.r0;
  let dangling = 0;
  const apply = (v: number, s: number): void => {
    const r = base + d * s;
    rank[v] = r;
    const k = outDeg[v]!;
    if (k === 0) {
      nextContrib[v] = 0;
      dangling += r;
    } else nextContrib[v] = r / k;
  };
  if (contrib === undefined) {
    // The first iteration (every rank r0): u's contribution r0 / outdeg(u), the same IEEE
    // division a stored one would hold, so later iterations agree bitwise. Shaped as below.
    if (r0 === undefined) throw new Error("kernel 'pr' needs state contrib, or args.r0 in the first iteration");
    if (pages.length > 1) {
      let s = 0;
      for (const p of pages) {
        const nb = p.nbrs;
        for (let e = 0; e < p.edges; e++) {
          const k = outDeg[nb[e]!]!;
          if (k !== 0) s += r0 / k;
        }
        out.edges += p.edges;
      }
      apply(pages[0]!.vBegin, s);
    } else {
      const { offsets, nbrs, vBegin } = pages[0]!;
      let e = offsets[lo]!;
      out.edges += offsets[hi]! - e;
      for (let i = lo; i < hi; i++) {
        const end = offsets[i + 1]!;
        let s = 0;
        for (; e < end; e++) {
          const k = outDeg[nbrs[e]!]!;
          if (k !== 0) s += r0 / k;
        }
        apply(vBegin + i, s);
      }
    }
  } else if (pages.length > 1) {
    // One split vertex: its in-edges span several pages.
    let s = 0;
    for (const p of pages) {
      const nb = p.nbrs;
      for (let e = 0; e < p.edges; e++) s += contrib[nb[e]!]!;
      out.edges += p.edges;
    }
    apply(pages[0]!.vBegin, s);
  } else {
    const { offsets, nbrs, vBegin } = pages[0]!;
    let e = offsets[lo]!;
    out.edges += offsets[hi]! - e;
    for (let i = lo; i < hi; i++) {
      const end = offsets[i + 1]!;
      let s = 0;
      for (; e < end; e++) s += contrib[nbrs[e]!]!;
      apply(vBegin + i, s);
    }
  }
  out.sum += dangling;
}

/** The sinks (out-degree 0) of [lo, hi), counted in `sum`: the first iteration's dangling mass over r0. */
export const prSinks: CpuKernel<Record<string, never>> = {
  vertex(ctx, lo, hi, out) {
    const outDeg = ctx.graph.outDegree;
    let sinks = 0;
    for (let v = lo; v < hi; v++) if (outDeg[v] === 0) sinks++;
    out.sum += sinks;
  },
};
