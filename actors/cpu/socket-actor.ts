/**
 * CPU socket actor: one per socket of the topology, a piscina pool with one thread per core.
 * It receives frames from the coordinator, keeps its own task queue (so the coordinator can see
 * and later rebalance it), runs at most `threads` tasks at a time and answers with page-done
 * frames and one vote per superstep.
 */
import { Piscina } from 'piscina';
import type { Channel } from '../../src/wire/channel.js';
import type { ActorFrame, CoordinatorFrame, LoadFrame, SuperstepFrame, Task } from '../../src/wire/frames.js';
import type { GraphShare } from './share.js';
import type { TaskMessage, TaskResult } from './worker.js';

const WORKER = new URL('./worker.js', import.meta.url);

export class CpuSocketActor {
  private pool: Piscina | undefined;
  private closed = false;

  constructor(
    readonly name: string,
    readonly threads: number,
    private readonly link: Channel<ActorFrame, CoordinatorFrame>,
  ) {
    link.on((frame, shared) => {
      this.onFrame(frame, shared).catch((e: unknown) =>
        link.send({ type: 'error', actor: this.name, message: e instanceof Error ? e.message : String(e) }),
      );
    });
  }

  /** Superstep frames seen; makes the worker's view-cache key unique across runs. */
  private frames = 0;

  private async onFrame(frame: CoordinatorFrame, shared: SharedArrayBuffer[]): Promise<void> {
    switch (frame.type) {
      case 'load':
        await this.load(frame, shared);
        return;
      case 'superstep':
        await this.superstep(frame, shared);
        return;
      case 'stop':
        this.closed = true;
        await this.pool?.destroy();
        this.pool = undefined;
        return;
    }
  }

  private async load(frame: LoadFrame, shared: SharedArrayBuffer[]): Promise<void> {
    await this.pool?.destroy();
    const workerData: GraphShare = { load: frame, shared };
    this.pool = new Piscina({
      filename: WORKER.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      workerData,
    });
  }

  private async superstep(f: SuperstepFrame, shared: SharedArrayBuffer[]): Promise<void> {
    const pool = this.pool;
    if (pool === undefined) throw new Error('superstep before load');
    const t0 = performance.now();
    const base: Omit<TaskMessage, 'task'> = {
      // A fresh key per superstep frame: the worker caches its typed-array views under it, and an
      // Engine runs many programs (step numbers restart at 0 for each).
      key: `${this.name}:${++this.frames}:${f.kernel}`,
      kernel: f.kernel,
      mode: f.mode,
      args: f.args,
      state: f.state.map((s) => ({ name: s.name, kind: s.kind, buffer: shared[s.buffer]! })),
      frontier: f.frontierBitmap === undefined ? undefined : shared[f.frontierBitmap],
      frontierList: f.frontierList === undefined ? undefined : shared[f.frontierList],
      next: shared[f.nextBitmap]!,
      wantList: f.wantList,
      pullPages: f.pullPages,
    };
    const queue: Task[] = f.tasks.slice();
    const totals = { active: 0, sum: 0, edges: 0, tasks: 0, computeMs: 0 };
    const found: Uint32Array[] = [];
    const runOne = async (): Promise<void> => {
      for (let task = queue.shift(); task !== undefined && !this.closed; task = queue.shift()) {
        const r = (await pool.run({ ...base, task } satisfies TaskMessage)) as TaskResult;
        totals.active += r.active;
        totals.sum += r.sum;
        totals.edges += r.edges;
        totals.tasks++;
        totals.computeMs += r.ms;
        if (r.discovered) found.push(r.discovered);
        this.link.send({ type: 'page-done', actor: this.name, task });
      }
    };
    await Promise.all(Array.from({ length: this.threads }, runOne));
    let discovered: Uint32Array | undefined;
    if (f.wantList) {
      discovered = new Uint32Array(found.reduce((a, b) => a + b.length, 0));
      let at = 0;
      for (const d of found) {
        discovered.set(d, at);
        at += d.length;
      }
    }
    this.link.send({
      type: 'vote',
      actor: this.name,
      step: f.step,
      active: totals.active,
      sum: totals.sum,
      edges: totals.edges,
      tasks: totals.tasks,
      stolen: 0,
      computeMs: performance.now() - t0,
      discovered,
    });
  }
}
