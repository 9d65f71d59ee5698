/** Folding GPU actors' merges, flagged claims and outboxes into the coordinator's state (Engine.applyRemote). */
import type { StateKind, StateMerge, VoteFrame } from '../wire/frames.js';
import { STATE_CTORS, type StateArray } from './kernel.js';
import { forEachFlag, type IdList } from './ids.js';
import { nativeFoldFlags } from '../../actors/gpu/native-host.js';
import { intersectRanges, type VertexRanges } from './partition.js';

/** A vote as the coordinator keeps it: with the shared buffers that came beside it (FlagMerge buffers). */
export type Vote = VoteFrame & { shared?: SharedArrayBuffer[] };

/** Where a fold wrote one state array (wire FoldChanges, before its ids go into the side table). */
export interface ChangedState {
  name: string;
  /** The coordinator's array (the next superstep may pass it under another name). */
  array: StateArray;
  ids: Uint32Array | undefined;
  spans: Array<{ actor: string; begin: number; end: number }>;
}

/**
 * The communication phase for actors in other memories: dense owned ranges are copied in, then
 * flags, merges and outboxes are folded into the state with their reduce; a vertex whose value the
 * fold changed joins the next frontier (and `found`, when a list is built). Returns the vertices
 * so activated; with `ownedOf` (each actor's owned ranges), also where it wrote each array.
 */
export function applyVotes(votes: Vote[], state: Record<string, StateArray>, next: Uint8Array, found: IdList | undefined, ownedOf?: (actor: string) => VertexRanges): { active: number; changes?: ChangedState[] } {
  let active = 0;
  const record = ownedOf === undefined ? undefined : new Map<string, { lists: Uint32Array[]; spans: ChangedState['spans'] }>();
  const at = (name: string) => {
    let r = record!.get(name);
    if (r === undefined) record!.set(name, (r = { lists: [], spans: [] }));
    return r;
  };
  for (const v of votes) {
    for (const s of v.sync ?? []) {
      if (s.written === undefined) stateNamed(state, s.state, v.actor).set(s.values!, s.begin);
      record && at(s.state).spans.push({ actor: v.actor, begin: s.begin, end: s.begin + (s.written ?? s.values!.length) });
    }
    for (const f of v.flagged ?? []) {
      const arr = stateNamed(state, f.state, v.actor);
      // One entry over the span of the actor's ranges: only its ranges hold flags.
      if (record) for (const [b, e] of intersectRanges(ownedOf!(v.actor), f.begin, f.end)) at(f.state).spans.push({ actor: v.actor, begin: b, end: e });
      const flags = f.flags ?? new Uint8Array(v.shared![f.flagsBuffer!]!, f.begin, f.end - f.begin);
      const values = f.op === 'claim' ? undefined : (f.values ?? (new STATE_CTORS[kindOf(arr)](v.shared![f.valuesBuffer!]!) as StateArray).subarray(f.begin, f.end));
      const native = flags.length >= NATIVE_FOLD_MIN && !(arr instanceof Uint8Array) ? nativeFoldFlags() : undefined;
      if (native !== undefined) {
        type Wide = Exclude<StateArray, Uint8Array>;
        const r = native(f.op, arr as Wide, next, flags, f.begin, (values as Wide | undefined) ?? f.value!, found !== undefined);
        active += r.active;
        if (r.found !== undefined) found!.pushAll(r.found);
      } else if (f.op === 'claim') active += foldClaimFlags(arr, f.value!, f.begin, flags, next, found);
      else active += foldMinFlags(arr, values as StateArray, f.begin, flags, next, found);
    }
    for (const m of [...(v.merges ?? []), ...(v.outbox !== undefined ? [v.outbox] : [])]) {
      active += fold(stateNamed(state, m.state, v.actor), m, next, found);
      if (record && m.ids.length > 0) at(m.state).lists.push(m.ids);
    }
    if (v.activate !== undefined) active += activateAll(v.activate, next, found);
  }
  if (record === undefined) return { active };
  const changes = [...record].map(([name, r]): ChangedState => {
    const count = r.lists.reduce((a, l) => a + l.length, 0);
    let ids: Uint32Array | undefined;
    if (count > 0) {
      ids = new Uint32Array(new SharedArrayBuffer(4 * count));
      let k = 0;
      for (const l of r.lists) (ids.set(l, k), (k += l.length));
    }
    return { name, array: state[name]!, ids, spans: r.spans };
  });
  return { active, changes };
}

function stateNamed(state: Record<string, StateArray>, name: string, actor: string): StateArray {
  const a = state[name];
  if (a === undefined) throw new Error(`actor ${actor} sent values for state '${name}', which this superstep does not have`);
  return a;
}

/**
 * Flags from which a fold runs on the addon's threads (foldFlags) rather than in TypeScript: below
 * it the call and its threads cost more than the loop.
 */
export const NATIVE_FOLD_MIN = 1 << 16;

/**
 * Folds flag claims into `arr` (entries still -1 take `value`; the vertex joins the next frontier
 * unless it already has). Returns the vertices it activated.
 */
export function foldClaimFlags(arr: StateArray, value: number, begin: number, flags: Uint8Array, next: Uint8Array, found: IdList | undefined): number {
  let active = 0;
  forEachFlag(flags, (i) => {
    const v = begin + i;
    if (arr[v] !== -1) return;
    arr[v] = value;
    active += activate(v, next, found);
  });
  return active;
}

/** Marks the vertices of `ids` active (those not yet); returns how many this call marked. */
export function activateAll(ids: Uint32Array, next: Uint8Array, found: IdList | undefined): number {
  let active = 0;
  for (let i = 0; i < ids.length; i++) active += activate(ids[i]!, next, found);
  return active;
}

/** Marks v active for the next superstep unless it already is; 1 when this call marked it. */
function activate(v: number, next: Uint8Array, found: IdList | undefined): number {
  if (next[v] !== 0) return 0;
  next[v] = 1;
  found?.push(v);
  return 1;
}

/** Folds flagged values (`values[i]` for vertex begin + i) into `arr` with min, activating what drops. */
export function foldMinFlags(arr: StateArray, values: StateArray, begin: number, flags: Uint8Array, next: Uint8Array, found: IdList | undefined): number {
  let active = 0;
  forEachFlag(flags, (i) => {
    const v = begin + i;
    const x = values[i]!;
    if (!(x < arr[v]!)) return;
    arr[v] = x;
    active += activate(v, next, found);
  });
  return active;
}

/**
 * Folds (ids, values) into `arr` with the merge's reduce; returns the vertices it activated. One
 * loop per reduce: an outbox of RMAT 25's hub level holds ~370 k claims.
 */
export function fold(arr: StateArray, m: StateMerge, next: Uint8Array, found: IdList | undefined): number {
  const { ids, values } = m;
  const n = ids.length;
  let active = 0;
  const on = m.activate;
  switch (m.op) {
    case 'sum':
      for (let i = 0; i < n; i++) arr[ids[i]!]! += values[i]!;
      return 0;
    case 'min':
      for (let i = 0; i < n; i++) {
        const v = ids[i]!;
        if (values[i]! < arr[v]!) {
          arr[v] = values[i]!;
          if (on) active += activate(v, next, found);
        }
      }
      return active;
    case 'max':
      for (let i = 0; i < n; i++) {
        const v = ids[i]!;
        if (values[i]! > arr[v]!) {
          arr[v] = values[i]!;
          if (on) active += activate(v, next, found);
        }
      }
      return active;
    case 'or':
      for (let i = 0; i < n; i++) {
        const v = ids[i]!;
        const y = arr[v]! | values[i]!;
        if (y !== arr[v]) {
          arr[v] = y;
          if (on) active += activate(v, next, found);
        }
      }
      return active;
    default:
      for (let i = 0; i < n; i++) {
        const v = ids[i]!;
        if (arr[v] !== -1) continue;
        arr[v] = values[i]!;
        if (on) active += activate(v, next, found);
      }
      return active;
  }
}

export function kindOf(a: StateArray): StateKind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  return 'u8';
}
