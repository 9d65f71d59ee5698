/**
 * Actors started before the graph is there: a socket's threads take ~100-200 ms to start and
 * import their code (16 threads with the addon, on the H100 host), time in which the caller can
 * be reading the graph instead (the CLI reads a .tsr at ~2 GB/s with its main thread idle). The
 * threads get the graph from a mailbox when the engine is created (actors/cpu/mailbox.ts).
 */
import { CpuSocketActor } from '../../actors/cpu/socket-actor.js';
import type { GpuController } from '../../actors/gpu/native.js';
import { openGpus } from './open-gpus.js';
import type { Topology } from '../topology/schema.js';
import { Channel } from '../wire/channel.js';
import type { ActorFrame, CoordinatorFrame } from '../wire/frames.js';
import type { AnyProgram } from './define.js';
import { warmUp } from './warm-up.js';

export interface PrestartedSocket {
  name: string;
  threads: number;
  coord: Channel<CoordinatorFrame, ActorFrame>;
  actor: CpuSocketActor;
}

export class Prestart {
  readonly sockets: PrestartedSocket[];
  /**
   * Each GPU's controller, opened meanwhile (a CUDA context took ~150 ms on the H100 host);
   * undefined where that failed: the engine then opens it itself and reports why it cannot.
   */
  readonly gpus: Array<Promise<GpuController | undefined>>;
  /** Taken by an engine (Engine.create): its close stops them from then on. */
  taken = false;

  /**
   * Opens each GPU of `topology` (unless `gpus` gives them opened: open-gpus.ts) and, unless
   * `sockets` is false, starts one socket actor per socket, its threads importing `preload`'s
   * kernels (sockets not started here start at Engine.create).
   */
  constructor(
    readonly topology: Topology,
    preload: ReadonlyArray<AnyProgram> = [],
    opts: { sockets?: boolean; gpus?: Array<Promise<GpuController | undefined>> } = {},
  ) {
    const modules = kernelModules(preload);
    this.sockets = (opts.sockets === false ? [] : topology.sockets).map((s) => {
      const [coord, actorEnd] = Channel.pair<CoordinatorFrame, ActorFrame>();
      const name = `socket${s.id}`;
      const actor = new CpuSocketActor(name, s.threads, actorEnd);
      actor.prestart(modules);
      return { name, threads: s.threads, coord, actor };
    });
    this.gpus = opts.gpus ?? openGpus(topology);
  }

  /** The actors for an engine on `topology`: undefined (and these stopped) where it is another. */
  take(topology: Topology): { sockets: PrestartedSocket[]; gpus: Array<Promise<GpuController | undefined>> } | undefined {
    if (this.taken) return undefined;
    this.taken = true;
    const same =
      (this.sockets.length === 0 || (topology.sockets.length === this.sockets.length && topology.sockets.every((s, i) => s.threads === this.sockets[i]!.threads && `socket${s.id}` === this.sockets[i]!.name))) &&
      topology.gpus.length === this.topology.gpus.length &&
      topology.gpus.every((g, i) => {
        const h = this.topology.gpus[i]!;
        return g.device === h.device && g.emulated === h.emulated && g.memoryLimit === h.memoryLimit && g.streams === h.streams;
      });
    if (same) return { sockets: this.sockets, gpus: this.gpus };
    void this.stop();
    return undefined;
  }

  /**
   * Stops the threads of sockets no engine took (the graph failed to load, say) and closes the
   * GPUs opened for it, each once it has started: a process that exited while a controller's
   * thread was still making its CUDA context crashed in the driver, and one whose socket threads
   * were still starting aborted (runs refused during their load).
   */
  async close(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    await Promise.all(this.sockets.map((s) => s.actor.started()));
    const gpus = this.stop();
    // Let the stop frames be handled (pools destroyed) before returning.
    await Promise.all([new Promise((r) => setTimeout(r, 0)), gpus]);
  }

  private stop(): Promise<unknown> {
    for (const s of this.sockets) s.coord.send({ type: 'stop' });
    return Promise.all(this.gpus.map((g) => g.then((c) => c?.close()).catch(() => undefined)));
  }
}

/** The kernel modules of programs, each once, with the warm-up's where there are any (what a socket's threads import before ready). */
export function kernelModules(preload: ReadonlyArray<AnyProgram>): string[] {
  return preload.length === 0 ? [] : [...new Set([...preload.map((p) => p.kernels), warmUp.kernels])];
}
