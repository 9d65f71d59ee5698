/** results.md: machine, graphs, one row per cell, peer ratios, model/alpha status, plots. */
import { markdownTable } from 'markdown-table';
import { compact } from '../format.js';
import { autoVsBest, modelAccuracy } from './accuracy.js';
import { summarize, type BenchResults, type Cell, type Stat } from './schema.js';

export interface PlotFile {
  file: string;
  title: string;
  /** One paragraph: what the axes and marks mean. */
  howToRead: string;
}

const num = compact;
const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const statMs = (s: Stat | null): string => (s ? `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})` : '—');
const statTeps = (s: Stat | null): string => (s ? `${num(s.median)} (${num(s.min)}–${num(s.max)})` : '—');
const mib = (b: number | null): string => (b === null ? '—' : `${(b / 2 ** 20).toFixed(0)}`);
const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Median predicted time over a cell's samples, when the run reports carried one. */
export function predictedMs(c: Cell): number | null {
  const xs = c.samples.map((s) => s.model?.predictedMs).filter((x): x is number => typeof x === 'number');
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Peer time / tessera time for each (graph, program, peer, tessera topology) where both ran. */
export function peerRatios(r: BenchResults): Array<{ graph: string; program: string; peer: string; topology: string; peerMs: number; tesseraMs: number; ratio: number }> {
  const out = [];
  for (const p of r.cells) {
    if (p.engine === 'tessera' || p.status !== 'ok' || !p.time) continue;
    for (const t of r.cells) {
      if (t.engine !== 'tessera' || t.status !== 'ok' || !t.time || t.alpha !== null || t.graph !== p.graph || t.program !== p.program) continue;
      out.push({ graph: p.graph, program: p.program, peer: p.topology, topology: t.topology, peerMs: p.time.median, tesseraMs: t.time.median, ratio: p.time.median / t.time.median });
    }
  }
  return out;
}

/** A Markdown table (markdown-table), cells as given (already escaped), compact delimiters. */
function table(header: string[], rows: Array<Array<string | number | boolean>>): string {
  return markdownTable([header, ...rows.map((r) => r.map(String))], { alignDelimiters: false });
}

export function renderMarkdown(r: BenchResults, plots: PlotFile[]): string {
  const L: string[] = [];
  const m = r.machine;
  L.push(`# tessera benchmark: ${r.config.name}`, '');
  L.push(`Status: **${r.status}**; started ${r.startedAt}${r.finishedAt ? `, finished ${r.finishedAt}` : ''}. Config: \`${r.config.file}\`.`);
  L.push(`${r.config.warmup} warm-up run(s) per cell (excluded), then ${r.config.repetitions} measured; each cell runs in its own process; tessera's cells hand each run's result back to the engine before the next (Engine.recycle).`, '');
  L.push(
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, GPUs: ${m.gpus.length ? m.gpus.join('; ') : 'none'}; ` +
      `Node ${m.node}, ${m.platform}; tessera ${m.tesseraRevision ? m.tesseraRevision.slice(0, 12) + (m.tesseraDirty ? ' (uncommitted changes)' : '') : 'revision unknown'}.`,
    '',
  );
  L.push('## Peers', '');
  for (const p of r.peers) L.push(`- **${p.name}**: ${p.status}${p.path ? ` (${p.path})` : ''}${p.note ? ` — ${p.note}` : ''}`);
  L.push('');

  L.push('## Graphs', '', table(['graph', 'vertices', 'edges (stored arcs)', 'directed', 'weighted', 'build ms', 'build peak RSS MiB', 'source vertex'], r.graphs.map((g) => [esc(g.id), g.vertices, g.edges, g.directed, g.weighted, ms(g.buildMs), mib(g.buildPeakRssBytes), g.source])));
  L.push('');

  L.push('## Cells', '');
  L.push('Time is compute time of one run, median (min–max) over the measured runs; TEPS = processed edges / time (peers: tessera’s processed edges on the same graph and program, so TEPS ratios equal time ratios). Load = reading the prepared graph (peers: plus building their own structure); set-up = starting the actors.', '');
  L.push(
    table(
      ['graph', 'program', 'engine', 'topology', 'threads', 'α', 'time ms', 'TEPS', 'load ms', 'set-up ms', 'peak RSS MiB', 'model ms', 'status'],
      r.cells.map((c) => {
        const pred = predictedMs(c);
        return [esc(c.graph), c.program, c.engine, esc(c.topology), c.threads, c.alpha ?? '—', statMs(c.time), statTeps(c.teps), c.loadMs === null ? '—' : ms(c.loadMs), c.setupMs === null ? '—' : ms(c.setupMs), mib(c.peakRssBytes), pred === null ? '—' : ms(pred), `${c.status}${c.note ? `: ${esc(c.note)}` : ''}`];
      }),
    ),
  );
  L.push('');

  const ratios = peerRatios(r);
  L.push('## Peers on the same graphs', '');
  if (ratios.length === 0) L.push('No peer ran on a graph that tessera also ran (see "Peers" for why).');
  else {
    L.push('Ratio = peer time ÷ tessera time (median over the measured runs): above 1, tessera is faster.', '');
    L.push(table(['graph', 'program', 'peer', 'peer ms', 'tessera topology', 'tessera ms', 'ratio'], ratios.map((x) => [esc(x.graph), x.program, esc(x.peer), ms(x.peerMs), esc(x.topology), ms(x.tesseraMs), `${x.ratio.toFixed(2)}×`])));
  }
  L.push('');
  // Quality beside speed where the runs report it (louvain: tessera's note, graphology's `detailed`).
  const quality = r.cells.flatMap((c) => {
    const q = summarize(c.samples.map((s) => s.notes?.modularity).filter((x): x is number => typeof x === 'number'));
    return q === null ? [] : [[esc(c.graph), c.program, c.engine, esc(c.topology), q.median.toFixed(4), `${q.min.toFixed(4)}–${q.max.toFixed(4)}`]];
  });
  if (quality.length > 0) L.push('## Modularity', '', 'Modularity of each measured run’s result (networkx’s formula on the undirected view): median (min–max).', '', table(['graph', 'program', 'engine', 'topology', 'modularity', 'min–max'], quality), '');

  L.push('## Performance model', '');
  const withModel = r.cells.filter((c) => predictedMs(c) !== null);
  if (withModel.length === 0) L.push('No run report carried a model prediction (`report.model.predictedMs`), so the "model ms" column is empty: nothing is estimated here.');
  else L.push(`${withModel.length} cell(s) carry the engine’s model prediction beside the measurement ("model ms").`);
  const alphaCells = r.cells.filter((c) => c.alpha !== null && c.status === 'ok');
  if (r.config.alphas.length === 0) L.push('', 'No alpha sweep was configured (`alphas:` in the config), so there is no speed-up-vs-alpha plot.');
  else if (alphaCells.length === 0) L.push('', 'No alpha sweep data: no CPU+GPU topology cell ran with an alpha, so the speed-up-vs-alpha plot is not drawn.');
  const acc = modelAccuracy(r);
  if (acc.length > 0) {
    L.push('', `Model accuracy over the alpha sweep (achieved vs predicted speed-up on the ${(r.config?.partition ?? 'high').toUpperCase()} curve, the strategy the alpha cells ran; targets: Pearson >= 0.9, mean error <= 20%):`, '');
    L.push(table(['graph', 'topology', 'program', 'points', 'Pearson r', 'mean abs. error'], acc.map((a) => [esc(a.graph), esc(a.topology), a.program, a.points.length, a.pearson === null ? '—' : a.pearson.toFixed(3), a.meanAbsError === null ? '—' : `${(100 * a.meanAbsError).toFixed(1)}%`])));
  }
  const auto = autoVsBest(r);
  if (auto.length > 0) {
    L.push('', 'The model’s own split (`alpha: auto`, as `tessera run --alpha auto`) against the fastest swept alpha (target: within 10%):', '');
    L.push(table(['graph', 'topology', 'program', 'auto: alpha chosen', 'auto ms', 'best swept alpha', 'its ms', 'auto / best'], auto.map((a) => [esc(a.graph), esc(a.topology), a.program, a.autoAlpha === null ? '—' : a.autoAlpha.toFixed(3), a.autoMs.toFixed(0), a.bestAlpha, a.bestMs.toFixed(0), a.ratio.toFixed(2)])));
  }
  for (const m of r.modelCurves) {
    if (m.status === 'ok') L.push('', `Model curve for ${m.program} on ${m.graph}, ${m.topology}: ${m.points.length} predicted points (src/model modelSweep).`);
    else L.push('', `No model curve for ${m.program} on ${m.graph}, ${m.topology}: ${m.note}`);
  }
  L.push('');

  if (plots.length > 0) {
    L.push('## Plots', '');
    for (const p of plots) L.push(`### ${p.title}`, '', `![${p.title}](${p.file})`, '', p.howToRead, '');
  }
  return L.join('\n') + '\n';
}
