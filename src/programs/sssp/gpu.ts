/**
 * The GPU side of sssp: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, FR, NX, OUTDEG, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';
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

/** sssp_steps' pending flags on the device: the buckets' vertices. */
const PENDING = '@sssp.pending';

/**
 * The whole run on one GPU owning every vertex (index.ts, edgeMap gpuOnly): delta-stepping's
 * buckets as pending flags on the device, select and push until none is left, in one controller
 * call (kernel 'sssp_steps', native/src/controller_levels.cpp). dist is set on the device and comes
 * back once; the vote's sum is the push steps run.
 */
export const sssp_steps: GpuHandler = {
  modes: ['push'],
  async run(a, s) {
    if (!a.gpusOwnAll || a.group !== undefined) throw new Error('sssp_steps runs on one GPU owning every vertex (edgeMap gpuOnly)');
    const { source, window } = s.f.args as { source: number; window: number };
    await stepArrays(a);
    await a.ensureOutDegree();
    const st = await a.runLoop('sssp_steps', {
      setId: SET_OUT,
      pages: Uint32Array.from(a.rangePages(SET_OUT)),
      params: { source, window },
      state: { dist: 'dist', frontier: FR, next: NX, pending: PENDING, outDeg: OUTDEG },
    });
    // The device's flags are no frontier the engine knows of.
    a.nextStep = -1;
    keep(a, s, 'dist', 'owner');
    return a.out({ sum: st.levels ?? 0, sync: await a.syncOwned('dist', 'dist', s) });
  },
  // Preloaded: dist and the flags.
  prepare: (a) => stepArrays(a),
};

/** sssp_steps' device arrays. */
async function stepArrays(a: GpuActor): Promise<void> {
  for (const [name, kind] of [['dist', 'f64'], [FR, 'u8'], [NX, 'u8'], [PENDING, 'u8']] as const) await a.ensure(name, kind);
}
