/**
 * A superstep's tasks in shared memory, taken by the socket actor's worker threads one at a time
 * with a compare-and-swap: one message per thread per superstep instead of one per task or batch
 * (piscina's dispatch cost the actor's thread ~25 us a message, which at 16 threads kept the
 * workers waiting). A thief's share is cut from the tail by the same compare-and-swap, so a task is
 * run by exactly one thread or released, never both (GAPBS and Ligra get the same effect from an
 * OpenMP dynamic schedule; Garaph's victims give up pages not started).
 *
 * Layout: BigInt64 words [claim, kernelEdges, taskEdges, tasks] then Float64 rows of ROW fields.
 * `claim` packs end (high 32 bits) and next (low 32 bits), so taking the next task and lowering the
 * end are one atomic word each.
 */
import type { Task } from '../../src/wire/frames.js';

const HEADER = 4;
const ROW = 7;
const LOW = 0xffffffffn;

export class TaskQueue {
  readonly buffer: SharedArrayBuffer;
  private readonly ctrl: BigInt64Array;
  private readonly rows: Float64Array;

  constructor(readonly tasks: readonly Task[]) {
    this.buffer = new SharedArrayBuffer(8 * (HEADER + ROW * Math.max(1, tasks.length)));
    this.ctrl = new BigInt64Array(this.buffer, 0, HEADER);
    this.rows = new Float64Array(this.buffer, 8 * HEADER);
    tasks.forEach((t, i) => {
      const r = i * ROW;
      this.rows[r] = t.page;
      this.rows[r + 1] = t.count;
      this.rows[r + 2] = t.lo;
      this.rows[r + 3] = t.hi;
      this.rows[r + 4] = t.edges;
      this.rows[r + 5] = t.edgeLo ?? -1;
      this.rows[r + 6] = t.edgeHi ?? -1;
    });
    this.ctrl[0] = BigInt(tasks.length) << 32n;
    this.ctrl[3] = BigInt(tasks.length);
  }

  /** Tasks not yet taken: [next, end). */
  private get span(): [number, number] {
    const w = Atomics.load(this.ctrl, 0);
    return [Number(w & LOW), Number(w >> 32n)];
  }

  get queued(): number {
    const [next, end] = this.span;
    return Math.max(0, end - next);
  }

  /** Edges of the tasks not yet taken. */
  get queuedEdges(): number {
    const [next, end] = this.span;
    let edges = 0;
    for (let i = next; i < end; i++) edges += this.tasks[i]!.edges;
    return edges;
  }

  /** Edges the kernels walked so far, and task edges finished (the victim's rate). */
  get kernelEdges(): number {
    return Number(Atomics.load(this.ctrl, 1));
  }
  get doneEdges(): number {
    return Number(Atomics.load(this.ctrl, 2));
  }

  /**
   * Takes tasks off the tail: `choose` gets the tasks not started and returns how many of the
   * last to give up. Returns them (none when a thread took them meanwhile and `choose` then says 0).
   */
  release(choose: (queued: readonly Task[]) => number): Task[] {
    for (;;) {
      const w = Atomics.load(this.ctrl, 0);
      const next = Number(w & LOW);
      const end = Number(w >> 32n);
      if (next >= end) return [];
      const k = Math.min(end - next, choose(this.tasks.slice(next, end)));
      if (k <= 0) return [];
      const cut = end - k;
      if (Atomics.compareExchange(this.ctrl, 0, w, (BigInt(cut) << 32n) | BigInt(next)) === w) return this.tasks.slice(cut, end);
    }
  }
}

/** A worker's view of a TaskQueue buffer. */
export class TaskTaker {
  private readonly ctrl: BigInt64Array;
  private readonly rows: Float64Array;
  /** The task taken last (one object, rewritten: a worker allocates nothing per task). */
  readonly task: Task = { page: 0, count: 0, lo: 0, hi: 0, edges: 0, edgeLo: undefined, edgeHi: undefined };

  constructor(buffer: SharedArrayBuffer) {
    this.ctrl = new BigInt64Array(buffer, 0, HEADER);
    this.rows = new Float64Array(buffer, 8 * HEADER);
  }

  /** Takes the next task into `task`; false when none is left. */
  take(): boolean {
    for (;;) {
      const w = Atomics.load(this.ctrl, 0);
      const next = Number(w & LOW);
      if (next >= Number(w >> 32n)) return false;
      if (Atomics.compareExchange(this.ctrl, 0, w, w + 1n) !== w) continue;
      this.read(next);
      return true;
    }
  }

  /** Tasks the queue was made with (a team reads them by index: RunContext.team). */
  get count(): number {
    return Number(this.ctrl[3]);
  }

  /** Task i into `task`, taken or not (a team's). */
  read(i: number): Task {
    const r = i * ROW, t = this.task, rows = this.rows;
    t.page = rows[r]!;
    t.count = rows[r + 1]!;
    t.lo = rows[r + 2]!;
    t.hi = rows[r + 3]!;
    t.edges = rows[r + 4]!;
    const a = rows[r + 5]!, b = rows[r + 6]!;
    t.edgeLo = a < 0 ? undefined : a;
    t.edgeHi = b < 0 ? undefined : b;
    return t;
  }

  /** After a task: what it walked and its queued edges (read by release() for the victim's rate). */
  done(kernelEdges: number, taskEdges: number): void {
    if (kernelEdges > 0) Atomics.add(this.ctrl, 1, BigInt(kernelEdges));
    if (taskEdges > 0) Atomics.add(this.ctrl, 2, BigInt(taskEdges));
  }
}
