/**
 * How well the performance model predicts (TOTEM Fig. 7; issue 7's accuracy targets): for each
 * graph x topology x program swept over alpha, the achieved speed-up of every cell (CPU-only
 * median / cell median) beside the model's predicted speed-up at the alpha the cell asked for
 * (the split the engine applied; the curve of the strategy the cells ran, `partition:` in the
 * config, HIGH by default; linear between grid points); then the
 * Pearson correlation of the two and the mean absolute error relative to the achieved value.
 * Not at the CPU share of the edges the run processed (`measuredShare`, kept): that equals alpha
 * for PageRank without stealing, but BFS's supersteps walk only part of the edges, and not in
 * proportion to the split, while the model's alpha is the split.
 */
import { mean, sampleCorrelation } from 'simple-statistics';
import type { BenchResults } from './schema.js';

export interface AchievedPoint {
  graph: string;
  topology: string;
  program: string;
  /** The alpha the cell asked for (the CPU share of the edges in the split). */
  alpha: number;
  /** CPU share of the edges the run processed (measured). */
  measuredShare: number;
  speedup: number;
}

export interface ModelAccuracy {
  graph: string;
  topology: string;
  program: string;
  points: Array<{ alpha: number; achieved: number; predicted: number }>;
  /** Null with fewer than 3 points or no spread. */
  pearson: number | null;
  /** mean |predicted - achieved| / achieved. */
  meanAbsError: number | null;
}

const medianOf = (xs: number[]): number | null => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1]! : null);

/** Achieved speed-up of every alpha cell over its CPU-only baseline cell. */
export function achievedSpeedups(r: BenchResults): AchievedPoint[] {
  const out: AchievedPoint[] = [];
  for (const c of r.cells) {
    if (typeof c.alpha !== 'number' || c.status !== 'ok' || !c.time) continue;
    const measuredShare = medianOf(c.samples.map((s) => s.cpuEdgeShare).filter((x): x is number => typeof x === 'number'));
    const base = r.cells.find((b) => b.status === 'ok' && b.time && b.graph === c.graph && b.program === c.program && b.topology === `${c.topology} (CPU only)`);
    if (measuredShare === null || !base) continue;
    out.push({ graph: c.graph, topology: c.topology, program: c.program, alpha: c.alpha, measuredShare, speedup: base.time!.median / c.time.median });
  }
  return out;
}

/** y at x on a polyline given by points sorted by x (clamped at the ends). */
function interpolate(pts: Array<{ alpha: number; speedup: number }>, x: number): number {
  if (x <= pts[0]!.alpha) return pts[0]!.speedup;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1]!;
    const b = pts[i]!;
    if (x <= b.alpha) return b.alpha === a.alpha ? b.speedup : a.speedup + ((x - a.alpha) / (b.alpha - a.alpha)) * (b.speedup - a.speedup);
  }
  return pts[pts.length - 1]!.speedup;
}

/** Pearson r and mean relative error of predicted vs achieved speed-up ({null, null} when undefined). */
export function accuracyOf(points: Array<{ achieved: number; predicted: number }>): { pearson: number | null; meanAbsError: number | null } {
  if (points.length === 0) return { pearson: null, meanAbsError: null };
  const meanAbsError = mean(points.map((p) => Math.abs(p.predicted - p.achieved) / p.achieved));
  if (points.length < 3) return { pearson: null, meanAbsError };
  const r = sampleCorrelation(
    points.map((p) => p.achieved),
    points.map((p) => p.predicted),
  );
  return { pearson: Number.isFinite(r) ? r : null, meanAbsError };
}

export function modelAccuracy(r: BenchResults): ModelAccuracy[] {
  const groups = new Map<string, AchievedPoint[]>();
  for (const p of achievedSpeedups(r)) {
    const k = `${p.graph}|${p.topology}|${p.program}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  const out: ModelAccuracy[] = [];
  const strategy = r.config?.partition ?? 'high';
  for (const pts of groups.values()) {
    const { graph, topology, program } = pts[0]!;
    const curve = r.modelCurves.find((m) => m.status === 'ok' && m.graph === graph && m.topology === topology && m.program === program);
    const ran = (curve?.points ?? []).filter((p) => p.feasible && p.strategy.toLowerCase() === strategy).sort((a, b) => a.alpha - b.alpha);
    if (ran.length === 0) continue;
    const points = pts.map((p) => ({ alpha: p.alpha, achieved: p.speedup, predicted: interpolate(ran, p.alpha) })).sort((a, b) => a.alpha - b.alpha);
    out.push({ graph, topology, program, points, ...accuracyOf(points) });
  }
  return out;
}

export interface AutoVsBest {
  graph: string;
  topology: string;
  program: string;
  /** The alpha the model chose (from the run reports), null when they carry none. */
  autoAlpha: number | null;
  autoMs: number;
  bestAlpha: number;
  bestMs: number;
  /** auto median / best swept median (issue 7: within 10%, i.e. <= 1.1). */
  ratio: number;
}

/** The `alphas: [auto]` cell of each graph x topology x program beside the fastest swept alpha. */
export function autoVsBest(r: BenchResults): AutoVsBest[] {
  const out: AutoVsBest[] = [];
  for (const c of r.cells) {
    if (c.alpha !== 'auto' || c.status !== 'ok' || !c.time) continue;
    const swept = r.cells.filter((b) => typeof b.alpha === 'number' && b.status === 'ok' && b.time && b.graph === c.graph && b.topology === c.topology && b.program === c.program);
    if (swept.length === 0) continue;
    const best = swept.reduce((a, b) => (b.time!.median < a.time!.median ? b : a));
    out.push({
      graph: c.graph,
      topology: c.topology,
      program: c.program,
      autoAlpha: medianOf(c.samples.map((s) => s.model?.alpha).filter((x): x is number => typeof x === 'number')),
      autoMs: c.time.median,
      bestAlpha: best.alpha as number,
      bestMs: best.time!.median,
      ratio: c.time.median / best.time!.median,
    });
  }
  return out;
}
