/**
 * SVG plots of a sweep, drawn with Vega-Lite (compiled to Vega and rendered headless by
 * `View.toSVG()`, no canvas or DOM needed): throughput vs scale per topology, speed-up vs alpha
 * (predicted and achieved; only when the run reports carry alpha), per-actor time breakdown.
 */
import path from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import writeFileAtomic from 'write-file-atomic';
import type { PlotFile } from './markdown.js';
import { achievedSpeedups } from './accuracy.js';
import type { BenchResults, Cell, Sample } from './schema.js';

const FONT = { font: 'Helvetica, Arial, sans-serif', labelFont: 'Helvetica, Arial, sans-serif', titleFont: 'Helvetica, Arial, sans-serif' };

/** Renders a Vega-Lite spec to an SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The measured run whose time is the median (the one the per-actor bars show). */
export function medianSample(c: Cell): Sample | null {
  if (c.samples.length === 0) return null;
  const s = [...c.samples].sort((a, b) => a.ms - b.ms);
  return s[(s.length - 1) >> 1]!;
}

const series = (c: Cell): string => (c.engine === 'tessera' ? `tessera ${c.topology}` : c.topology);

export function throughputSpec(r: BenchResults): TopLevelSpec | null {
  const kind = new Map(r.graphs.map((g) => [g.id, g]));
  const rows = r.cells
    .filter((c) => c.status === 'ok' && c.teps && c.alpha === null && kind.get(c.graph)?.scale != null)
    .map((c) => ({ scale: kind.get(c.graph)!.scale, generator: kind.get(c.graph)!.kind, program: c.program, series: series(c), teps: c.teps!.median, lo: c.teps!.min, hi: c.teps!.max }));
  if (rows.length === 0) return null;
  const x = { field: 'scale', type: 'quantitative', title: 'graph scale (2^scale vertices)', scale: { zero: false }, axis: { tickMinStep: 1, format: 'd' } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Throughput vs graph scale', subtitle: 'median TEPS per program; bars span min–max of the measured runs' },
    data: { values: rows },
    facet: { column: { field: 'series', type: 'nominal', title: null, sort: [...new Set(rows.map((x) => x.series))] } },
    spec: {
      width: 190,
      height: 220,
      layer: [
        {
          mark: { type: 'line', point: true },
          encoding: {
            x,
            y: { field: 'teps', type: 'quantitative', title: 'TEPS (edges processed / s)', scale: { type: 'log' }, axis: { format: '~s' } },
            color: { field: 'program', type: 'nominal', title: 'program' },
            // Line style tells RMAT from uniform graphs, when both were swept.
            ...(new Set(rows.map((x) => x.generator)).size > 1 ? { strokeDash: { field: 'generator', type: 'nominal', title: 'generator' } } : {}),
            tooltip: [{ field: 'program' }, { field: 'scale' }, { field: 'teps', format: '.3s' }],
          },
        },
        { mark: { type: 'rule' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: { field: 'program', type: 'nominal' } } },
      ],
    },
    config: FONT,
  };
}

/**
 * Speed-up over the host-only baseline vs alpha (TOTEM Fig. 7): achieved = baseline median time /
 * cell median time at the alpha the cell asked for (the split); predicted = the model's curve per
 * partition strategy (feasible points only). Null when no alpha cell ran.
 */
export function alphaSpec(r: BenchResults): TopLevelSpec | null {
  const rows: Array<{ panel: string; program: string; alpha: number; speedup: number; curve: string }> = [];
  const panels = new Set<string>();
  for (const p of achievedSpeedups(r)) {
    const panel = `${p.graph} on ${p.topology}`;
    panels.add(`${panel}|${p.program}`);
    rows.push({ panel, program: p.program, alpha: p.alpha, speedup: p.speedup, curve: 'achieved (measured)' });
  }
  if (rows.length === 0) return null;
  for (const m of r.modelCurves) {
    const panel = `${m.graph} on ${m.topology}`;
    if (m.status !== 'ok' || !panels.has(`${panel}|${m.program}`)) continue;
    for (const p of m.points) if (p.feasible) rows.push({ panel, program: m.program, alpha: p.alpha, speedup: p.speedup, curve: `predicted (${p.strategy})` });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Speed-up vs alpha (share of edges on the CPU)', subtitle: 'over the same sockets without GPUs; achieved at the split asked for, predicted by the model (TOTEM Fig. 7)' },
    data: { values: rows },
    facet: { column: { field: 'program', type: 'nominal', title: null }, row: { field: 'panel', type: 'nominal', title: null } },
    spec: {
      width: 180,
      height: 180,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'alpha', type: 'quantitative', title: 'alpha (CPU share of edges)', scale: { domain: [0, 1] } },
        y: { field: 'speedup', type: 'quantitative', title: 'speed-up (×)' },
        color: { field: 'curve', type: 'nominal', title: null },
        strokeDash: { field: 'curve', type: 'nominal', title: null },
        order: { field: 'alpha', type: 'quantitative' },
      },
    },
    config: FONT,
  };
}

/** Per-actor busy (compute) and idle time of the median run, for the largest graph. */
export function actorSpec(r: BenchResults): TopLevelSpec | null {
  const ok = r.cells.filter((c) => c.engine === 'tessera' && c.status === 'ok' && c.alpha === null && c.samples.length > 0);
  if (ok.length === 0) return null;
  const edges = new Map(r.graphs.map((g) => [g.id, g.edges]));
  const graph = ok.reduce((best, c) => ((edges.get(c.graph) ?? 0) > (edges.get(best) ?? 0) ? c.graph : best), ok[0]!.graph);
  const rows: Array<{ topology: string; program: string; actor: string; phase: string; ms: number }> = [];
  for (const c of ok.filter((x) => x.graph === graph)) {
    const s = medianSample(c)!;
    for (const a of s.actors) {
      rows.push({ topology: c.topology, program: c.program, actor: `${a.actor} (${a.kind})`, phase: 'compute', ms: a.computeMs });
      rows.push({ topology: c.topology, program: c.program, actor: `${a.actor} (${a.kind})`, phase: 'idle', ms: Math.max(0, s.ms - a.computeMs) });
    }
  }
  if (rows.length === 0) return null;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `Per-actor time breakdown on ${graph}`, subtitle: 'median run; compute = the actor’s wall time inside supersteps, idle = the rest of the run' },
    data: { values: rows },
    facet: { column: { field: 'program', type: 'nominal', title: null }, row: { field: 'topology', type: 'nominal', title: null } },
    // 1S has one actor, 2S two: each panel gets its own actors (x) and its own time range (y).
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width: 90,
      height: 120,
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'actor', type: 'nominal', title: null, axis: { labelAngle: -40 } },
        y: { field: 'ms', type: 'quantitative', title: 'ms', stack: 'zero' },
        color: { field: 'phase', type: 'nominal', title: null, scale: { range: ['#4c78a8', '#d8d8d8'] } },
        order: { field: 'phase', sort: 'ascending' },
      },
    },
    config: FONT,
  };
}

/** Writes the plots that have data into `dir`; returns what was drawn, for results.md. */
export async function renderPlots(r: BenchResults, dir: string): Promise<PlotFile[]> {
  const plots: Array<PlotFile & { spec: TopLevelSpec | null }> = [
    {
      file: 'throughput.svg',
      title: 'Throughput vs scale',
      spec: throughputSpec(r),
      howToRead:
        'One panel per topology (and per peer). x: RMAT/uniform scale (2^scale vertices, 16 edges per vertex); y: median TEPS on a log axis, one line per program; ' +
        'the vertical bar at each point spans the slowest to the fastest measured run. A flat line means the engine keeps its throughput as the graph grows; ' +
        'panels side by side compare topologies on the same graphs.',
    },
    {
      file: 'speedup-alpha.svg',
      title: 'Speed-up vs alpha',
      spec: alphaSpec(r),
      howToRead: 'x: alpha, the share of edges the CPU handles; y: speed-up over the same sockets without GPUs (above 1: the GPUs help). One line is achieved (measured runs, at the CPU edge share each run measured); the others are the model’s predictions per partition strategy. The gap between them is the model’s error.',
    },
    {
      file: 'actors.svg',
      title: 'Per-actor time breakdown',
      spec: actorSpec(r),
      howToRead: 'For the largest graph, one bar per actor: blue = wall time the actor spent computing its share of each superstep (summed), grey = the rest of the run (waiting for other actors or the coordinator). Equal blue bars mean the work is balanced.',
    },
  ];
  const drawn: PlotFile[] = [];
  for (const p of plots) {
    if (p.spec === null) continue;
    await writeFileAtomic(path.join(dir, p.file), await renderSvg(p.spec));
    drawn.push({ file: p.file, title: p.title, howToRead: p.howToRead });
  }
  return drawn;
}
