#!/usr/bin/env node
/**
 * Replays the performance model of a recorded alpha sweep on any machine (no GPU needed): the
 * model curves of a `tessera bench` results.json are predicted again by this build's model from a
 * recorded calibration cache, and their accuracy against the sweep's measured cells is printed
 * (Pearson r, mean error; src/bench/accuracy.ts). A model change is checked against real-GPU
 * measurements without device time.
 *
 *   node scripts/model-replay.mjs --results R.json --cache calibration.json --graph G.tsr
 *        --threads 16 [--c MSGS_PER_S] [--out DIR]
 *
 * --graph is the sweep's graph as a .tsr (`tessera convert rmat:24 --out G.tsr`); --threads the
 * sweep host's CPU threads (topologies with `threads: auto` are resolved to it, so the cache keys
 * match); --c the link rate in messages/s when the cache has none (a real GPU's link is measured
 * since calibration cache entries of 2026-11-23e; older sweeps used interconnect.bandwidth / 12 B).
 * --out writes DIR/results.json with the replayed curves (then `tessera bench --replot DIR`).
 * --cpu-coord / --gpu-coord F: the coordinator's share (0..1) of the superstep time inside the
 * cached CPU / GPU rates, for caches calibrated before it was measured (2026-11-23f): e.g. from the
 * sweep's CPU-only and GPU-only cells, (run time - the actor's busy time) / run time.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { readTsr } = await dist('src/graph/tsr.js');
const { parseTopology } = await dist('src/topology/parse.js');
const { modelSweep } = await dist('src/model/index.js');
const { modelAccuracy } = await dist('src/bench/accuracy.js');
const { internalId } = await dist('src/engine/output.js');
const { ENGINE_COSTS } = await dist('src/model/cache.js');

const { values: a } = parseArgs({
  options: {
    results: { type: 'string' },
    cache: { type: 'string' },
    graph: { type: 'string' },
    threads: { type: 'string' },
    c: { type: 'string' },
    out: { type: 'string' },
    'cpu-coord': { type: 'string' },
    'gpu-coord': { type: 'string' },
  },
});
for (const k of ['results', 'cache', 'graph', 'threads'])
  if (a[k] === undefined) {
    console.error(`model-replay: --${k} is required (see the header of scripts/model-replay.mjs)`);
    process.exit(2);
  }
const results = JSON.parse(readFileSync(a.results, 'utf8'));
{
  // A copy of the cache: its entries taken as this build's (a replay predicts from the recorded
  // rates; calibrate() would measure entries of another build again), with the coordinator's
  // share added to every entry when given.
  // (No file: the topologies gave every rate; the copy is an empty cache.)
  const cache = existsSync(a.cache) ? JSON.parse(readFileSync(a.cache, 'utf8')) : { version: 3, entries: {} };
  for (const e of Object.values(cache.entries)) {
    e.engine = ENGINE_COSTS;
    if (a['cpu-coord'] !== undefined && e.rCpu !== undefined) e.cpuCoordShare = Number(a['cpu-coord']);
    if (a['gpu-coord'] !== undefined && e.rGpu !== undefined) e.gpuCoordShare = Number(a['gpu-coord']);
  }
  a.cache = path.join(mkdtempSync(path.join(os.tmpdir(), 'tessera-replay-')), 'calibration.json');
  writeFileSync(a.cache, JSON.stringify(cache));
}
const graph = await readTsr(a.graph);
const alphas = [...new Set(results.cells.filter((c) => typeof c.alpha === 'number').map((c) => c.alpha))].sort((x, y) => x - y);
const curves = [];
for (const m of results.modelCurves) {
  const cell = results.cells.find((c) => c.topology === m.topology && c.topologyFile);
  const file = path.resolve(root, cell.topologyFile);
  let text = readFileSync(file, 'utf8');
  if (a.c !== undefined) text += `\nmodel:\n  c: ${Number(a.c)}\n`;
  // parseTopology does not open devices: the sweep host's GPU need not exist here. Its sockets
  // with `threads: auto` get the sweep host's threads after the parse: this machine's cores bound
  // the threads a topology may start (MAX_THREADS_PER_CORE), and a replay starts none.
  const parsed = parseTopology(text, file);
  const auto = (parseYaml(text)?.sockets ?? []).map((x) => x?.threads === undefined || x.threads === 'auto');
  const topology = { ...parsed, sockets: parsed.sockets.map((x, i) => (auto[i] ? { ...x, threads: Number(a.threads) } : x)) };
  const [program, mode] = m.program.split(':');
  const params = results.cells.find((c) => c.program === m.program)?.params ?? {};
  const source = results.graphs?.find((g) => g.id === m.graph)?.source;
  const sweep = await modelSweep(graph, topology, program, {
    steps: 20,
    ...(source !== undefined ? { source: internalId(graph, source) } : {}),
    alphas,
    pagesResident: true,
    ...(mode !== undefined ? { mode } : {}),
    ...(params.iterations !== undefined && (program === 'pr' || program === 'cdlp') ? { passes: params.iterations } : {}),
    // The recorded rates, whatever size this graph is: a replay measures nothing.
    calibrate: { cacheFile: a.cache, graphVertices: undefined },
  });
  curves.push({ ...m, status: 'ok', note: 'replayed', points: sweep.points.map((p) => ({ strategy: p.strategy, alpha: p.prediction.alpha, speedup: p.prediction.speedup, makespanMs: p.prediction.makespanS * 1000, feasible: p.feasible })) });
}
const replayed = { ...results, modelCurves: curves };
for (const [label, r] of [['recorded', results], ['replayed', replayed]])
  for (const acc of modelAccuracy(r))
    console.log(
      `${label} ${acc.topology} ${acc.program}: Pearson ${acc.pearson === null ? '-' : acc.pearson.toFixed(3)}, mean error ${acc.meanAbsError === null ? '-' : (100 * acc.meanAbsError).toFixed(1) + '%'}; ` +
        acc.points.map((p) => `${p.alpha}: ${p.achieved.toFixed(2)}/${p.predicted.toFixed(2)}`).join(' '),
    );
if (a.out !== undefined) {
  mkdirSync(a.out, { recursive: true });
  writeFileSync(path.join(a.out, 'results.json'), JSON.stringify(replayed, null, 1) + '\n');
}
