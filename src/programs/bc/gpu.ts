/**
 * The GPU side of bc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, FR, NX, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';
import type { StateMerge } from '../../wire/frames.js';
import { clearNext, frontierOwned } from '../../../actors/gpu/frontier.js';

export const bcFwd: GpuHandler = {
  // bc_forward has no outbox (depth and sigma change together): it writes the device replica
  // anywhere and the actor sends the difference against what it uploaded.
  modes: ['push'],
  async run(a, s) {
    // One GPU owning every vertex: a level's claims are the device's next flags, and sigma changed
    // only at those vertices (from 0: unreached until this level), so both go back compacted on the
    // device. Otherwise the whole arrays, diffed against what was uploaded.
    const sole = a.gpusOwnAll && a.group === undefined;
    const dist0 = await a.upload('dist', s, !sole) as Int32Array;
    const sigma0 = await a.upload('sigma', s, !sole) as Float64Array;
    await clearNext(a, s);
    await frontierOwned(a, s);
    const st = await a.run('bc_forward', {
      setId: SET_OUT,
      pages: a.pushPages(SET_OUT, s),
      params: { level: s.f.args.level! },
      state: { depth: 'dist', sigma: 'sigma', frontier: FR, next: NX },
    });
    const merges: StateMerge[] = [];
    if (st !== undefined && sole) {
      merges.push(await a.ownedChanges('dist', 'claim', s));
      merges.push({ ...(await a.ownedChanges('sigma', 'sum', s)), activate: false });
    } else if (st !== undefined) {
      const dist = await a.readAll('dist', 'i32') as Int32Array;
      const sigma = await a.readAll('sigma', 'f64') as Float64Array;
      const claimed: number[] = [];
      const added: number[] = [];
      for (let v = 0; v < dist.length; v++) {
        if (dist0[v] === -1 && dist[v] !== -1) claimed.push(v);
        if (sigma[v] !== sigma0[v]) added.push(v);
      }
      const level = s.f.args.level! + 1;
      merges.push({ state: 'dist', op: 'claim', activate: ACTIVATE, ids: Uint32Array.from(claimed), values: new Float64Array(claimed.length).fill(level) });
      merges.push({ state: 'sigma', op: 'sum', activate: false, ids: Uint32Array.from(added), values: Float64Array.from(added, (v) => sigma[v]! - sigma0[v]!) });
    }
    return a.out({ merges });
  },
};

export const bcBack: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    for (const name of ['dist', 'sigma', 'delta', 'bc']) await a.upload(name, s);
    const st = await a.run('bc_backward', {
      setId: SET_OUT,
      pages: a.rangePages(SET_OUT),
      params: { level: s.f.args.level! },
      state: { depth: 'dist', sigma: 'sigma', delta: 'delta', bc: 'bc' },
    });
    return a.out({ sync: [...(await a.syncOwned('delta', 'delta', s)), ...(await a.syncOwned('bc', 'bc', s))] });
  },
};
