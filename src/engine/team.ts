/**
 * A socket's threads as one team running a kernel's `team` function together (RunContext.team):
 * GAPBS's OpenMP parallel region, or a GPU running a traversal's levels in one call. Each thread
 * runs the same function from one gang message (actors/cpu/gang.ts); between phases they meet at
 * barriers in shared memory (tens of microseconds) instead of each phase being a superstep (a
 * message to every thread and a vote back: ~0.8 ms on 16 threads, bench/results/
 * h100-2026-11-27-cpu-dispatch). Every thread takes the same decisions from the same totals
 * (sync's sums), so none needs telling what the next phase is.
 *
 * The control block is Int32 words, then each rank's sums for the two sync parities:
 *   ARRIVED  threads at the barrier        GEN    barrier generation (waited on)
 *   ABORT    1 once a thread failed        RANK   ranks handed out
 *   CLAIM+p  forEach's chunk counter       COUNT+2c+p  add()'s counters
 * where p is the parity of the syncs passed: the last thread to arrive at a barrier zeroes the next
 * parity's counters (their last users finished before the barrier before this one), so claims and
 * counters need no barrier of their own.
 */
import type { Task } from '../wire/frames.js';

const ARRIVED = 0;
const GEN = 1;
const ABORT = 2;
const RANK = 3;
const CLAIM = 4;
const COUNT = 6;
/** add()'s counters. */
export const TEAM_COUNTERS = 4;
const WORDS = COUNT + 2 * TEAM_COUNTERS;
/** The most values one sync sums. */
export const TEAM_SUMS = 4;
/**
 * How long a thread at a barrier spins before it sleeps, ms. Longer spins were worse on the H100
 * host's 16 vCPUs (2 ms: nearly every barrier took 2 ms, a team thread sharing its CPU with a
 * spinning one or with the process's other busy threads until the spinner slept; bench/results/
 * h100-2026-11-28-cpu-teams), shorter ones leave a thread woken from a futex starting late.
 */
const SPIN_MS = 0.05;

/** A team's control block for `size` threads (zeroed: no barrier passed, no rank given). */
export function teamBuffer(size: number): SharedArrayBuffer {
  return new SharedArrayBuffer(8 * Math.ceil(WORDS / 2) + 8 * 2 * TEAM_SUMS * size);
}

/** Thrown at a barrier once another thread of the team failed: its error is the one reported. */
export class TeamAborted extends Error {
  constructor() {
    super('another thread of the team failed');
  }
}

/** What a kernel's `team` function gets besides its context (CpuKernel.team). */
export interface Team {
  /** This thread's rank in [0, size), and the team's size. */
  readonly rank: number;
  readonly size: number;
  /** The socket's pull tasks (RunContext.team's pullPages), vertex ranges balanced by edges. */
  readonly tasks: number;
  /** Task i (one object, rewritten by the next call). */
  task(i: number): Task;
  /**
   * A barrier: returns when every thread has called it. `sums` (up to TEAM_SUMS values) holds
   * this thread's values and comes back holding every thread's added, in rank order (the same
   * numbers on every thread, so each takes the same decision from them).
   */
  sync(sums?: Float64Array): void;
  /**
   * A loop over [0, n) shared by the team: each thread runs body(lo, hi) over chunks of `grain`
   * it claims until none is left (GAPBS's dynamic schedule). It returns when this thread finds
   * none left, not when the others are done: sync() after it before reading what they wrote. One
   * forEach between two syncs (its claims start again at each sync).
   */
  forEach(n: number, grain: number, body: (lo: number, hi: number) => void): void;
  /**
   * forEach over the pull tasks cut into pieces of at most `vertices` vertices (a task balances
   * edges; a pass whose cost goes with its vertices, as BFS's bottom-up step, needs pieces of
   * about equal vertex counts: GAPBS's dynamic schedule of 1024). body gets each piece as a task
   * (one object, rewritten: use it before the next call). The same rules as forEach.
   */
  forTasks(vertices: number, body: (task: Task) => void): void;
  /**
   * Adds k to counter c (< TEAM_COUNTERS) and returns its value before: where a thread's k entries
   * of a shared list go. Counters start each sync at 0.
   */
  add(c: number, k: number): number;
}

/** A thread's view of a team's control block; `rows` reads the tasks (TaskQueue's layout). */
export class TeamView implements Team {
  readonly rank: number;
  readonly size: number;
  private readonly ctl: Int32Array;
  private readonly counters: Uint32Array;
  private readonly vals: Float64Array;
  private epoch = 0;
  /** The epoch of the last forEach (one a sync). */
  private looped = -1;

  constructor(
    buffer: SharedArrayBuffer,
    size: number,
    readonly tasks: number,
    private readonly row: (i: number) => Task,
  ) {
    this.ctl = new Int32Array(buffer, 0, WORDS);
    this.counters = new Uint32Array(buffer, 0, WORDS);
    this.vals = new Float64Array(buffer, 8 * Math.ceil(WORDS / 2), 2 * TEAM_SUMS * size);
    this.size = size;
    this.rank = Atomics.add(this.ctl, RANK, 1);
    if (this.rank >= size) throw new Error(`team of ${size} threads joined by a thread more (a bug)`);
  }

  task(i: number): Task {
    return this.row(i);
  }

  sync(sums?: Float64Array): void {
    const p = this.epoch & 1;
    const at = (p * this.size + this.rank) * TEAM_SUMS;
    const k = sums === undefined ? 0 : Math.min(sums.length, TEAM_SUMS);
    for (let j = 0; j < k; j++) this.vals[at + j] = sums![j]!;
    const ctl = this.ctl;
    if (this.size > 1) {
      const gen = Atomics.load(ctl, GEN);
      if (Atomics.add(ctl, ARRIVED, 1) === this.size - 1) {
        Atomics.store(ctl, ARRIVED, 0);
        this.zero(p ^ 1);
        Atomics.add(ctl, GEN, 1);
        Atomics.notify(ctl, GEN);
      } else {
        const t0 = performance.now();
        for (let spin = 1; Atomics.load(ctl, GEN) === gen; spin++) {
          if ((spin & 1023) === 0 && performance.now() - t0 > SPIN_MS) {
            while (Atomics.load(ctl, GEN) === gen) Atomics.wait(ctl, GEN, gen);
            break;
          }
        }
      }
    } else this.zero(p ^ 1);
    if (Atomics.load(ctl, ABORT) !== 0) throw new TeamAborted();
    this.epoch++;
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let r = 0; r < this.size; r++) s += this.vals[(p * this.size + r) * TEAM_SUMS + j]!;
      sums![j] = s;
    }
  }

  forEach(n: number, grain: number, body: (lo: number, hi: number) => void): void {
    if (this.looped === this.epoch) throw new Error('a team ran two forEach loops without a sync between them: call t.sync() after each');
    this.looped = this.epoch;
    const g = Math.max(1, Math.floor(grain));
    const c = CLAIM + (this.epoch & 1);
    const ctl = this.ctl;
    for (;;) {
      const lo = Atomics.add(this.counters, c, 1) * g;
      if (lo >= n || Atomics.load(ctl, ABORT) !== 0) break;
      body(lo, Math.min(n, lo + g));
    }
  }

  /** Pieces before each task for forTasks (by piece size), computed once. */
  private pieces = new Map<number, Float64Array>();
  private readonly piece: Task = { page: 0, count: 0, lo: 0, hi: 0, edges: 0, edgeLo: undefined, edgeHi: undefined };

  forTasks(vertices: number, body: (task: Task) => void): void {
    const u = Math.max(1, Math.floor(vertices));
    let before = this.pieces.get(u);
    if (before === undefined) {
      before = new Float64Array(this.tasks + 1);
      for (let i = 0; i < this.tasks; i++) {
        const t = this.row(i);
        before[i + 1] = before[i]! + Math.max(1, Math.ceil((t.hi - t.lo) / u));
      }
      this.pieces.set(u, before);
    }
    const pre = before;
    const p = this.piece;
    this.forEach(pre[this.tasks]!, 1, (j) => {
      // The task holding piece j.
      let a = 0, b = this.tasks;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (pre[m + 1]! <= j) a = m + 1;
        else b = m;
      }
      const t = this.row(a);
      const k = j - pre[a]!;
      p.page = t.page;
      p.count = t.count;
      p.lo = t.lo + k * u;
      p.hi = Math.min(t.hi, p.lo + u);
      p.edges = t.edges;
      p.edgeLo = t.edgeLo;
      p.edgeHi = t.edgeHi;
      body(p);
    });
  }

  add(c: number, k: number): number {
    if (!(c >= 0 && c < TEAM_COUNTERS)) throw new Error(`team counter ${c} is not one of 0..${TEAM_COUNTERS - 1}`);
    return Atomics.add(this.counters, COUNT + 2 * c + (this.epoch & 1), k);
  }

  /** This thread failed: the others leave their barriers (and throw TeamAborted). */
  abort(): void {
    abortTeam(this.ctl.buffer as SharedArrayBuffer);
  }

  private zero(p: number): void {
    Atomics.store(this.ctl, CLAIM + p, 0);
    for (let c = 0; c < TEAM_COUNTERS; c++) Atomics.store(this.ctl, COUNT + 2 * c + p, 0);
  }
}

/** Ends a team's barriers: a thread failed or died (the socket actor's side). */
export function abortTeam(buffer: SharedArrayBuffer): void {
  const ctl = new Int32Array(buffer, 0, WORDS);
  Atomics.store(ctl, ABORT, 1);
  Atomics.add(ctl, GEN, 1);
  Atomics.notify(ctl, GEN);
}
