/**
 * The GPU side of wcc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, SET_IN, FR, NX, type GpuHandler } from '../../../actors/gpu/handler.js';
import type { RunStats } from '../../../actors/gpu/native.js';
import { keep, refresh } from '../../../actors/gpu/residency.js';
import { clearNext, frontierOwned, pushPagesOf } from '../../../actors/gpu/frontier.js';
import { holdNext, holds } from '../../../actors/gpu/held.js';

export const wcc: GpuHandler = {
  modes: ['push', 'pull'],
  async run(a, s) {
    // label is resident (index.ts): up once per run where nothing else writes it (residency.ts).
    await refresh(a, s, 'label');
    await clearNext(a, s);
    const sets = a.directed ? [SET_OUT, SET_IN] : [SET_OUT];
    const stats: RunStats[] = [];
    if (s.f.mode === 'push') {
      // Min labels go over out- and in-edges: one call per orientation, each with an outbox.
      await frontierOwned(a, s);
      for (const set of sets) {
        const st = await a.run('wcc_push', { setId: set, pages: await pushPagesOf(a, set, s), params: a.ownedParams(), state: { label: 'label', frontier: FR, next: NX, ...a.ownedState() } });
        if (st) stats.push(st);
      }
    } else {
      // Native pull takes the min over every neighbour (the CPU kernel over active ones):
      // more work per superstep, the same fixed point.
      for (const set of sets.reverse()) {
        const st = await a.run('wcc_pull', { setId: set, pages: a.rangePages(set), state: { label: 'label', next: NX } });
        if (st) stats.push(st);
      }
    }
    const outbox = a.joinOutboxes(stats, 'label', 'min');
    const activated = stats.reduce((x, st) => x + st.activated, 0);
    // The coordinator's min fold of the changes reproduces the device's labels. A pull writes only
    // the owned vertices (one writer each), as an 'owner' array: its owned ranges stay valid beside
    // other actors, and GPU peers copy theirs in (residency.ts).
    // Held (index.ts: resident 'device', deviceNext): labels and flags stay on the device, lower
    // labels of other GPUs' vertices go to them (holdNext).
    const hold = holds(a, s, 'label', true);
    keep(a, s, 'label', s.f.mode === 'push' ? 'min' : 'owner');
    const held = hold ? await holdNext(a, s, activated, outbox) : undefined;
    if (held !== undefined) return a.out({ active: held });
    return a.out({ ...(await a.changedOwned('label', 'min', s, activated)), outbox });
  },
};
