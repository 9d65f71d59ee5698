/**
 * Device copies of a program's state arrays that GPU operators keep from one superstep to the next
 * (operators.ts): one rule for every program, from its declared state, reads and reduces.
 *
 * A GPU actor's copy of array `name` equals the host's after superstep k when the coordinator's
 * fold of what the actor sent reproduces the device's values: 'owner'/'none' arrays (the owned
 * ranges are copied back), arrays the operator only reads, and diffed arrays whose fold is exact
 * for their type (below). It stays equal at superstep k + 1 unless someone else wrote the host
 * array in between: the driver (the engine names only arrays it saw no driver write to:
 * SuperstepFrame.resident), or another actor during superstep k. An actor owning every vertex
 * has no other writer. Otherwise CPU workers write shared host memory directly: for 'owner'/'none'
 * arrays only their own ranges (the owned ranges stay valid), for the other reduces any vertex
 * (a push), so those are uploaded whole, as arrays that are only read. Where GPUs own every vertex
 * (GpuActor.gpusOwnAll), nothing but the folds writes the host arrays: a copy is then 'patch', equal
 * but where the next frame says the last fold wrote (SuperstepFrame.changed, patchOf).
 */
import type { Reduce } from '../../src/engine/define.js';
import type { StateKind } from '../../src/wire/frames.js';
import type { StateArray } from '../../src/engine/kernel.js';
import type { GpuActor } from './gpu-actor.js';
import type { GpuStep } from './handler.js';
import { complementRanges, mergeRanges, type VertexRanges } from '../../src/engine/partition.js';

/** The host view a device array mirrored after superstep `step`, everywhere or on the owned ranges. */
interface Mirror {
  buf: ArrayBufferLike;
  offset: number;
  length: number;
  kind: StateKind;
  step: number;
  /** 'patch': equal but where the coordinator's fold of that step wrote (SuperstepFrame.changed). */
  where: 'all' | 'owned' | 'patch';
  /** With 'owned': the ranges still stale once GPU peers copied theirs in (fromPeers); else a.others. */
  missing?: VertexRanges;
  /** The GPU peers copied their owned ranges in after their kernels (exchanged): the meeting copies none. */
  exchanged?: boolean;
}

/** What of a device array to upload: nothing, these ranges, all of it, or ranges and scattered entries. */
export type Stale = 'none' | 'all' | VertexRanges | Patch;

/** Ranges and single entries of a host array to copy to the device (the rest is current there). */
export interface Patch {
  ranges: VertexRanges;
  ids: Uint32Array | undefined;
}

const KEY = 'operators:mirrors';
const HELD = 'operators:held';

/**
 * Host buffers whose device copy is newer (held.ts: from the superstep that held them until a
 * settle reads them back): their slots are not given to other arrays meanwhile, as a GPU owning
 * every vertex keeps held arrays a superstep does not pass (Run.edgeStep).
 */
function heldBuffers(a: GpuActor): Set<ArrayBufferLike> {
  let h = a.scratch.get(HELD) as Set<ArrayBufferLike> | undefined;
  if (h === undefined) a.scratch.set(HELD, (h = new Set()));
  return h;
}

/** The actor's mirrors for the run in progress (GpuActor.scratch is cleared when a run starts). */
function mirrors(a: GpuActor): Map<string, Mirror> {
  let m = a.scratch.get(KEY) as Map<string, Mirror> | undefined;
  if (m === undefined) a.scratch.set(KEY, (m = new Map()));
  return m;
}

/**
 * Whether the mirror `m` is the host view `host` of `kind` as it stands at superstep `step`: left
 * by the previous superstep, or (an actor owning every vertex, the only writer but the host's
 * passes) by a later one than `touched` (SuperstepFrame.touched) names.
 */
function sameView(m: Mirror, host: StateArray, kind: StateKind, step: number, touched?: number): boolean {
  return isViewOf(m, host, kind) && (m.step + 1 === step || (m.where === 'all' && touched !== undefined && m.step >= touched && m.step < step));
}

/** Whether `m` mirrors the host view `host` of `kind` (after whichever superstep). */
function isViewOf(m: Mirror, host: StateArray, kind: StateKind): boolean {
  return m.buf === host.buffer && m.offset === host.byteOffset && m.length === host.length && m.kind === kind;
}

/**
 * What of the device copy of `name` (device array `slot`) must be uploaded this superstep:
 * nothing ('none'), the ranges other actors own (less those GPU peers copied in), or all of it.
 * Forgets the mirror: the superstep records it again once its results are sent (keep), so a step
 * that fails leaves nothing claimed.
 */
export function stale(a: GpuActor, s: GpuStep, name: string, kind: StateKind, slot = name): Stale {
  const all = mirrors(a);
  const m = all.get(slot);
  all.delete(slot);
  if (m === undefined || s.f.resident?.includes(name) !== true || !sameView(m, s.state[name]!, kind, s.f.step, s.f.touched?.[name])) return 'all';
  if (m.where === 'patch') return patchOf(a, s, name, kind, m.step);
  const miss = m.where === 'all' ? [] : (m.missing ?? a.others);
  return miss.length === 0 ? 'none' : miss;
}

/**
 * A 'patch' mirror: the GPUs own every vertex, so the host array changed since the previous edge
 * step only where that step's fold wrote it: ranges other actors flagged or synced, and the ids
 * of every list folded (its own included: a claim another list won, a min it lowered). Those go
 * up instead of the ranges other actors own (RMAT 25's depth: 128 MiB a push level on each of
 * two GPUs). All of it when the patch would not be smaller.
 */
function patchOf(a: GpuActor, s: GpuStep, name: string, kind: StateKind, step: number): Stale {
  if (s.changed === undefined || s.f.changed?.step !== step) return 'all';
  const c = s.changed.get(name);
  if (c === undefined) return 'none';
  const ranges = mergeRanges(c.spans.filter((p) => p.actor !== a.name).map((p): [number, number] => [p.begin, p.end]));
  const size = s.state[name]!.BYTES_PER_ELEMENT;
  let bytes = (c.ids?.length ?? 0) * (4 + size);
  for (const [b, e] of ranges) bytes += (e - b) * size;
  if (bytes >= a.graph.numVertices * size) return 'all';
  return ranges.length === 0 && c.ids === undefined ? 'none' : { ranges, ids: c.ids };
}

/**
 * The device array (slot) of each of a call's state arrays: one that mirrors the array's host
 * view from the previous superstep, whatever name it had then (a driver swapping two arrays
 * between supersteps, as PageRank's contributions, keeps both device copies), else its own name,
 * else a free one of the same kind among the call's names (no third copy for a swapped pair).
 */
export function slotsFor(a: GpuActor, s: GpuStep, state: ReadonlyArray<readonly [string, StateKind]>): Map<string, string> {
  const all = mirrors(a);
  const held = heldBuffers(a);
  const slots = new Map<string, string>();
  const taken = new Set<string>();
  for (const [n, kind] of state) {
    if (s.f.resident?.includes(n) !== true) continue;
    for (const [d, m] of all)
      if (!taken.has(d) && sameView(m, s.state[n]!, kind, s.f.step, s.f.touched?.[n])) {
        slots.set(n, d);
        taken.add(d);
        break;
      }
  }
  for (const [n, kind] of state) {
    if (slots.has(n)) continue;
    // A held array this superstep cannot take over: its host copy is stale.
    if (held.has(s.state[n]!.buffer)) throw new Error(`kernel '${s.f.kernel}': state '${n}' is held on the device but not kept for this superstep (a bug)`);
    const free = (x: string): boolean => {
      const m = all.get(x);
      return !taken.has(x) && (m === undefined || !held.has(m.buf));
    };
    let d = [n, ...state.filter(([x, k]) => x !== n && k === kind).map(([x]) => x)].find(free);
    for (let i = 1; d === undefined; i++) if (free(`alt${i}:${n}`)) d = `alt${i}:${n}`;
    slots.set(n, d);
    taken.add(d);
  }
  return slots;
}

/**
 * Uploads what of the device copy of `name` (device array `slot`) another writer may have
 * changed since this actor's last superstep (`up`: stale's verdict for that slot, taken here
 * unless given).
 */
export async function refresh(a: GpuActor, s: GpuStep, name: string, kind: StateKind = kindOf(s, name), slot = name, up = stale(a, s, name, kind, slot)): Promise<void> {
  if (up === 'none') return;
  const host = s.state[name]!;
  if (isPatch(up)) {
    await a.ensure(slot, kind);
    await a.uploadRanges(slot, host, up.ranges);
    if (up.ids !== undefined) await a.scatterHost(slot, host, up.ids);
  } else if (up === 'all' && slot === name) await a.upload(name, s);
  else (await a.ensure(slot, kind), await a.uploadRanges(slot, host, up === 'all' ? [[0, Math.min(host.length, a.graph.numVertices)]] : up));
}

/**
 * GTS §4.1 (Strategy-P's synchronisation): instead of every GPU reading what it computed back to
 * main memory and every other GPU uploading it again, the GPUs copy it from each other, device to
 * device (NVLink or PCIe peer-to-peer, much faster than the host link). Called by GpuGroup while
 * every member waits at its barrier (nobody runs a kernel), before superstep s: for each member's
 * device array that mirrors a resident host array on its owned ranges after the previous superstep,
 * each other member holding the same host view copies its owned ranges in. Resolves with the
 * bytes each member received.
 */
export async function fromPeers(members: ReadonlyArray<readonly [GpuActor, GpuStep]>): Promise<number[]> {
  const got = members.map(() => 0);
  const copies: Array<Promise<void>> = [];
  members.forEach(([a, s], i) => {
    for (const [slot, m] of mirrors(a)) {
      if (m.where !== 'owned' || m.exchanged === true || m.step + 1 !== s.f.step) continue;
      const ref = s.f.state.find((r) => s.f.resident?.includes(r.name) === true && sameView(m, s.state[r.name]!, r.kind, s.f.step));
      if (ref === undefined) continue;
      const done: VertexRanges = [...a.owned];
      for (const [b] of members) {
        if (b === a) continue;
        // A peer's copy is exact on its owned ranges ('all': it owns every vertex, the others none).
        const src = [...mirrors(b)].find(([, mb]) => (mb.where === 'owned' || mb.where === 'all') && sameView(mb, s.state[ref.name]!, ref.kind, s.f.step));
        if (src === undefined) continue;
        copies.push(a.controller.copyFromPeer(b.controller, src[0], slot, b.owned).then((n) => void (got[i]! += n)));
        done.push(...b.owned);
      }
      m.missing = complementRanges([done], a.graph.numVertices);
    }
  });
  await Promise.all(copies);
  return got;
}

/**
 * After a run whose exchange (GpuGroup.exchangeFor) wrote `slot` (recorded by keep as 'owned'):
 * the GPU peers' owned ranges are on the device too, so only ranges no GPU owns are stale and the
 * next meeting copies nothing for it.
 */
export function exchanged(a: GpuActor, slot: string): void {
  const m = mirrors(a).get(slot);
  if (m === undefined || m.where !== 'owned' || a.group === undefined) return;
  m.exchanged = true;
  m.missing = a.group.unowned();
}

/** The device array mirroring host view `host` of `kind` after some superstep of this run, if any. */
export function mirrorSlot(a: GpuActor, host: StateArray, kind: StateKind): string | undefined {
  for (const [slot, m] of mirrors(a)) if (isViewOf(m, host, kind)) return slot;
  return undefined;
}

export function isPatch(up: Stale): up is Patch {
  return typeof up === 'object' && !Array.isArray(up);
}

/** The kind of state array `name` in the superstep's frame. */
export function kindOf(s: GpuStep, name: string): StateKind {
  const r = s.f.state.find((x) => x.name === name);
  if (r === undefined) throw new Error(`kernel '${s.f.kernel}' needs state '${name}' in the frame`);
  return r.kind;
}

/**
 * Whether the coordinator's fold of the device's changes (against its `before` copy) leaves the
 * host array equal to the device's: min/max/or/claim take the device's value where it moved the
 * reduce's way (an operator moving a value the other way breaks every fold already); 'sum' adds
 * the difference back, exact for integers only (a float difference rounds); the host's claim
 * tests -1, which a u8/u32 array never holds, and its 'or' works on 32-bit integers.
 */
export function foldsExactly(r: Reduce, kind: StateKind): boolean {
  const int = kind === 'i32' || kind === 'u32' || kind === 'u8';
  if (r === 'sum' || r === 'or') return int;
  if (r === 'claim') return kind === 'i32' || kind === 'f32' || kind === 'f64';
  return true;
}

/**
 * Records, once the superstep's results are sent, where the device copy of `name` will equal the
 * host array after the fold (`reduce`: how the operator writes it; undefined: it only reads it).
 */
export function keep(a: GpuActor, s: GpuStep, name: string, reduce: Reduce | undefined, kind: StateKind = kindOf(s, name), slot = name): void {
  let where: Mirror['where'] | undefined;
  const exact = reduce === undefined || foldsExactly(reduce, kind);
  if (a.ownsAll) where = exact ? 'all' : undefined;
  // Held by several GPUs (held.ts): exact on the owned ranges (the others' updates merged there);
  // the peers' ranges come device to device before the next superstep (fromPeers).
  else if (s.held?.state.includes(name) === true) where = 'owned';
  else if (reduce === 'owner' || reduce === 'none') where = 'owned';
  // GPUs owning every vertex: no CPU worker writes host memory; every write comes through a fold.
  else if (a.gpusOwnAll && exact) where = 'patch';
  if (where === undefined) return;
  const host = s.state[name]!;
  mirrors(a).set(slot, { buf: host.buffer, offset: host.byteOffset, length: host.length, kind, step: s.f.step, where });
  if (s.held?.state.includes(name) === true) heldBuffers(a).add(host.buffer);
}

/** After a settle read `host` back: its host copy is current again. */
export function settled(a: GpuActor, host: StateArray): void {
  heldBuffers(a).delete(host.buffer);
}
