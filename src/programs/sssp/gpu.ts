/**
 * The GPU side of sssp: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, FR, NX, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';
import { outbox } from '../../../actors/gpu/outbox.js';
import { keep, refresh } from '../../../actors/gpu/residency.js';
import { clearNext, frontierOwned } from '../../../actors/gpu/frontier.js';

export const sssp: GpuHandler = {
  // The native side relaxes by pushing only; both modes reach the same distances.
  modes: ['push'],
  async run(a, s) {
    // dist is resident (index.ts): RMAT 24's 134 MB go up only when another writer changed them.
    await refresh(a, s, 'dist');
    await clearNext(a, s);
    await frontierOwned(a, s);
    const st = await a.run('sssp_push', { setId: SET_OUT, pages: a.pushPages(SET_OUT, s), params: a.ownedParams(), state: { dist: 'dist', frontier: FR, next: NX, ...a.ownedState() } });
    keep(a, s, 'dist', 'min');
    return a.out({ ...(await a.changedOwned('dist', 'min', s, st?.activated ?? 0)), outbox: outbox(st, 'dist', 'min', ACTIVATE) });
  },
};
