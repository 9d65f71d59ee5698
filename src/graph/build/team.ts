/**
 * Helper threads for the builder, driven synchronously (buildGraph stays a plain function): the
 * main thread posts a task on a helper's port, does its own share, then blocks on an Atomics
 * flag until the helper has posted its answer, which it reads with receiveMessageOnPort. Big data
 * never travels: tables, staging chunks and pages are SharedArrayBuffers (a message carries views
 * of them); raw edge chunks are transferred once, to the helper that reads them.
 *
 * A helper that is not up within READY_MS (a very loaded machine) is let go and the work runs
 * with the threads it has; results never depend on the number of threads. Where the compiled
 * worker module is not beside this one (sources run through a loader), no helper is started.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/**
 * Default cap on the threads of a build or a generator. Per-thread tables grow with it, but slowly:
 * RMAT 24 weighted on the 16-core host was generated and built in 11.8-13.2 s with 16 threads
 * against 23.4-24.6 s with 4, peak RSS 5.2 GiB against 4.9 (bench/results/h100-2026-11-26-build).
 */
export const MAX_THREADS = 16;

const READY_MS = 10_000;

/** Edge count from which generating or building uses helper threads (they take tens of ms to start). */
export const PARALLEL_MIN = 1 << 21;

/** The threads a generator or build of `edges` edges takes by default. */
export function defaultThreads(edges: number): number {
  return edges >= PARALLEL_MIN ? Math.min(MAX_THREADS, os.availableParallelism()) : 1;
}

/**
 * Runs fn with one team for a generator and the build after it (the helpers boot once: about
 * 0.2 s on the 16-core host), closed afterwards; undefined where one thread does.
 */
export function withTeam<R>(edges: number, fn: (team: Team | undefined) => R): R {
  const threads = defaultThreads(edges);
  const team = threads > 1 ? new Team(threads) : undefined;
  try {
    return fn(team);
  } finally {
    team?.close();
  }
}
const WORKER = new URL('./worker.js', import.meta.url);

interface Helper {
  worker: Worker;
  port: MessagePort;
  /** 0: busy (or starting), 1: idle (ready, or answer posted). */
  flag: Int32Array;
}

export type Task = { kind: string } & Record<string, unknown>;

export class Team {
  private helpers: Helper[] = [];
  private started = false;

  /** Starts `threads - 1` helpers (they boot while the caller goes on). */
  constructor(threads: number) {
    if (WORKER.protocol !== 'file:' || !existsSync(fileURLToPath(WORKER))) return;
    for (let i = 1; i < threads; i++) {
      const { port1, port2 } = new MessageChannel();
      const flag = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(WORKER, { workerData: { port: port2, flag }, transferList: [port2] });
      worker.unref();
      // A helper that fails to start is dropped by ready(); nothing to report here.
      worker.on('error', () => undefined);
      this.helpers.push({ worker, port: port1, flag });
    }
  }

  /** Threads available, the caller's included; waits (once) for the helpers to be up. */
  get size(): number {
    if (!this.started) {
      this.started = true;
      const deadline = Date.now() + READY_MS;
      this.helpers = this.helpers.filter((h) => {
        const left = deadline - Date.now();
        const up = Atomics.load(h.flag, 0) === 1 || (left > 0 && Atomics.wait(h.flag, 0, 0, left) !== 'timed-out');
        if (!up) void h.worker.terminate();
        return up;
      });
    }
    return this.helpers.length + 1;
  }

  /**
   * Runs tasks[i] on helper i (at most size - 1 tasks; helpers beyond stay idle) while `mine`
   * runs here; returns mine's result and the helpers' results.
   */
  run<T>(tasks: Task[], mine: () => T, transfer: ArrayBuffer[][] = []): { mine: T; theirs: unknown[] } {
    if (tasks.length > this.size - 1) throw new Error(`team of ${this.size} threads got ${tasks.length} helper tasks`);
    tasks.forEach((task, i) => {
      const h = this.helpers[i]!;
      Atomics.store(h.flag, 0, 0);
      h.port.postMessage(task, transfer[i] ?? []);
    });
    let result: T;
    let error: unknown;
    try {
      result = mine();
    } catch (e) {
      error = e;
    }
    const theirs = this.helpers.slice(0, tasks.length).map((h) => {
      while (Atomics.load(h.flag, 0) === 0) Atomics.wait(h.flag, 0, 0);
      const reply = receiveMessageOnPort(h.port)?.message as { ok?: unknown; error?: string } | undefined;
      if (reply === undefined) throw new Error('graph build helper thread gave no answer');
      if (reply.error !== undefined) error ??= new Error(`graph build helper thread: ${reply.error}`);
      return reply.ok;
    });
    if (error !== undefined) throw error;
    return { mine: result!, theirs };
  }

  close(): void {
    for (const h of this.helpers) {
      h.port.close();
      void h.worker.terminate();
    }
    this.helpers = [];
  }
}
