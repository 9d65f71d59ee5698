/**
 * CDLP's CPU kernel (the definition and its semantics: index.ts). Pull only: each vertex gathers
 * its neighbours' labels into a per-worker reusable buffer, sorts it (insertion sort for short
 * lists, the native typed-array sort otherwise) and takes the longest run, smallest on ties —
 * no hash map, nothing allocated per vertex.
 */
import type { CpuKernel } from '../../engine/kernel.js';

export interface CdlpState {
  /** Labels of the previous iteration (original ids): what neighbours read. */
  label: Uint32Array;
  /** Labels this iteration writes (the driver swaps the two). */
  nextLabel: Uint32Array;
}

/** Per-worker gather buffer (each worker thread has its own module instance). */
let buf = new Uint32Array(1 << 12);

function grow(need: number): void {
  if (need <= buf.length) return;
  buf = new Uint32Array(Math.max(need, buf.length * 2)); // called before gathering: nothing to keep
}

/** Most frequent value of buf[0..k) (k > 0), smallest on ties; sorts buf[0..k) in place. */
function mode(k: number): number {
  const b = buf;
  if (k <= 32) {
    for (let i = 1; i < k; i++) {
      const x = b[i]!;
      let j = i - 1;
      while (j >= 0 && b[j]! > x) (b[j + 1] = b[j]!), j--;
      b[j + 1] = x;
    }
  } else b.subarray(0, k).sort();
  let best = b[0]!;
  let bestCount = 0;
  for (let i = 0; i < k; ) {
    const x = b[i]!;
    let j = i + 1;
    while (j < k && b[j] === x) j++;
    if (j - i > bestCount) (best = x), (bestCount = j - i);
    i = j;
  }
  return best;
}

export const cdlp: CpuKernel<CdlpState> = {
  pull(ctx, pages, lo, hi, out) {
    const label = ctx.state.label;
    const nextLabel = ctx.state.nextLabel;
    const g = ctx.graph;
    const directed = g.in !== g.out;
    const { pages: outPages, firstPageOf: outFirst } = g.out;
    const split = pages.length > 1 || pages[0]!.split;
    const v0 = pages[0]!.vBegin;
    let changed = 0;
    let edges = 0;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      let k = 0;
      if (split) {
        let total = 0;
        for (const p of pages) total += p.edges;
        grow(total + (directed ? g.outDegree[v]! : 0));
        for (const p of pages) {
          const nbrs = p.nbrs;
          for (let e = 0; e < p.edges; e++) buf[k++] = label[nbrs[e]!]!;
        }
      } else {
        const { offsets, nbrs } = pages[0]!;
        const a = offsets[i]!;
        const b = offsets[i + 1]!;
        grow(b - a + (directed ? g.outDegree[v]! : 0));
        for (let e = a; e < b; e++) buf[k++] = label[nbrs[e]!]!;
      }
      if (directed) {
        let pi = outFirst[v]!;
        let p = outPages[pi]!;
        let a: number;
        let b: number;
        if (p.split) (a = 0), (b = p.edges);
        else (a = p.offsets[v - p.vBegin]!), (b = p.offsets[v - p.vBegin + 1]!);
        for (;;) {
          const nbrs = p.nbrs;
          for (let e = a; e < b; e++) buf[k++] = label[nbrs[e]!]!;
          if (!p.split) break;
          p = outPages[++pi]!;
          if (p === undefined || !p.split || p.vBegin !== v) break;
          a = 0;
          b = p.edges;
        }
      }
      edges += k;
      const l = k === 0 ? label[v]! : k === 1 ? buf[0]! : mode(k);
      nextLabel[v] = l;
      if (l !== label[v]) changed++;
    }
    out.edges += edges;
    out.sum += changed;
  },
};
