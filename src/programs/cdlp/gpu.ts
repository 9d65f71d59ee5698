/**
 * The GPU side of cdlp: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, SET_INOUT, type GpuHandler } from '../../../actors/gpu/handler.js';

export const cdlp: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    // Directed graphs: the in+out lists of the owned ranges, built on first use.
    if (a.directed) await a.ensureInOut();
    await a.upload('label', s);
    await a.ensure('nextLabel', 'u32');
    const set = a.directed ? SET_INOUT : SET_OUT;
    const st = await a.run('cdlp_pull', { setId: set, pages: a.rangePages(set), state: { label: 'label', next: 'nextLabel' } });
    const sync = await a.syncOwned('nextLabel', 'nextLabel', s);
    const next = s.state.nextLabel as Uint32Array;
    const label = s.state.label as Uint32Array;
    let changed = 0;
    for (const [b, e] of a.owned) for (let v = b; v < e; v++) if (next[v] !== label[v]) changed++;
    return a.out({ sum: changed, sync });
  },
};
