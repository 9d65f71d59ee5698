/**
 * RunContext.team's engine side: when a run may run a kernel as a team (teamworkOf), and a team of
 * one on the coordinator's thread for a graph too small to be worth waking the socket's threads.
 */
import { faults } from './faults.js';
import { TeamView, teamBuffer } from './team.js';
import { kernelThrew } from './run-tasks.js';
import type { CpuKernel, KernelCtx, TaskOut } from './kernel.js';
import type { Task, VoteFrame } from '../wire/frames.js';
import type { Graph } from '../graph/types.js';

/** A team over a graph of at most this many vertices plus edges runs on the coordinator's thread. */
const INLINE_TEAM = 1 << 18;

/** Why a run cannot run a team now (undefined: it can). */
export function noTeamwork(e: { cpuCount: number; hasGpus: boolean; graph: Graph; ganged: boolean; teams: boolean }, checkpointing: boolean, forced: boolean): string | undefined {
  if (!e.teams) return 'the engine was made with teams off (EngineOptions.teams: false, or TESSERA_TEAM=0)';
  if (!e.ganged) return 'TESSERA_GANG=0 turned off the socket threads\' gang a team runs on';
  if (e.hasGpus) return 'the topology has GPU actors';
  if (e.cpuCount !== 1) return 'the topology has several CPU sockets';
  if (e.graph.out.stored !== undefined || e.graph.in.stored !== undefined) return 'the graph\'s pages are read from disk superstep by superstep';
  if (checkpointing) return 'the run writes checkpoints (between supersteps)';
  if (forced) return 'the run is told to use one mode';
  // Injected worker faults name supersteps of the superstep path.
  if (faults().some((f) => f.kind === 'worker-exit' || f.kind === 'worker-throw')) return 'TESSERA_FAULT injects worker faults';
  return undefined;
}

/** Whether a team runs as a team of one on this thread (engine.inlineSuperstep). */
export function inlineTeam(g: Graph): boolean {
  return g.numVertices + g.numEdges <= INLINE_TEAM;
}

/** The kernel's team run alone on this thread over `tasks`, voted as the socket would. */
export function runTeamInline(kernel: CpuKernel, ctx: KernelCtx, tasks: readonly Task[], actor: string, step: number, kernelName = 'team'): VoteFrame {
  const t0 = performance.now();
  const team = new TeamView(teamBuffer(1), 1, tasks.length, (i) => tasks[i]!);
  const out: TaskOut = { active: 0, sum: 0, edges: 0, discovered: undefined };
  try {
    kernel.team!(ctx, team, out);
  } catch (e) {
    throw kernelThrew(kernelName, 'team', e);
  }
  const ms = performance.now() - t0;
  return { type: 'vote', actor, step, active: out.active, sum: out.sum, ...(out.sum !== 0 ? { sums: Float64Array.of(out.sum) } : {}), edges: out.edges, tasks: 1, stolen: 0, stolenEdges: 0, computeMs: ms, busyMs: ms, discovered: undefined };
}
