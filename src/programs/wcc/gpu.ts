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

/** The graph's original ids on the device: a graph constant, up once per actor ('@': kept across programs). */
const ORIG = '@orig';

/**
 * Afforest on the GPU owning every vertex (index.ts, edgeMap gpuOnly): the three wcc_afforest
 * calls of native/src/controller_aff.cpp. The forest is device scratch; the labels stay on the
 * device (held) until the run ends, or go back at once where the engine does not hold them.
 */
export const afforest: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    if (!a.ownsAll) throw new Error("wcc's afforest runs on one GPU owning every vertex (edgeMap gpuOnly)");
    const orig = s.state.orig as Uint32Array | undefined;
    if (orig === undefined) throw new Error("wcc's afforest needs the original ids as state 'orig'");
    await a.ensure('comp', 'u32');
    await a.ensure('label', 'u32');
    await a.ensureDegrees(ORIG, orig);
    const rounds = s.f.args.rounds!;
    const comp = { comp: 'comp' };
    // Phase 0 also resets the forest: a graph without pages still needs that.
    if (a.rangePages(SET_OUT).length === 0) await a.runPageless('wcc_afforest', { params: { phase: 0, rounds }, state: comp });
    else await a.run('wcc_afforest', { setId: SET_OUT, pages: a.rangePages(SET_OUT), params: { phase: 0, rounds }, state: comp });
    const st = await a.run('wcc_afforest', { setId: SET_OUT, pages: a.rangePages(SET_OUT), params: { phase: 1, from: rounds }, state: comp });
    // Directed: an edge into a vertex outside the biggest component is linked from that end.
    if (a.directed && st !== undefined) await a.run('wcc_afforest', { setId: SET_IN, pages: a.rangePages(SET_IN), params: { phase: 1, from: 0, skip: st.sum! }, state: comp });
    await a.runPageless('wcc_afforest', { params: { phase: 2 }, state: { ...comp, label: 'label', orig: ORIG } });
    const hold = holds(a, s, 'label');
    keep(a, s, 'label', 'owner');
    if (hold) return a.out({ active: 0 });
    return a.out({ active: 0, sync: await a.syncOwned('label', 'label', s) });
  },
};
