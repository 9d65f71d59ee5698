/**
 * What a program's driver sees (RunContext): edgeMap / vertexMap over the kernels of its own
 * module (define.ts), frontiers and state arrays. Programs speak to the engine only through it,
 * so the same program runs on any topology.
 */
import type { Graph } from '../graph/types.js';
import type { StateKind } from '../wire/frames.js';
import type { StateArray } from './kernel.js';

/**
 * Active vertices: a byte per vertex, plus a list when the producer had one. Read-only: the
 * engine reuses its buffers (every all() frontier shares one byte map); frontierOf makes a new one.
 */
export interface Frontier {
  readonly bitmap: Uint8Array;
  /**
   * The active vertices in ascending order (each owner's are then one slice of it, and push
   * tasks walk the pages in order).
   */
  readonly list: Uint32Array | undefined;
  readonly size: number;
  /** The out-edges of its vertices, when the engine summed them while listing it. */
  readonly edges?: number;
}

export interface EdgeMapOptions {
  /** Modes the kernel implements (default both). */
  modes?: ReadonlyArray<'push' | 'pull'>;
  /** Whether pull kernels read the frontier (BFS does; PageRank computes every vertex). */
  readsFrontier?: boolean;
  /**
   * Pages a pull task walks: 'in' (default: a vertex gathers from its in-neighbours) or 'out'
   * (a vertex gathers from its out-neighbours, e.g. Brandes' backward phase).
   */
  pullPages?: 'in' | 'out';
  /**
   * Run this superstep on the CPU sockets only, over every vertex (pull) or the whole frontier
   * (push), whatever the GPU actors own: a host-side pass whose result a later superstep hands to
   * the GPUs whole (LCC's N+ lists). The kernel needs no GPU side. Nothing changes on CPU-only
   * topologies.
   */
  cpuOnly?: boolean;
  /**
   * Run this superstep on the GPU actors alone, which own every vertex (RunContext.gpusOwnAll;
   * a handler may also need soleGpu, one of them): its handler may run a whole phase on the device (wcc's Afforest: linking, sampling, compression
   * and labels in one superstep, none of which a CPU superstep could do without barriers). The
   * kernel needs no CPU side. Throws on other topologies.
   */
  gpuOnly?: boolean;
  /**
   * Direction-optimising switch (Beamer, Asanovic and Patterson, SC 2012; GAPBS bfs.cc), for a
   * kernel with both modes. `alpha`: pull when the frontier's vertices plus out-edges exceed
   * |E| / alpha (default: the engine's pullDivisor, Ligra's 20); a kernel whose pull reads every
   * in-edge (no early exit, e.g. SSSP's min) wants a small alpha. `beta`: after a pull, keep
   * pulling while the frontier has at least |V| / beta vertices or is still growing (GAPBS: 18);
   * the pull then need not sum its activations' out-edges. `beta` applies on CPU-only
   * topologies (GPU pulls count those out-edges on the device: Ligra's switch both ways there).
   */
  direction?: { alpha?: number; beta?: number };
  /**
   * A pull touches only the vertices whose `state` entry equals `value` (Ligra's C(v); BFS: depth
   * -1, not reached yet). Over a graph read from disk page by page, the sockets' pull tasks with
   * no such vertex are dropped, so their pages are not read (Graphie reads only active pages).
   */
  pullIf?: { state: string; value: number };
  /**
   * A pull changes nothing at a vertex without edges in the pulled pages (BFS's bottom-up step
   * finds no parent there): the sockets' pull tasks over such vertices alone are not run. RMAT
   * ids put a third of the vertices, those with no edge at all, in a tail that every pull
   * otherwise walked (GAPBS does not see them).
   */
  skipEmpty?: boolean;
  /**
   * The driver reads only `size` (and `edges`) of the returned frontier and hands it to the next
   * edgeMap (or release): GPUs owning every vertex may then keep it in device memory, sending
   * counts instead of a byte map (bfs, wcc). Reading its `bitmap` before the engine brought it
   * back throws.
   */
  deviceNext?: boolean;
}

/** RunContext.team's options. */
export interface TeamOptions {
  /** The pull tasks the team gets (Team.task): over in-pages (default) or out-pages. */
  pullPages?: 'in' | 'out';
  /** Leave out tasks over vertices without edges in those pages (EdgeMapOptions.skipEmpty). */
  skipEmpty?: boolean;
}

export interface StepResult {
  next: Frontier;
  /** Sum of the kernels' scalar outputs. */
  sum: number;
  edges: number;
}

/**
 * A value a driver carries from one superstep to the next, as a checkpoint saves it (checkpoint.ts):
 * numbers, booleans, strings, frontiers, typed arrays (a declared state array is saved once, by
 * name, and comes back as that array), and arrays or plain objects of them.
 */
export type CarryValue = number | boolean | string | null | undefined | Frontier | StateArray | readonly CarryValue[] | { readonly [k: string]: CarryValue };
/** What a driver's superstep loop carries, given at each safe point (RunContext.checkpoint). */
export type Carry = { readonly [k: string]: CarryValue };

export interface RunContext {
  readonly graph: Graph;
  /**
   * A shared state array of n entries (or `length`), filled with `fill` (default 0); 'unset': not
   * filled (the caller writes every entry before reading it; a reused array holds old values).
   */
  alloc(kind: StateKind, fill?: number | 'unset', length?: number): StateArray;
  /**
   * Sets every entry of `array` to `value` on the addon's threads, as a declared `init` does: for
   * a state array declared `'unset'` that only some of the driver's paths need filled (bfs: a GPU
   * owning every vertex writes its whole depth array; the other paths start from -1).
   */
  fill(array: StateArray, value: number): void;
  frontierOf(ids: ArrayLike<number>): Frontier;
  /** Every vertex active (its byte map is the engine's, shared by every all() frontier: never write it). */
  all(): Frontier;
  /**
   * GPU actors of the topology (0 on CPU-only ones). A program whose CPU superstep structure has
   * no native counterpart may take another, equivalent sequence of kernels when this is > 0.
   */
  readonly gpuActors: number;
  /** One GPU actor owns every vertex (a GPU-only topology of one GPU). */
  readonly soleGpu: boolean;
  /**
   * GPU actors own every vertex (one, or several together; no CPU actor computes any): edgeMap's
   * gpuOnly may be used, with kernels whose GPU handlers run on one GPU or on a group
   * (bfs_levels, pr_iterations, wcc's afforest).
   */
  readonly gpusOwnAll: boolean;
  /**
   * The mode this run was told to use (EngineOptions.forceMode, `tessera run --mode`), else
   * undefined: a program with another algorithm for some topologies runs the one that has it.
   */
  readonly forcedMode: 'push' | 'pull' | undefined;
  /**
   * Ligra's switch of this engine (EngineOptions.pullDivisor): edgeMap pulls when a frontier's
   * vertices and out-edges exceed |E| / pullDivisor. For a program switching directions itself
   * (a traversal's levels in one GPU call).
   */
  readonly pullDivisor: number;
  /**
   * Whether `team` may be used: the engine allows teams (EngineOptions.teams), one CPU socket
   * actor and no GPU actor, the graph's pages in memory, no checkpoints (a team is one step), no
   * forced mode. Otherwise the program runs its phase as supersteps (edgeMap / vertexMap), which
   * every topology takes.
   */
  readonly teamwork: boolean;
  /**
   * Runs `kernel`'s team function once on every thread of the socket together (a whole phase, e.g.
   * every level of a traversal: GAPBS's parallel region), the threads sharing loops and meeting at
   * barriers in shared memory (engine/team.ts) instead of a superstep per level. Needs teamwork.
   * Returns the threads' outputs summed; the run report shows it as one step.
   */
  team(kernel: string, state: Record<string, StateArray>, args?: Record<string, number>, opts?: TeamOptions): Promise<{ sum: number; active: number; edges: number }>;
  /** Records a program-specific fact in the run report (e.g. the SSSP update window used). */
  note(key: string, value: string | number | boolean): void;
  /**
   * One BSP superstep of `kernel` over the edges of `frontier`'s vertices: the engine picks
   * push (sparse) or pull (dense), splits pages across actors and threads, and returns the
   * vertices the kernels activated. A frontier returned by edgeMap is consumed by the next
   * edgeMap it is given to (its memory is reused); copy its list first to keep it.
   */
  edgeMap(
    kernel: string,
    frontier: Frontier,
    state: Record<string, StateArray>,
    args?: Record<string, number>,
    opts?: EdgeMapOptions,
  ): Promise<StepResult>;
  /**
   * Ligra's vertexMap: runs `kernel`'s vertex function over every vertex id, in parallel on the
   * CPU sockets' threads (it writes host state; GPU actors upload what their next edgeMap reads).
   * For per-vertex set-up that would otherwise be a serial loop on the coordinator (and touch
   * every page of a fresh array from one thread). Returns the sum of the kernels' scalar outputs.
   */
  vertexMap(kernel: string, state: Record<string, StateArray>, args?: Record<string, number>): Promise<{ sum: number }>;
  /**
   * Ligra's vertexFilter: runs `kernel`'s vertex function over every vertex id on the CPU sockets'
   * threads; the vertices it marks (`ctx.next[v] = 1`, counted in `out.active`) are the returned
   * frontier, ready for edgeMap (e.g. the vertices below a threshold). `sum` as vertexMap's.
   */
  vertexFilter(kernel: string, state: Record<string, StateArray>, args?: Record<string, number>): Promise<Frontier & { sum: number }>;
  /**
   * Gives back a frontier edgeMap or frontierOf returned that the driver will not use again (e.g.
   * an empty one that ends a phase, or one a driver builds every superstep as SSSP's buckets do):
   * its memory is reused by the next superstep instead of held to the end of the run. The frontier
   * must not be used afterwards. Frontiers edgeMap consumed, and others (ctx.all()), are ignored.
   */
  release(frontier: Frontier): void;
  /**
   * Checkpoints (programs with `resumable: true`; docs/PROGRAMS.md): the carry this run resumes
   * from, with the declared state already restored; undefined when the run starts fresh (then the
   * driver initialises as usual). Frontiers in it are fresh (not consumed), arrays in shared memory.
   */
  resume<C extends Carry>(): C | undefined;
  /**
   * A safe point: between supersteps, where the declared state and `carry` are everything the
   * rest of the run depends on. The engine writes a checkpoint here when one is due (every N
   * supersteps or T seconds) and otherwise returns at once. Frontiers in `carry` are saved as
   * they are now (before the next edgeMap consumes them).
   */
  checkpoint(carry: Carry): Promise<void>;
  /**
   * Whether this run writes checkpoints: a driver whose GPU handlers keep state on the device
   * between supersteps (PageRank's contributions) then has it copied back every superstep.
   */
  readonly checkpointing: boolean;
}

export type { OutputKind, Program, AnyProgram } from './define.js';
