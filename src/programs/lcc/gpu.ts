/**
 * The GPU side of lcc (and tc, which re-exports it): lccTri, the triangle superstep of the
 * degree-ordered enumeration (index.ts) over the N+ lists the CPU sockets built (lccCount,
 * lccFill: CPU-only supersteps). The GPU uploads N+ whole (offsets, ids, multiplicities unless
 * the step's `unit` arg says every one is 1), enumerates the triangles whose top vertex v it owns
 * with the native `lcc_tri` kernel (native/src/kernels_tri.h: per-element galloping searches,
 * balanced over a scan of their counts) and sends each corner's count, wherever it lies, as a
 * 'sum' merge into the step's `tGpu` (f64, exact below 2^53): the sockets count their own top
 * vertices into tLo/tHi, and the driver adds the two. Device arrays of N+'s length live for the
 * call only.
 */
import type { GpuHandler } from '../../../actors/gpu/handler.js';
import type { StateKind } from '../../wire/frames.js';
import type { StateArray } from '../../engine/kernel.js';
import { rangeVertices } from '../../engine/partition.js';

export const lccTri: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    const { fwdOff, fwd, mult } = s.state;
    if (fwdOff === undefined || fwd === undefined || mult === undefined || s.state.tGpu === undefined) throw new Error("lccTri on a GPU needs state fwdOff, fwd, mult and tGpu");
    if (rangeVertices(a.owned) === 0) return a.out({});
    const n = a.graph.numVertices;
    const slots = fwd.length;
    const unit = s.f.args.unit === 1;
    const ctl = a.controller;
    const temp: string[] = [];
    const put = async (name: string, kind: StateKind, length: number, data?: StateArray): Promise<void> => {
      await ctl.allocState(name, kind, length);
      temp.push(name);
      if (data === undefined) return;
      await ctl.writeState(name, data);
      a.stats.stateBytesIn += data.byteLength;
    };
    try {
      await put('tri.off', 'f64', n + 1, fwdOff);
      await put('tri.fwd', 'u32', slots, fwd);
      if (!unit) await put('tri.mult', 'u8', slots, mult);
      await put('tri.work', 'f64', slots + 1);
      await put('tri.acc', 'u32', slots);
      await a.ensure('tri', 'f64');
      await a.ensure('tri.touched', 'u8');
      const st = await a.runPageless('lcc_tri', {
        params: a.ownedParams(),
        state: { fwdOff: 'tri.off', fwd: 'tri.fwd', work: 'tri.work', acc: 'tri.acc', tri: 'tri', touched: 'tri.touched', ...(unit ? {} : { mult: 'tri.mult' }), ...a.ownedState() },
      });
      const { ids, values } = await ctl.compact('tri.touched', 'tri', 0, n);
      a.stats.stateBytesOut += ids.byteLength + values.byteLength;
      // The report's edges: the searches made (each an intersection step, as the sockets' merge steps).
      return { ...a.out({ merges: [{ state: 'tGpu', op: 'sum', activate: false, ids, values }] }), edges: st.sum ?? 0 };
    } finally {
      for (const name of temp) await ctl.freeState(name);
    }
  },
};
