/**
 * The GPU side of sssp: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, FR, NX, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';

export const sssp: GpuHandler = {
  // The native side relaxes by pushing only; both modes reach the same distances.
  modes: ['push'],
  async run(a, s) {
    // RMAT 24's 134 MB of distances went up every superstep (28 of them): not after its own.
    if (!a.holds('dist', s)) await a.upload('dist', s);
    a.held = { name: 'dist', buf: s.state.dist!.buffer, step: s.f.step };
    await a.clearNext();
    await a.frontierOwned(s);
    const st = await a.run('sssp_push', { setId: SET_OUT, pages: a.pushPages(SET_OUT, s), params: a.ownedParams(), state: { dist: 'dist', frontier: FR, next: NX, ...a.ownedState() } });
    return a.out({ ...(await a.changedOwned('dist', 'min', s, st?.activated)), outbox: a.outbox(st, 'dist', 'min', ACTIVATE) });
  },
};
