/** bfs on GPUs: handlers over the precompiled native kernels (native/src), imported by URL. */
import { SET_OUT, SET_IN, FR, NX, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';
import type { RunStats } from '../../../actors/gpu/native.js';

export const bfs: GpuHandler = {
  modes: ['push', 'pull'],
  async run(a, s) {
    const level = s.f.args.level!;
    // Its 67 MB upload per level on RMAT 24 is skipped after a push level of its own (holds).
    if (!(s.f.mode === 'push' && a.holds('depth', s))) await a.upload('depth', s); // (names a missing depth state)
    a.held = s.f.mode === 'push' ? { name: 'depth', buf: s.state.depth!.buffer, step: s.f.step } : undefined;
    await a.clearNext();
    let st: RunStats | undefined;
    if (s.f.mode === 'push') {
      await a.frontierOwned(s);
      st = await a.run('bfs_push', { setId: SET_OUT, pages: a.pushPages(SET_OUT, s), params: { level, ...a.ownedParams() }, state: { depth: 'depth', frontier: FR, next: NX, ...a.ownedState() } });
    } else {
      await a.frontierAll(s);
      await a.run('bfs_pull', { setId: SET_IN, pages: a.rangePages(SET_IN), params: { level }, state: { depth: 'depth', frontier: FR, next: NX } });
      // Pull: the actor is its ranges' one writer: depth and next flags go back dense, in place
      // (a compacted merge of RMAT 24's 10 M claims a level cost ~250 ms on the coordinator).
      const sync = await a.syncOwned('depth', 'depth', s);
      return a.out({ sync, active: await a.syncNext(s) });
    }
    // Every claim of a level writes level + 1: the device's next flags say it all.
    return a.out({ ...(await a.changedOwned('depth', 'claim', s, st?.activated, level + 1)), outbox: a.outbox(st, 'depth', 'claim', ACTIVATE) });
  },
  stealPush: {
    async run(a, s, tasks) {
      const st = await a.pushStolen('bfs_push', s, tasks, { level: s.f.args.level! }, { depth: 'depth' });
      return a.outbox(st, 'depth', 'claim', ACTIVATE);
    },
    owned: (a, s) => a.changedOwned('depth', 'claim', s, undefined, s.f.args.level! + 1),
  },
};
