/** A GPU kernel's outbox (messages to other actors' vertices, aggregated on the device) as the vote's merges. */
import type { MergeOp, StateMerge } from '../../src/wire/frames.js';
import type { RunStats } from './native.js';
import { ACTIVATE } from './handler.js';

/** A native call's outbox as a merge of `name` by `op`. */
export function outbox(st: RunStats | undefined, name: string, op: MergeOp, activate: boolean): StateMerge | undefined {
  return st?.outbox === undefined ? undefined : { state: name, op, activate, ids: st.outbox.ids, values: st.outbox.values };
}

/** One outbox from several calls (entries may repeat a destination; the fold is idempotent for min and claim). */
export function joinOutboxes(stats: RunStats[], name: string, op: MergeOp): StateMerge | undefined {
  return joinMerges(stats.map((s) => outbox(s, name, op, ACTIVATE)).filter((o) => o !== undefined));
}

/** Several merges of one array as one. */
export function joinMerges(boxes: StateMerge[]): StateMerge | undefined {
  if (boxes.length <= 1) return boxes[0];
  const len = boxes.reduce((a, b) => a + b.ids.length, 0);
  const ids = new Uint32Array(len);
  const values = new Float64Array(len);
  let at = 0;
  for (const b of boxes) (ids.set(b.ids, at), values.set(b.values, at), (at += b.ids.length));
  return { ...boxes[0]!, ids, values };
}
