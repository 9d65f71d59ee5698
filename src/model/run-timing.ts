/** One calibration run: the program on an Engine, its supersteps split into steady passes, first-superstep excess and setup. */
import type { Graph } from '../graph/types.js';
import type { Topology } from '../topology/schema.js';
import type { EngineOptions } from '../engine/coordinator.js';
import type { RunReport } from '../engine/report.js';
import type { ProgramProfile } from './profile.js';

/** What a calibration run measured (seconds; medians over the repetitions). */
export interface RunTiming {
  /** Supersteps' time per pass over the edges (whole run for profile.unit 'run'), x `weight`, first-superstep excess taken out. */
  passS: number;
  /** The first superstep's time beyond a steady superstep of the same kernel (0 when there is none to compare). */
  startS: number;
  /** Run time outside supersteps: allocation, vertex maps, the result. */
  setupS: number;
  /** GPU actors: page bytes copied / copy time in the warm-up run (pages not yet resident). */
  pageBytesPerSec?: number;
  /** GPU actors: the most device bytes a GPU held beside its page cache after the runs (state and scratch), per vertex. */
  stateBytesPerVertex?: number;
  /**
   * The share of the supersteps' time spent on the coordinator's thread outside the slowest vote
   * (the cut before it; folds and the next frontier's list after): inside the rate, paid once per
   * superstep whoever computes (coordShare of model.ts). A share, not seconds per edge: the rate
   * is a slope over two sizes, and its per-edge time is what the share divides.
   */
  coordShare: number;
}

/** The median of a calibration's timings (the upper middle of an even count). */
export function middle(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}

/**
 * One run's split into steady supersteps, first-superstep excess and time outside supersteps:
 * the excess is the first superstep's time over the median of the later supersteps of the same
 * kernel and mode (PageRank's ten iterations; none for a traversal's mixed supersteps).
 */
export function splitRunTime(report: RunReport): { stepsS: number; startS: number; setupS: number } {
  let stepsMs = 0;
  for (const s of report.steps) stepsMs += s.ms;
  const first = report.steps[0];
  let startMs = 0;
  if (first !== undefined) {
    const same = report.steps.slice(1).filter((s) => s.kernel === first.kernel && s.mode === first.mode).map((s) => s.ms);
    if (same.length >= 2) startMs = Math.max(0, first.ms - middle(same));
  }
  return { stepsS: (stepsMs - startMs) / 1000, startS: startMs / 1000, setupS: Math.max(0, report.totalMs - stepsMs) / 1000 };
}

/**
 * Runs the program 1 + `repetitions` times on one Engine (the first warms the JIT, the pools and
 * the device, and copies the GPU's pages) and returns medians of the repetitions' timings
 * (splitRunTime): superstep seconds x `weight` (threads, for per-thread CPU rates) per pass over
 * the graph's edges (edges processed / |E|; the whole run for profile.unit 'run'). Superstep wall
 * time, not the actors' busy time: the coordinator's share of a superstep (frames, folding another
 * memory's results) is part of what a pass costs. Undefined when no run processed any edge.
 */
export async function runTiming(graph: Graph, topology: Topology, engineOpts: EngineOptions, profile: ProgramProfile, repetitions: number, weight: number): Promise<RunTiming | undefined> {
  const { Engine } = await import('../engine/coordinator.js');
  const { findProgram } = await import('../programs/index.js');
  const { prepareRun } = await import('../api.js');
  const program = findProgram(profile.algo);
  // Original id toOriginal[0] is the highest-degree vertex: traversals from it reach the graph's
  // bulk (a sampled source may be isolated on RMAT and process nothing).
  const given = program.profile.calibration?.(graph) ?? program.demoParams?.(graph) ?? {};
  const { params } = prepareRun(graph, program, given);
  const engine = await Engine.create(graph, topology, { ...engineOpts, steal: 'off' });
  const pass: number[] = [];
  const start: number[] = [];
  const setup: number[] = [];
  const coord: number[] = [];
  let pageBytesPerSec: number | undefined;
  let stateBytesPerVertex: number | undefined;
  try {
    for (let r = 0; r <= repetitions; r++) {
      const { report } = await engine.run(program, params);
      if (r === 0) {
        let bytes = 0;
        let ms = 0;
        for (const s of report.steps) for (const a of s.actors) if (a.gpu !== undefined) ((bytes += a.gpu.pageBytes), (ms += a.gpu.copyMs));
        if (bytes > 0 && ms > 0) pageBytesPerSec = bytes / (ms / 1000);
        continue;
      }
      const edges = report.edgesProcessed;
      const t = splitRunTime(report);
      if (t.stepsS > 0 && edges > 0) {
        pass.push((profile.unit === 'run' ? t.stepsS : t.stepsS / (edges / graph.numEdges)) * weight);
        start.push(t.startS);
        setup.push(t.setupS);
        let coordMs = 0;
        let stepMs = 0;
        for (const s of report.steps) {
          stepMs += s.ms;
          coordMs += Math.max(0, s.ms - Math.max(0, ...s.actors.map((a) => a.voteMs)));
        }
        coord.push(stepMs > 0 ? coordMs / stepMs : 0);
      }
    }
    const held = Math.max(0, ...(await engine.gpuStateBytes()));
    if (held > 0) stateBytesPerVertex = held / graph.numVertices;
  } finally {
    await engine.close();
  }
  if (pass.length === 0) return undefined;
  return {
    passS: middle(pass),
    startS: middle(start),
    setupS: middle(setup),
    coordShare: middle(coord),
    ...(pageBytesPerSec !== undefined ? { pageBytesPerSec } : {}),
    ...(stateBytesPerVertex !== undefined ? { stateBytesPerVertex } : {}),
  };
}
