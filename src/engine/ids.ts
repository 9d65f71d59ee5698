/**
 * Vertex-id helpers shared by the coordinator and the programs' drivers (kept apart from
 * coordinator.ts so a program module loaded in a worker does not pull the coordinator in).
 */

/** Vertex ids appended into a growing typed array (a number[] of 10 M ids costs more). */
export class IdList {
  private buf: Uint32Array = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) {
      const b = new Uint32Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.length++] = v;
  }
  pushAll(ids: Uint32Array): void {
    if (this.length === 0 && ids.length > this.buf.length) {
      // Adopt it (the caller gives it up): no copy of a list of millions.
      this.buf = ids;
      this.length = ids.length;
      return;
    }
    if (this.length + ids.length > this.buf.length) {
      const b = new Uint32Array(Math.max(this.buf.length * 2, this.length + ids.length));
      b.set(this.buf.subarray(0, this.length));
      this.buf = b;
    }
    this.buf.set(ids, this.length);
    this.length += ids.length;
  }
  view(): Uint32Array {
    return this.buf.subarray(0, this.length);
  }
}

/**
 * Calls `visit(i)` for every set flag, in ascending order, skipping eight clear flags at a time
 * (so the folds' writes into the state and `next` are sequential).
 */
export function forEachFlag(flags: Uint8Array, visit: (i: number) => void, limit = Infinity): void {
  const n = flags.length;
  let k = 0;
  let i = 0;
  for (; i < n && k < limit && (flags.byteOffset + i) % 8 !== 0; i++) if (flags[i] !== 0) (visit(i), k++);
  // A word of eight clear flags is +0 as a double (flags are 0 or 1, so never -0).
  const words = i < n ? new Float64Array(flags.buffer, flags.byteOffset + i, (n - i) >> 3) : new Float64Array(0);
  for (let w = 0; w < words.length && k < limit; w++) {
    if (words[w] === 0) continue;
    for (let j = i + (w << 3), end = j + 8; j < end; j++) if (flags[j] !== 0) (visit(j), k++);
  }
  for (i += words.length << 3; i < n && k < limit; i++) if (flags[i] !== 0) (visit(i), k++);
}
