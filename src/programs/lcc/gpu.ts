/**
 * The GPU side of lcc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_ALLOUT, type GpuHandler } from '../../../actors/gpu/handler.js';

export const lccDirect: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    await a.ensure('lcc', 'f64');
    const set = await a.ensureLcc();
    // Native lcc pins every page of the out-set in the page cache (N_out(u) is read at random).
    const st = await a.run('lcc', { setId: set, pages: a.rangePages(set), params: { outSet: SET_ALLOUT } });
    return a.out({ sync: await a.syncOwned('lcc', 'lcc', s) });
  },
};
