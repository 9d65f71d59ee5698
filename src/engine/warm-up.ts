/**
 * A session's first run pays for JavaScript no thread has run yet: the run's setup, a team's
 * dispatch through the gang, the workers' step, the votes and the report each start in V8's
 * interpreter and are compiled as they warm up. An engine told which programs it will run
 * (EngineOptions.preload) runs this program once while it starts, one team step of a kernel that
 * only meets its team, so that a session's first run takes those paths warm (issue 21: a first run
 * within 1.5x of the warm median). It writes no state, and no progress event leaves the engine.
 */
import { defineProgram } from './define.js';
import { EventEmitter } from 'eventemitter3';
import type { Engine } from './coordinator.js';
import type { EngineEvents } from './engine-options.js';
import { faults } from './faults.js';
import { warmPools } from './pools.js';
import type { AnyProgram } from './define.js';
import { UNREAD_OUTPUT } from './call-checks.js';

export const warmUp = defineProgram({
  name: 'warm-up',
  summary: "one team step of a kernel that only meets its team (Engine.create's warm-up)",
  params: {},
  state: {},
  output: 'int',
  kernels: new URL('./warm-up-kernels.js', import.meta.url),
  profile: { mode: 'pull', stateBytesPerVertex: 0, passes: 1, unit: 'run', vertexTerm: false },
  async run(ctx) {
    await ctx.team('meet', {});
    return new Int32Array(0);
  },
});

/**
 * Rounds of warmUpGpu's two supersteps in an engine for several runs (EngineOptions.runs). V8
 * compiles a function after many calls: after one round a GPU-only wcc run's first kernel call
 * came 2.2-4.0 ms into a session's first run (later runs 0.6-1.3), after 6 or 12 rounds 1.4-2.4
 * (bench/results/h200-2026-11-29-warm-reps); a round costs create ~3 ms.
 */
export const GPU_WARM_ROUNDS = 6;

/**
 * On a topology with GPU actors (no teams there): rounds of two supersteps of a kernel that does
 * nothing, a push from vertex 0 and a pull over every vertex (GPU-only where GPUs own every vertex,
 * as bfs's levels and wcc's Afforest run), through the run's setup, the coordinator's superstep,
 * the frames both ways and the GPU actor's dispatch: on an H200, GPU-only, a first run had ~6 ms
 * of cold JavaScript before its first kernel.
 */
export const warmUpGpu = defineProgram({
  name: 'warm-up-gpu',
  summary: "rounds of two supersteps of a kernel that does nothing, through the GPU actors (Engine.create's warm-up)",
  params: { rounds: { type: 'int', default: GPU_WARM_ROUNDS, min: 1, description: 'rounds of the two supersteps' } },
  state: {},
  output: 'int',
  kernels: new URL('./warm-up-kernels.js', import.meta.url),
  gpu: new URL('./warm-up-gpu.js', import.meta.url),
  profile: { mode: 'pull', stateBytesPerVertex: 0, passes: 1, unit: 'run', vertexTerm: false },
  readsWeights: false,
  async run(ctx, { rounds }) {
    if (ctx.graph.numVertices === 0) return new Int32Array(0);
    const only = ctx.gpusOwnAll ? { gpuOnly: true } : {};
    for (let r = 0; r < rounds; r++) {
      const from = ctx.frontierOf([0]);
      const { next } = await ctx.edgeMap('touch', from, {}, {}, { modes: ['push'], ...only });
      ctx.release(next);
      ctx.release(from);
      // The device reads every page in the last round only (just before the first run).
      const all = await ctx.edgeMap('touch', ctx.all(), {}, r < rounds - 1 ? { onePage: 1 } : {}, { modes: ['pull'], ...only });
      ctx.release(all.next);
    }
    return new Int32Array(0);
  },
});

UNREAD_OUTPUT.add(warmUp).add(warmUpGpu);

/**
 * Runs the warm-up that fits `e` (Engine.create, with programs preloaded): warmUp where its runs
 * may run teams, warmUpGpu where it has GPU actors (not while TESSERA_FAULT injects worker faults:
 * they name the supersteps of a run, and its socket threads take the warm-up's pull too), else
 * none. What it costs is the engine's start.
 */
export async function warmEngine(e: Engine, teams: boolean, runs: 'one' | 'many' = 'many'): Promise<void> {
  const workerFaults = faults().some((f) => f.kind === 'worker-exit' || f.kind === 'worker-throw');
  const program = teams ? warmUp : e.topology.gpus.length > 0 && !workerFaults ? warmUpGpu : undefined;
  if (program === undefined) return;
  e.progress = new EventEmitter<EngineEvents>();
  try {
    await e.run(program, program === warmUpGpu ? { rounds: runs === 'one' ? 1 : GPU_WARM_ROUNDS } : {});
  } finally {
    e.progress = e.events;
  }
}

/**
 * What Engine.create does for the programs it is told it will run (EngineOptions.preload): their
 * per-graph work (the definition's `warm`: sssp's weight check), the pools filled ahead, a first
 * run's dense tasks planned (cached: 1-1.4 ms of a first run on the 2-core box) and the warm-up run.
 */
export async function warmStart(e: Engine, preload: readonly AnyProgram[], teams: boolean, runs: 'one' | 'many' = 'many'): Promise<void> {
  for (const p of preload) p.warm?.(e.graph);
  warmPools(e, preload, teams);
  if (preload.length > 0 && e.cpuCount > 0) (e.denseShares('in'), e.denseShares('in', false, true), await warmEngine(e, teams, runs));
  // The results' arrays warmPools locks on a GPU's side thread: done before a run could meet it.
  await e.pinned?.settled();
}
