/**
 * The GPU side of bc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, SET_IN, FR, NX, ACTIVATE, type GpuHandler, type GpuStep, type StepOut } from '../../../actors/gpu/handler.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';
import { rangeVertices } from '../../engine/partition.js';
import type { StateMerge } from '../../wire/frames.js';
import { clearNext, frontierAll, frontierOwned } from '../../../actors/gpu/frontier.js';

export const bcFwd: GpuHandler = {
  // bc_forward has no outbox (depth and sigma change together): it writes the device replica
  // anywhere and the actor sends the difference against what it uploaded. bc_forward_pull writes
  // only the owned vertices (one writer each).
  modes: ['push', 'pull'],
  async run(a, s) {
    if (s.f.mode === 'pull') return pull(a, s);
    // One GPU owning every vertex: a level's claims are the device's next flags, and sigma changed
    // only at those vertices (from 0: unreached until this level): settle. Otherwise the whole
    // arrays, diffed against what was uploaded.
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
    if (st !== undefined && sole) return settle(a, s, st.activated ?? 0);
    const merges: StateMerge[] = [];
    if (st !== undefined) {
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

/**
 * A forward level pulled (the engine's choice for a large frontier): the owned vertices at depth
 * -1 sum sigma over their in-neighbours in the frontier; this GPU is their one writer (settle).
 */
async function pull(a: GpuActor, s: GpuStep): Promise<StepOut> {
  await a.upload('dist', s);
  await a.upload('sigma', s);
  await clearNext(a, s);
  await frontierAll(a, s);
  const st = await a.run('bc_forward_pull', {
    setId: SET_IN,
    pages: await a.pullPages(SET_IN, s),
    params: { level: s.f.args.level! },
    state: { depth: 'dist', sigma: 'sigma', frontier: FR, next: NX },
  });
  return settle(a, s, st?.activated ?? 0);
}

/**
 * A forward level's results where this GPU is its vertices' one writer (a pull, or one GPU owning
 * every vertex): a few claims and their path counts (from 0) compacted on the device, as merges;
 * many (a large level: ~10 M on RMAT 24, whose merges took the coordinator ~0.5 s to fold) copied
 * back in place over the owned ranges with the next flags.
 */
async function settle(a: GpuActor, s: GpuStep, activated: number): Promise<StepOut> {
  if (activated === 0) return a.out({});
  if (activated * 256 < rangeVertices(a.owned)) return a.out({ merges: [await a.ownedChanges('dist', 'claim', s), { ...(await a.ownedChanges('sigma', 'sum', s)), activate: false }] });
  return a.out({ sync: [...(await a.syncOwned('dist', 'dist', s)), ...(await a.syncOwned('sigma', 'sigma', s))], active: await a.syncNext(s, activated) });
}

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
