/**
 * State and frontiers that GPUs owning every vertex (one, or a group: GpuGroup) keep on their
 * devices between supersteps instead of copying them back after each (SuperstepFrame.held /
 * holdNext): a traversal then moves counts over the link, not arrays (BFS on RMAT 24 read back
 * 64 MiB of depth and 16 MiB of flags per pull level, and the coordinator listed the flags again
 * on its thread). The engine asks for the host copies when something on the host needs them
 * (settle, below).
 */
import type { StateArray } from '../../src/engine/kernel.js';
import type { StateMerge, SuperstepFrame, VoteFrame } from '../../src/wire/frames.js';
import type { GpuActor } from './gpu-actor.js';
import { FR, NX, OUTDEG, type GpuStep } from './handler.js';
import { kindOf, mirrorSlot, settled } from './residency.js';
import { zeroStats } from './stats.js';
import { rangeVertices, type VertexRanges } from '../../src/engine/partition.js';

const TYPED = { f64: Float64Array, f32: Float32Array, i32: Int32Array, u32: Uint32Array, u8: Uint8Array } as const;

/**
 * Whether the handler may leave state `name` on the device this superstep (recorded for the vote).
 * Several GPUs owning every vertex hold it only with the next flags, and only where the handler
 * hands its updates of other GPUs' vertices to holdNext (`swaps`: bfs, wcc), which brings them to
 * their owners instead of the coordinator's fold, or where every member's copy is exact everywhere
 * (`whole`: bfs's levels, which exchange the next flags each level).
 */
export function holds(a: GpuActor, s: GpuStep, name: string, swaps = false, whole = false): boolean {
  // whole: every member's copy is exact everywhere (bfs's levels across GPUs): nothing to swap.
  if (s.f.held?.includes(name) !== true || !(a.ownsAll || (whole && a.gpusOwnAll) || (swaps && a.gpusOwnAll && s.f.holdNext === true))) return false;
  s.held ??= { state: [], next: false };
  if (!s.held.state.includes(name)) s.held.state.push(name);
  // By host buffer: settle names the arrays it brings back its own way.
  const w = wholeHeld(a), buf = s.state[name]!.buffer;
  if (whole && !a.ownsAll) w.add(buf);
  else w.delete(buf);
  return true;
}

/** Held arrays (host buffers) whose copy is exact on every GPU of the group (holds' `whole`): settle reads an even share from each. */
function wholeHeld(a: GpuActor): Set<ArrayBufferLike> {
  let w = a.scratch.get(WHOLE) as Set<ArrayBufferLike> | undefined;
  if (w === undefined) a.scratch.set(WHOLE, (w = new Set()));
  return w;
}
const WHOLE = 'held:whole';

/** A GPU's updates of vertices any GPU may own (its outbox), or those others sent it. */
export type Updates = StateMerge;

/**
 * With holdNext, the device's next flags stay there: returns their count (the kernels'
 * activations since clearNext, and with several GPUs those the others' `updates` of this one's
 * vertices made: GpuGroup.swap, then mergeState) and puts their out-edges in the vote (Ligra's
 * switch needs them); undefined when the flags must be copied back.
 */
export async function holdNext(a: GpuActor, s: GpuStep, activated: number, updates?: Updates): Promise<number | undefined> {
  if (!a.gpusOwnAll || s.f.holdNext !== true) return undefined;
  if (!a.ownsAll && s.held === undefined) return undefined; // several GPUs: only with the state (holds)
  s.held ??= { state: [], next: false };
  s.held.next = true;
  // Members that share the vertices swap updates (every one of them arrives: the same frame and ownership).
  if (!a.ownsAll && a.group?.sharing === true) {
    const t0 = performance.now();
    const got = await a.group.swap(a, s, updates !== undefined && updates.ids.length > 0 ? updates : undefined);
    a.stats.peerMs = (a.stats.peerMs ?? 0) + (performance.now() - t0);
    if (got !== undefined) {
      const kind = kindOf(s, got.state);
      activated += await a.controller.mergeState(got.state, got.ids, TYPED[kind].from(got.values) as StateArray, got.op as 'claim' | 'min' | 'max', NX);
    }
  }
  // One sum over the span of the owned ranges: nothing sets a flag between them (the kernels and
  // mergeState mark owned vertices only), and a call per range cost 32 calls a superstep under 's'.
  a.nextEdges = activated > 0 ? await a.controller.flaggedDegrees(NX, OUTDEG, a.begin, a.end) : 0;
  a.heldDegrees = a.ownsAll ? { step: s.f.step, sum: a.nextEdges } : undefined;
  return activated;
}

/**
 * Each member's share of the others' updates: the entries whose id it owns (the members' sorted
 * ranges, searched), in two passes over typed arrays (RMAT 25's hub level sends ~0.28 M).
 */
export function swapUpdates(order: Array<[GpuActor, Updates | undefined]>): Array<Updates | undefined> {
  // Two members owning vertices: an update one sent (never of its own vertices) is the other's.
  const owning = order.flatMap(([a], i) => (a.owned.length > 0 ? [i] : []));
  if (owning.length === 2) return order.map((_, i) => (i === owning[0] ? order[owning[1]!]![1] : i === owning[1] ? order[owning[0]!]![1] : undefined));
  const spans: Array<[number, number, number]> = [];
  order.forEach(([a], i) => a.owned.forEach(([b, e]) => spans.push([b, e, i])));
  spans.sort((x, y) => x[0] - y[0]);
  const starts = Uint32Array.from(spans, (x) => x[0]);
  const owners = Uint32Array.from(spans, (x) => x[2]);
  const boxes = order.map(([, u]) => u).filter((u): u is Updates => u !== undefined);
  if (boxes.length === 0) return order.map(() => undefined);
  const total = boxes.reduce((x, u) => x + u.ids.length, 0);
  const to = new Uint32Array(total);
  const counts = new Uint32Array(order.length);
  let k = 0;
  for (const u of boxes)
    for (let j = 0; j < u.ids.length; j++, k++) {
      const v = u.ids[j]!;
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid]! <= v) lo = mid;
        else hi = mid - 1;
      }
      counts[(to[k] = owners[lo]!)]!++;
    }
  const ids = order.map((_, i) => new Uint32Array(counts[i]!));
  const values = order.map((_, i) => new Float64Array(counts[i]!));
  const at = new Uint32Array(order.length);
  k = 0;
  for (const u of boxes)
    for (let j = 0; j < u.ids.length; j++, k++) {
      const o = to[k]!, x = at[o]!++;
      ids[o]![x] = u.ids[j]!;
      values[o]![x] = u.values[j]!;
    }
  return order.map((_, i) => (counts[i] === 0 ? undefined : { ...boxes[0]!, ids: ids[i]!, values: values[i]! }));
}

/**
 * Before a superstep whose frontier is the next flags the GPUs held (several GPUs, each holding
 * its own vertices' flags): each member's frontier becomes its own flags and, for a pull (which
 * reads every in-neighbour's), the other members' too, copied device to device while every member
 * waits at the barrier (GpuGroup.meet). Resolves with the bytes each received from peers.
 */
export async function heldFromPeers(order: Array<[GpuActor, GpuStep]>): Promise<number[]> {
  const got = order.map(() => 0);
  await Promise.all(
    order.map(async ([a, s], i) => {
      if (a.ownsAll || s.f.frontierHeld !== true || a.nextStep !== s.f.step - 1) return;
      await a.ensure(FR, 'u8');
      await a.controller.fillState(FR, 0);
      // Its own flags: the span of its ranges (no flag is set between them, as in holdNext).
      await a.controller.copyState(FR, NX, a.begin, a.end);
      if (s.f.mode === 'pull')
        for (const [p] of order) if (p !== a) got[i]! += await a.controller.copyFromPeer(p.controller, NX, FR, p.owned);
      s.frontierOnDevice = true;
    }),
  );
  return got;
}

/**
 * A settle frame: the device's values of the frame's arrays (the device arrays that mirror them)
 * into the host arrays, and with `next` the next flags the last superstep left into the frame's
 * next bitmap. An array the device holds no copy of is left as it is (its host copy is current).
 */
export async function settle(a: GpuActor, f: SuperstepFrame, s: GpuStep): Promise<VoteFrame> {
  const t0 = performance.now();
  const n = a.graph.numVertices;
  let bytes = 0;
  // Each GPU its own vertices (one owning every vertex: all of them); an array exact on every GPU,
  // an even share each (P leaves one GPU nearly every vertex of an RMAT graph: its read-back alone).
  const ranges: VertexRanges = a.ownsAll ? [[0, n]] : a.owned;
  const whole = wholeHeld(a);
  for (const r of f.state) {
    const host = s.state[r.name]!;
    const slot = mirrorSlot(a, host, r.kind);
    if (slot === undefined) continue;
    const mine = whole.has(host.buffer) && a.group !== undefined ? a.group.evenShare(a, n) : ranges;
    await a.pin(host);
    for (const [b, e] of mine) await a.controller.readState(slot, host.subarray(b, Math.min(e, host.length)) as StateArray, b);
    settled(a, host);
    bytes += rangeVertices(mine) * host.BYTES_PER_ELEMENT;
  }
  if (f.settle?.next === true) {
    if (a.nextStep !== f.step) throw new Error(`settle: the device's next flags are of superstep ${a.nextStep}, not ${f.step}`);
    await a.pin(s.next);
    for (const [b, e] of ranges) await a.controller.readState(NX, s.next.subarray(b, e), b);
    bytes += rangeVertices(ranges);
  }
  return { type: 'vote', actor: a.name, step: f.step, active: 0, sum: 0, edges: 0, tasks: 0, stolen: 0, computeMs: performance.now() - t0, gpu: { ...zeroStats(a.emulated), stateBytesOut: bytes } };
}
