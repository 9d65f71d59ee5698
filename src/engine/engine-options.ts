/**
 * What an Engine is given and what it tells (coordinator.ts): its options, the emitter its
 * progress events go to, and a run's checkpointing.
 */
import type { Mode } from '../wire/frames.js';
import type { MultiGpu, RunnableStrategy } from './partition.js';
import type { AnyProgram } from './define.js';
import type { RunReport, StepReport } from './report.js';
import type { CheckpointWriter, LoadedCheckpoint } from './checkpoint.js';
import type { Prestart } from './prestart.js';

/** Checkpointing of one run (engine.run): where to write due checkpoints, and where to start from. */
export interface RunCheckpointing {
  writer?: CheckpointWriter;
  resume?: LoadedCheckpoint;
}

/**
 * An emitter the engine reports progress to (`emit(event, ...args)` with EngineEvents' events and
 * arguments). `on` is there for whoever listens to `engine.events`.
 */
export interface ProgressEmitter {
  emit<E extends keyof EngineEvents>(event: E, ...args: EngineEvents[E]): unknown;
  on<E extends keyof EngineEvents>(event: E, fn: (...args: EngineEvents[E]) => void): unknown;
}

/** Progress events of an Engine (eventemitter3); the CLI turns them into a progress line. */
export interface EngineEvents {
  /** A program starts. */
  'run-start': [info: { program: string; vertices: number; edges: number }];
  /** A superstep finished (the same record the report keeps). */
  superstep: [step: StepReport, program: string];
  'run-end': [report: RunReport];
}

export interface EngineOptions {
  /**
   * Where progress events go: any emitter with `emit` (eventemitter3, node:events, your own);
   * default a fresh eventemitter3 emitter, `engine.events`.
   */
  events?: ProgressEmitter;
  /** Dense (pull) when |F| + out-edges(F) > |E| / pullDivisor (Ligra uses 20). */
  pullDivisor?: number;
  /** Force a mode for every superstep whose kernel supports it (testing, benchmarks). */
  forceMode?: Mode;
  /**
   * Whether programs may run phases as teams of the socket's threads (RunContext.teamwork, bfs's
   * levels in one team). Default true (TESSERA_TEAM=0: false); false makes them take their
   * supersteps (comparisons: bench/results/h100-2026-11-28-cpu-teams).
   */
  teams?: boolean;
  /**
   * Fraction of the edges the topology's GPUs own (0..1; default: the topology's model.gpuShare,
   * else 1 on real GPUs and 0.5 on emulated ones). See partition.ts.
   */
  gpuShare?: number;
  /**
   * Page stealing between actors (Garaph): 'auto' (default) — an actor whose queue empties takes
   * tasks from the tail of the busiest queue when planSteal (src/engine/steal.ts) says the move
   * pays, with rates measured in the superstep itself; 'off'; 'always' — half the victim's queue
   * whenever asked (tests). Results do not depend on it.
   */
  steal?: 'auto' | 'off' | 'always';
  /**
   * Which vertices the GPUs own: 'high' (default: the low-degree tail; hubs stay on the CPU),
   * 'low' (the hubs) or 'rand' (the model's RAND choice of pages for the share; partition.ts).
   */
  partition?: RunnableStrategy;
  /** Two GPUs or more: one range each ('p', default) or dealt pages ('s'; partition.ts MultiGpu). */
  multiGpu?: MultiGpu;
  /** RAND: the shuffle's seed (default 1, the model's). */
  partitionSeed?: number;
  /** RAND: the page set shuffled, as the model's for the program ('in' for pull programs, default; 'out' for push). */
  partitionPages?: 'in' | 'out';
  /**
   * Explicit owned ranges per GPU actor (e.g. the model's chosen partition), instead of deriving
   * them from partition and gpuShare: sorted, disjoint [begin, end) lists of internal ids.
   */
  ownership?: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /**
   * Programs the engine will run: the sockets' threads import their CPU kernel modules while the
   * engine starts, as they do the worker's own (a program's first superstep otherwise restarted
   * the threads' gang to import them: 7-12 ms of a first run on the 2-core box), and the engine's
   * pools get their declared state arrays and two frontier byte maps, faulted in (pools.ts). `run()`,
   * the CLI and the bench harness name theirs; a session's are those in its options, others load on
   * first use.
   */
  preload?: ReadonlyArray<AnyProgram>;
  /**
   * 'one' where the engine is made for a single run (`run()`, the CLI's `run`): its GPU warm-up
   * takes one round of supersteps instead of GPU_WARM_ROUNDS (engine/warm-up.ts), sparing create
   * the ~15 ms that only later runs would get back. Default 'many' (sessions, the harness).
   */
  runs?: 'one' | 'many';
  /**
   * Socket actors started before the graph was loaded (`Engine.prestart` with the same topology):
   * the engine takes them instead of starting its own. The CLI starts them while it reads the graph.
   */
  prestart?: Prestart;
}
