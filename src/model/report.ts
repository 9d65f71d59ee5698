/**
 * The model beside the measurement (DESIGN.md "The model": every run reports the prediction
 * beside the measurement, so its error is visible; TOTEM Fig. 7 predicted vs achieved, Fig. 8
 * per-element compute / communication breakdown). Built from a chosen sweep point and, once the
 * run is done, its RunReport.
 */
import type { RunReport } from '../engine/report.js';
import type { ResolvedRates } from './calibrate.js';
import type { MultiGpu, Strategy, SweepPoint } from './partition.js';

export interface ModelActorLine {
  actor: string;
  kind: 'cpu' | 'gpu';
  edges: number;
  predictedComputeMs: number;
  predictedTransferMs: number;
  predictedStreamMs: number;
  /** From the run report (sum over supersteps), when there is one. */
  measuredComputeMs?: number;
  measuredEdges?: number;
}

export interface ModelSummary {
  strategy: Strategy;
  /** Several GPUs: one range each ('p') or dealt pages ('s'). */
  multiGpu: MultiGpu;
  /** The alpha asked for and the alpha as cut into pages. */
  alphaRequested: number;
  alpha: number;
  beta: number;
  betaRaw: number;
  predictedMs: number;
  predictedSpeedup: number;
  cpuOnlyMs: number;
  rates: { rCpu: number; rGpu: number | null; c: number | null; sources: string };
  actors: ModelActorLine[];
  measuredMs?: number;
  /** Messages after aggregation over edges processed, as the actors reported them. */
  measuredBeta?: number;
  /** (measured - predicted) / measured. */
  error?: number;
  /** cpuOnlyMs predicted over measuredMs: the speedup the run achieved if the CPU-only prediction holds. */
  achievedSpeedupVsPredictedCpu?: number;
}

/** Messages crossing memories after aggregation per processed edge, from a run report. */
export function measuredBeta(r: RunReport): number {
  let msgs = 0;
  let edges = 0;
  for (const s of r.steps) {
    edges += s.edges;
    for (const a of s.actors) msgs += a.messagesAggregated;
  }
  return edges > 0 ? msgs / edges : 0;
}

/** The `model` section of a run report: the chosen point, its rates, and the measurement if given. */
export function modelSummary(point: SweepPoint, rates: ResolvedRates, report?: RunReport): ModelSummary {
  const p = point.prediction;
  const actors: ModelActorLine[] = p.elements.map((e) => ({
    actor: e.name,
    kind: e.kind,
    edges: e.edges,
    predictedComputeMs: e.computeS * 1000,
    predictedTransferMs: e.transferS * 1000,
    predictedStreamMs: e.streamS * 1000,
  }));
  const out: ModelSummary = {
    strategy: point.strategy,
    multiGpu: point.multiGpu,
    alphaRequested: point.alphaRequested,
    alpha: p.alpha,
    beta: p.beta,
    betaRaw: point.betaRaw,
    predictedMs: p.makespanS * 1000,
    predictedSpeedup: p.speedup,
    cpuOnlyMs: p.cpuOnlyS * 1000,
    rates: {
      rCpu: rates.rCpu.value,
      rGpu: rates.rGpu?.value ?? null,
      c: rates.c?.value ?? null,
      sources: [`rCpu ${rates.rCpu.source}`, rates.rGpu ? `rGpu ${rates.rGpu.source}` : '', rates.c ? `c ${rates.c.source}` : ''].filter(Boolean).join(', '),
    },
    actors,
  };
  if (report !== undefined) {
    const per = new Map<string, { ms: number; edges: number }>();
    for (const s of report.steps)
      for (const a of s.actors) {
        const t = per.get(a.actor) ?? { ms: 0, edges: 0 };
        t.ms += a.computeMs;
        t.edges += a.edges;
        per.set(a.actor, t);
      }
    for (const a of actors) {
      const m = per.get(a.actor);
      if (m) ((a.measuredComputeMs = m.ms), (a.measuredEdges = m.edges));
    }
    out.measuredMs = report.totalMs;
    out.measuredBeta = measuredBeta(report);
    if (report.totalMs > 0) {
      out.error = (report.totalMs - out.predictedMs) / report.totalMs;
      out.achievedSpeedupVsPredictedCpu = out.cpuOnlyMs / report.totalMs;
    }
  }
  return out;
}
