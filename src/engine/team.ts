/**
 * A socket's threads as one team running a kernel's `team` function together (RunContext.team):
 * GAPBS's OpenMP parallel region, or a GPU running a traversal's levels in one call. Each thread
 * runs the same function from one gang message (actors/cpu/gang.ts); between phases they meet in
 * shared memory instead of each phase being a superstep (a message to every thread and a vote
 * back: ~0.8 ms on 16 threads, bench/results/h100-2026-11-27-cpu-dispatch). Every thread takes the
 * same decisions from the same totals, so none needs telling what the next phase is. Two ways to
 * meet: sync (a barrier: every thread) and loop (the loop's chunks all done: a thread that starts
 * late holds no one up; bench/results/h100-2026-11-28-cpu-teams).
 *
 * The control block is Int32 words, then the loop slots (loop's comment), then each slot's integer
 * sums, then each rank's sums for the two sync parities:
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
/** Loops (Team.loop) in flight at once: a thread may be this many loops behind the first. */
const SLOTS = 8;
/** A loop slot's Int32 words: the loop it serves, chunks claimed, chunks done, threads gone, four list tails. */
const SLOT_WORDS = 8;
const S_LOOP = 0;
const S_CLAIM = 1;
const S_DONE = 2;
const S_LEFT = 3;
const S_TAIL = 4;
const SLOT_AT = COUNT + 2 * TEAM_COUNTERS;
const WORDS = SLOT_AT + SLOTS * SLOT_WORDS;
/** The most values one sync or loop sums. */
export const TEAM_SUMS = 4;
/** Bytes before the sums: the words, then each slot's integer sums (BigInt64). */
const SUMS_AT = 8 * Math.ceil(WORDS / 2);
const VALS_AT = SUMS_AT + 8 * SLOTS * TEAM_SUMS;
/**
 * How long a thread at a barrier spins before it sleeps, ms. Longer spins were worse on the H100
 * host's 16 vCPUs (2 ms: nearly every barrier took 2 ms, a team thread sharing its CPU with a
 * spinning one or with the process's other busy threads until the spinner slept; bench/results/
 * h100-2026-11-28-cpu-teams), shorter ones leave a thread woken from a futex starting late.
 */
const SPIN_MS = 0.05;

/** A team's control block for `size` threads: no barrier passed, no rank given, slot i serving loop i. */
export function teamBuffer(size: number): SharedArrayBuffer {
  const b = new SharedArrayBuffer(VALS_AT + 8 * 2 * TEAM_SUMS * size);
  const w = new Int32Array(b, 0, WORDS);
  for (let i = 0; i < SLOTS; i++) w[SLOT_AT + i * SLOT_WORDS + S_LOOP] = i;
  return b;
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
   * A shared loop that waits for the work, not for every thread: as forEach over [0, n) in chunks
   * of `grain`, and it returns once every chunk is done, whoever did it. A thread that starts late
   * (woken late, preempted) finds the chunks taken and goes on; a barrier would hold every other
   * thread until it came (a superstep's dynamic queue hides a late thread the same way). `done`
   * runs after this thread's last chunk, before its chunks count as done: `reserve(k)` returns
   * where its k entries of a list the loop fills go (one tail per loop, from 0). `sums`: integers
   * this thread adds up (body and done write them), replaced by the loop's totals. Every thread
   * calls the same loops in the same order; a thread at most 7 loops behind the first.
   */
  loop(n: number, grain: number, body: (lo: number, hi: number) => void, done?: (reserve: (k: number) => number) => void, sums?: Float64Array): void;
  /** The pull tasks cut into pieces of at most `vertices` vertices (forTasks's): their count, and piece j. */
  pieces(vertices: number): number;
  piece(vertices: number, j: number): Task;
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
    this.vals = new Float64Array(buffer, VALS_AT, 2 * TEAM_SUMS * size);
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

  /** Pieces before each task (by piece size), computed once. */
  private readonly before = new Map<number, Float64Array>();
  private readonly cut: Task = { page: 0, count: 0, lo: 0, hi: 0, edges: 0, edgeLo: undefined, edgeHi: undefined };

  private prefix(vertices: number): Float64Array {
    const u = Math.max(1, Math.floor(vertices));
    let pre = this.before.get(u);
    if (pre === undefined) {
      pre = new Float64Array(this.tasks + 1);
      for (let i = 0; i < this.tasks; i++) {
        const t = this.row(i);
        pre[i + 1] = pre[i]! + Math.max(1, Math.ceil((t.hi - t.lo) / u));
      }
      this.before.set(u, pre);
    }
    return pre;
  }

  pieces(vertices: number): number {
    return this.prefix(vertices)[this.tasks]!;
  }

  piece(vertices: number, j: number): Task {
    const u = Math.max(1, Math.floor(vertices));
    const pre = this.prefix(u);
    // The task holding piece j.
    let a = 0, b = this.tasks;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (pre[m + 1]! <= j) a = m + 1;
      else b = m;
    }
    const t = this.row(a), p = this.cut;
    p.page = t.page;
    p.count = t.count;
    p.lo = t.lo + (j - pre[a]!) * u;
    p.hi = Math.min(t.hi, p.lo + u);
    p.edges = t.edges;
    p.edgeLo = t.edgeLo;
    p.edgeHi = t.edgeHi;
    return p;
  }

  forTasks(vertices: number, body: (task: Task) => void): void {
    this.forEach(this.pieces(vertices), 1, (j) => body(this.piece(vertices, j)));
  }

  /** Loops this thread has entered (Team.loop). */
  private loops = 0;
  private sums64: BigInt64Array | undefined;

  loop(n: number, grain: number, body: (lo: number, hi: number) => void, done?: (reserve: (k: number) => number) => void, sums?: Float64Array): void {
    const k = this.loops++;
    const base = SLOT_AT + (k % SLOTS) * SLOT_WORDS;
    const ctl = this.ctl;
    // The slot is this loop's once the last thread has left the loop SLOTS before.
    this.waitWhile(base + S_LOOP, (x) => x !== k);
    const g = Math.max(1, Math.floor(grain));
    const total = Math.ceil(n / g);
    let mine = 0;
    for (;;) {
      const c = Atomics.add(ctl, base + S_CLAIM, 1);
      if (c >= total || Atomics.load(ctl, ABORT) !== 0) break;
      body(c * g, Math.min(n, (c + 1) * g));
      mine++;
    }
    done?.((m) => Atomics.add(this.counters, base + S_TAIL, m));
    const ns = sums === undefined ? 0 : Math.min(sums.length, TEAM_SUMS);
    const acc = (this.sums64 ??= new BigInt64Array(ctl.buffer, SUMS_AT, SLOTS * TEAM_SUMS));
    const at = (k % SLOTS) * TEAM_SUMS;
    for (let j = 0; j < ns; j++) if (sums![j] !== 0) Atomics.add(acc, at + j, BigInt(sums![j]!));
    if (mine > 0 && Atomics.add(ctl, base + S_DONE, mine) + mine === total) Atomics.notify(ctl, base + S_DONE);
    if (total > 0) this.waitWhile(base + S_DONE, (x) => x < total);
    for (let j = 0; j < ns; j++) sums![j] = Number(Atomics.load(acc, at + j));
    if (Atomics.add(ctl, base + S_LEFT, 1) === this.size - 1) {
      // Every thread has its totals: the slot serves loop k + SLOTS from now.
      for (let w = 1; w < SLOT_WORDS; w++) Atomics.store(ctl, base + w, 0);
      for (let j = 0; j < TEAM_SUMS; j++) Atomics.store(acc, at + j, 0n);
      Atomics.store(ctl, base + S_LOOP, k + SLOTS);
      Atomics.notify(ctl, base + S_LOOP);
    }
    if (Atomics.load(ctl, ABORT) !== 0) throw new TeamAborted();
  }

  /** Spins SPIN_MS, then sleeps, while `still(word)`; returns at once on abort. */
  private waitWhile(i: number, still: (x: number) => boolean): void {
    const ctl = this.ctl;
    const t0 = performance.now();
    let sleep = false;
    for (let spin = 1; ; spin++) {
      const x = Atomics.load(ctl, i);
      if (!still(x) || Atomics.load(ctl, ABORT) !== 0) return;
      if (sleep) Atomics.wait(ctl, i, x, 10);
      else if ((spin & 1023) === 0) sleep = performance.now() - t0 > SPIN_MS;
    }
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
  for (let i = 0; i < SLOTS; i++) for (const w of [S_LOOP, S_DONE]) Atomics.notify(ctl, SLOT_AT + i * SLOT_WORDS + w);
}
