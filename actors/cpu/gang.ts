/**
 * A socket's threads as a gang: one long piscina task per thread, each blocked on a shared word,
 * and a superstep's message broadcast to the gang's threads before one Atomics.notify wakes them
 * all. Handing a superstep to 16 threads as 16 pool.run calls cost ~55 us each on the
 * coordinator's thread, so the last thread started ~0.9 ms after the first and each superstep of
 * RMAT 22's BFS or WCC lost that ramp (bench/results/h100-2026-11-26-native-kernels). A post to
 * each thread's port still cost 160-180 us for 16 threads on that host (the message cloned 16
 * times), one post on a BroadcastChannel 14-48 us. Replies come back on each thread's own port.
 *
 * The word (ctl[0]) is the gang's generation, or CLOSED; ctl[1] is 1 while a superstep is in
 * flight (the actor's). A thread that waits IDLE_MS for a new generation, none in flight, closes
 * the gang (compare-and-swap, so a superstep that rang first wins) and the others leave with it:
 * piscina's threads go back to the pool, unreferenced, and the process can exit with an engine
 * left open. The actor rings with the same compare-and-swap; when the gang has closed it starts a
 * new one (a fresh channel and ports: messages to the old ones are never read) and posts again.
 * A gang preloads the kernel modules it will run (a module import is asynchronous, the gang's
 * loop is not). Used where the superstep needs no stealing and no injected fault
 * (socket-actor.ts); TESSERA_GANG=0 turns it off.
 */
import { BroadcastChannel, MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { TaskMessage, TaskResult } from './worker.js';

export const CLOSED = -1;
/**
 * A gang thread without a superstep for this long leaves the gang: long enough for an engine's
 * first run after Engine.create (its pools filled meanwhile) and for a session's runs a moment
 * apart; an engine left open holds the process this much longer.
 */
export const IDLE_MS = 250;

/** What a gang task gets: its reply port, the gang's channel name, the shared word, the modules to import first. */
export interface GangStart {
  port: MessagePort;
  /** The BroadcastChannel the actor posts the gang's superstep messages on. */
  channel: string;
  ctl: SharedArrayBuffer;
  modules: string[];
  /** The threads import the modules and say ready without the graph (a prestarted pool, mailbox.ts). */
  graphless?: boolean;
}

/** A thread's answer on its port: 'ready' once its modules are imported, then one per superstep. */
export type GangReply = { ready: true } | { key: string; result: TaskResult } | { key: string; error: string };

/**
 * The worker's side (worker.ts runs it as a task): imports, says ready, then runs each message
 * that arrives with a new generation until the gang closes. `run` runs one superstep message.
 */
export function gangLoop(g: GangStart, run: (m: TaskMessage) => TaskResult): void {
  const ctl = new Int32Array(g.ctl);
  let seen = Atomics.load(ctl, 0);
  // Messages of a generation not rung yet (posted before the ring; found while draining the last).
  const held: Array<TaskMessage & { gen: number }> = [];
  // Open before 'ready': the actor posts nothing on it before every thread is ready.
  const inbox = new BroadcastChannel(g.channel);
  try {
    g.port.postMessage({ ready: true } satisfies GangReply);
    loop(g, ctl, seen, held, inbox, run);
  } finally {
    inbox.close();
  }
}

function loop(g: GangStart, ctl: Int32Array, seen: number, held: Array<TaskMessage & { gen: number }>, inbox: BroadcastChannel, run: (m: TaskMessage) => TaskResult): void {
  for (;;) {
    // Generation 0: no timeout (the actor starts a gang right before its first superstep, or
    // Gang.warm rings an empty generation 1 once every thread is in, starting the idle clock).
    const r = Atomics.wait(ctl, 0, seen, seen === 0 ? Infinity : IDLE_MS);
    let now = Atomics.load(ctl, 0);
    if (now === CLOSED) return;
    // Idle: no new generation for IDLE_MS and no superstep in flight (ctl[1], the actor's).
    if (r === 'timed-out' && now === seen && Atomics.load(ctl, 1) === 0) {
      now = Atomics.compareExchange(ctl, 0, seen, CLOSED);
      if (now === seen) {
        Atomics.notify(ctl, 0);
        return;
      }
      if (now === CLOSED) return;
    }
    seen = now;
    // Node takes a BroadcastChannel here too; @types/node names MessagePort only.
    const port = inbox as unknown as MessagePort;
    for (let e = receiveMessageOnPort(port); e !== undefined; e = receiveMessageOnPort(port)) held.push(e.message as TaskMessage & { gen: number });
    while (held.length > 0 && held[0]!.gen <= seen) {
      const m = held.shift()!;
      let reply: GangReply;
      try {
        reply = { key: m.key, result: run(m) };
      } catch (err) {
        reply = { key: m.key, error: err instanceof Error ? err.message : String(err) };
      }
      g.port.postMessage(reply);
    }
  }
}

/** The actor's side: starts gangs on the pool and hands them supersteps. */
export class Gang {
  private ctl = new Int32Array(new SharedArrayBuffer(8));
  private ports: MessagePort[] = [];
  /** Where superstep messages go (the gang's threads each hold one of the same name). */
  private channel: BroadcastChannel | undefined;
  private modules: string[] = [];
  /** The superstep in flight: its replies so far and how to settle it. */
  private wait: { key: string; results: TaskResult[]; left: number; resolve(r: TaskResult[]): void; reject(e: Error): void } | undefined;

  constructor(
    private readonly pool: Piscina,
    private readonly threads: number,
  ) {
    Atomics.store(this.ctl, 0, CLOSED);
  }

  /** Runs `msg` on every thread of the gang (each takes tasks from its queue until it is empty). */
  async run(msg: TaskMessage): Promise<TaskResult[]> {
    if (!this.modules.includes(msg.module)) await this.start([...this.modules, msg.module]);
    for (let attempt = 0; ; attempt++) {
      const g = Atomics.load(this.ctl, 0);
      const done = new Promise<TaskResult[]>((resolve, reject) => (this.wait = { key: msg.key, results: [], left: this.threads, resolve, reject }));
      // Posted first, run by each thread once it sees generation g + 1 (not while still on g).
      if (g !== CLOSED) this.channel!.postMessage({ ...msg, gen: g + 1 });
      Atomics.store(this.ctl, 1, 1);
      if (g !== CLOSED && Atomics.compareExchange(this.ctl, 0, g, g + 1) === g) {
        Atomics.notify(this.ctl, 0);
        return done;
      }
      // The gang left (idle): a new one, with fresh ports, and the message again.
      this.wait = undefined;
      if (attempt > 0) throw new Error('the socket threads did not stay in their gang');
      await this.start(this.modules);
    }
  }

  private async start(modules: string[], graphless = false): Promise<void> {
    const old = this.ctl;
    this.ctl = new Int32Array(new SharedArrayBuffer(8));
    // The old gang leaves at once (its threads may still be waiting out IDLE_MS).
    Atomics.store(old, 0, CLOSED);
    Atomics.notify(old, 0);
    for (const p of this.ports) p.close();
    this.ports = [];
    this.channel?.close();
    const name = `tessera-gang-${process.pid}-${++gangs}`;
    // Unreferenced: an engine left open must not keep the process alive (the ports are unreferenced by closing).
    this.channel = new BroadcastChannel(name);
    this.channel.unref();
    this.modules = modules;
    const ready: Array<Promise<void>> = [];
    for (let i = 0; i < this.threads; i++) {
      const { port1, port2 } = new MessageChannel();
      this.ports.push(port1);
      let readyNow!: () => void;
      ready.push(new Promise<void>((r) => (readyNow = r)));
      port1.on('message', (m: GangReply) => {
        if ('ready' in m) return readyNow();
        const w = this.wait;
        // A reply of an earlier superstep (one that failed on another thread) is late: dropped.
        if (w === undefined || w.key !== m.key) return;
        if ('error' in m) {
          this.settled();
          return w.reject(new Error(m.error));
        }
        w.results.push(m.result);
        if (--w.left === 0) {
          this.settled();
          w.resolve(w.results);
        }
      });
      const ctl = this.ctl;
      const start: GangStart = { port: port2, channel: name, ctl: ctl.buffer as SharedArrayBuffer, modules, ...(graphless ? { graphless } : {}) };
      this.pool.run({ gang: start }, { transferList: [port2] }).then(
        () => this.retire(port1),
        (e: unknown) => {
          this.retire(port1);
          // A thread that died (or threw outside a superstep) ends its gang (the next superstep
          // starts another on the pool's threads) and fails the superstep in flight.
          Atomics.store(ctl, 0, CLOSED);
          Atomics.notify(ctl, 0);
          const w = this.wait;
          this.settled();
          w?.reject(e instanceof Error ? e : new Error(String(e)));
          readyNow();
        },
      );
    }
    await Promise.all(ready);
  }

  /** Ports of threads that left, kept open until the superstep in flight has all its replies. */
  private retiring: MessagePort[] = [];

  /**
   * A thread left its gang (idle, or closed): its port closes, but not while a superstep waits,
   * as its last reply may still be queued there (piscina's answer to the gang task comes on
   * another port, in no fixed order with it; closing drops what is queued).
   */
  private retire(port: MessagePort): void {
    if (this.wait === undefined) port.close();
    else this.retiring.push(port);
  }

  /** The superstep in flight has settled: no reply is pending on a retiring port. */
  private settled(): void {
    this.wait = undefined;
    Atomics.store(this.ctl, 1, 0);
    for (const p of this.retiring) p.close();
    this.retiring = [];
  }

  /**
   * Has every thread import the worker's modules (piscina imports a worker's file with its first
   * task: ~100 ms a thread, with the addon) and `modules`, so that an engine's first superstep does
   * not pay it. The gang then stays for the first superstep, leaving if none comes within IDLE_MS
   * (a run right after Engine.create found the threads back in piscina's pool and paid a new
   * gang's start: 16 pool.run calls and as many threads woken, the largest part of a session's
   * first run over the warm ones). `graphless`: a prestarted pool's threads, before the graph is
   * loaded; they leave at once (the load's warm-up gives them the graph).
   */
  async warm(modules: string[] = [], graphless = false): Promise<void> {
    await this.start(modules, graphless);
    if (graphless) this.close();
    else {
      // The idle clock starts now for every thread (a thread that came in first waits no less).
      Atomics.store(this.ctl, 0, 1);
      Atomics.notify(this.ctl, 0);
    }
    this.modules = modules;
  }

  /** Ends the gang (the actor's stop): its threads leave at once. */
  close(): void {
    Atomics.store(this.ctl, 0, CLOSED);
    Atomics.notify(this.ctl, 0);
    for (const p of this.ports) p.close();
    this.ports = [];
    this.channel?.close();
    this.channel = undefined;
    this.modules = [];
  }
}

/** Gangs started in this process: each gets its own channel name. */
let gangs = 0;
