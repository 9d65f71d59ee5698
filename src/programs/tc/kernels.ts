/**
 * tc's CPU kernels. CPU-only topologies: LCC's degree-ordered enumeration (lcc/kernels.ts), run
 * with every multiplicity 1 (index.ts). GPU topologies: tcDirect, the structure of the native
 * kernel the GPUs run (gpu.ts), for the CPU sockets' share.
 */
import type { CpuKernel } from '../../engine/kernel.js';
import { mergeNbrs } from '../lcc/kernels.js';

export { lccCount, lccFill, lccTri } from '../lcc/kernels.js';

/** Per-worker sorted N(v) and N(u), and the multiplicities mergeNbrs writes (unused here). */
let nv = new Uint32Array(1 << 12);
let nu = new Uint32Array(1 << 12);
let nm = new Uint8Array(1 << 12);

/** tri[v] = Σ_{u ∈ N(v)} |N(v) ∩ N(u)| / 2, by merges of sorted distinct neighbour lists. */
export const tcDirect: CpuKernel<{ tri: Float64Array }> = {
  pull(ctx, pages, lo, hi, out) {
    const tri = ctx.state.tri;
    const g = ctx.graph;
    const cap = (x: number): number => g.outDegree[x]! + (g.in === g.out ? 0 : g.inDegree[x]!);
    const v0 = pages[0]!.vBegin;
    for (let i = lo; i < hi; i++) {
      const v = v0 + i;
      if (cap(v) > nv.length) nv = new Uint32Array(Math.max(cap(v), 2 * nv.length));
      if (nv.length > nm.length) nm = new Uint8Array(nv.length);
      const d = mergeNbrs(g, v, 0x100000000, nv, nm, 0);
      let t = 0;
      for (let j = 0; j < d; j++) {
        const u = nv[j]!;
        if (cap(u) > nu.length) nu = new Uint32Array(Math.max(cap(u), 2 * nu.length));
        if (nu.length > nm.length) nm = new Uint8Array(nu.length);
        const k = mergeNbrs(g, u, 0x100000000, nu, nm, 0);
        out.edges += k;
        for (let a = 0, b = 0; a < d && b < k; ) {
          const x = nv[a]!;
          const y = nu[b]!;
          if (x < y) a++;
          else if (y < x) b++;
          else (t++, a++, b++);
        }
      }
      tri[v] = t / 2;
    }
  },
};
