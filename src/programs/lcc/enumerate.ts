/**
 * The degree-ordered triangle enumeration (lcc/index.ts), shared by lcc and tc: three pull
 * supersteps (lccCount, lccFill, lccTri), with safe points after the count and after the fill
 * (the scratch made so far is the carry). The count and the fill are O(E) passes on the CPU
 * sockets on every topology (`cpuOnly`); on GPU topologies the GPUs take their vertices' share of
 * lccTri over the whole N+ (lcc/gpu.ts) and send their corners' counts into tGpu. Returns each
 * vertex's distinct-neighbour count and its t(v) = Σ over its triangles of the opposite edge's
 * multiplicity, or of 1 with `unit` (tc).
 */
import type { RunContext } from '../../engine/program.js';

type Carry = { deg: Uint32Array; fwdDeg: Uint32Array; filled?: { fwdOff: Float64Array; fwd: Uint32Array; mult: Uint8Array } };

export async function enumerateTriangles(ctx: RunContext, unit: boolean): Promise<{ deg: Uint32Array; t: Float64Array }> {
  const n = ctx.graph.numVertices;
  const all = ctx.all();
  let c = ctx.resume<Carry>();
  if (c === undefined) {
    const deg = ctx.alloc('u32') as Uint32Array;
    const fwdDeg = ctx.alloc('u32') as Uint32Array;
    ctx.release((await ctx.edgeMap('lccCount', all, { deg, fwdDeg }, {}, { modes: ['pull'], cpuOnly: true })).next);
    await ctx.checkpoint((c = { deg, fwdDeg }));
  }
  if (c.filled === undefined) {
    // N+ has a length known only now: scratch of this run.
    const fwdOff = ctx.alloc('f64', 0, n + 1) as Float64Array;
    for (let v = 0; v < n; v++) fwdOff[v + 1] = fwdOff[v]! + c.fwdDeg[v]!;
    const total = fwdOff[n]!;
    const fwd = ctx.alloc('u32', 0, total) as Uint32Array;
    const mult = ctx.alloc('u8', 0, total) as Uint8Array;
    ctx.release((await ctx.edgeMap('lccFill', all, { fwdOff, fwd, mult }, {}, { modes: ['pull'], cpuOnly: true })).next);
    // tc: each corner of a triangle counts 1, whatever the directions of its edges.
    if (unit) mult.fill(1);
    await ctx.checkpoint((c = { ...c, filled: { fwdOff, fwd, mult } }));
  }
  const { fwdOff, fwd, mult } = c.filled!;
  const tLo = ctx.alloc('u32') as Uint32Array;
  const tHi = ctx.alloc('u32') as Uint32Array;
  // The GPUs' corner counts, folded by 'sum' (the sockets add theirs to tLo/tHi in place).
  const tGpu = ctx.gpuActors > 0 ? (ctx.alloc('f64') as Float64Array) : undefined;
  ctx.release((await ctx.edgeMap('lccTri', all, { fwdOff, fwd, mult, tLo, tHi, ...(tGpu !== undefined ? { tGpu } : {}) }, { unit: unit ? 1 : 0 }, { modes: ['pull'] })).next);
  const t = tGpu ?? (ctx.alloc('f64') as Float64Array);
  for (let v = 0; v < n; v++) t[v]! += tHi[v]! * 0x100000000 + tLo[v]!;
  return { deg: c.deg, t };
}
