/** Folding GPU actors' merges, flagged claims and outboxes into the coordinator's state (Engine.applyRemote). */
import type { StateKind, StateMerge } from '../wire/frames.js';
import type { StateArray } from './kernel.js';
import { forEachFlag, type IdList } from './ids.js';

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

/** Folds (ids, values) into `arr` with the merge's reduce; returns the vertices it activated. */
export function fold(arr: StateArray, m: StateMerge, next: Uint8Array, found: IdList | undefined): number {
  const { ids, values } = m;
  let active = 0;
  for (let i = 0; i < ids.length; i++) {
    const v = ids[i]!;
    const x = values[i]!;
    let changed = false;
    if (m.op === 'sum') arr[v]! += x;
    else if (m.op === 'min') {
      if (x < arr[v]!) (arr[v] = x), (changed = true);
    } else if (m.op === 'max') {
      if (x > arr[v]!) (arr[v] = x), (changed = true);
    } else if (m.op === 'or') {
      const y = arr[v]! | x;
      if (y !== arr[v]) (arr[v] = y), (changed = true);
    } else if (arr[v] === -1) (arr[v] = x), (changed = true);
    if (changed && m.activate) active += activate(v, next, found);
  }
  return active;
}

export function kindOf(a: StateArray): StateKind {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  return 'u8';
}
