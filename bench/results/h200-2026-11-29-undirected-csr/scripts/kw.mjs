// One engine (one socket, every thread of the host, or with GPU=1 a GPU owning every vertex beside it), kcore preloaded, N runs on a .tsr: each run's ms, the median of runs 2..N, the view's supersteps and peel rounds of the last run.
// ROOT: the build's root (default: here). Usage: node kw.mjs graph.tsr [runs]
import os from 'node:os';
const R = process.env.ROOT ?? process.cwd();
const { loadGraph } = await import(R + '/dist/src/graph/load.js');
const { Engine } = await import(R + '/dist/src/engine/coordinator.js');
const { prepareRun } = await import(R + '/dist/src/api.js');
const { kcore } = await import(R + '/dist/src/programs/index.js');
const { graph } = await loadGraph(process.argv[2], {});
const runs = Number(process.argv[3] ?? 6);
const gpu = process.env.GPU === '1';
const topology = { name: gpu ? '1S1G' : '1S', source: 'bench', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: gpu ? [{ device: 0, emulated: false, streams: 2 }] : [], interconnect: {}, model: {} };
const engine = await Engine.create(graph, topology, { preload: [kcore], ...(gpu ? { gpuShare: 1 } : {}) });
const { program, params } = prepareRun(graph, kcore, {});
const ts = [];
let last;
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  last = await engine.run(program, params);
  ts.push(performance.now() - t0);
}
const later = ts.slice(1).sort((a, b) => a - b);
const kinds = {};
for (const s of last.report.steps) { const k = `${s.kernel}:${s.mode}`; kinds[k] = (kinds[k] ?? 0) + s.ms; }
console.log('runs', ts.map((x) => x.toFixed(1)).join(' '), 'median(2..)', later[later.length >> 1].toFixed(1), 'degeneracy', last.report.notes.degeneracy, 'last run ms by kernel:mode', JSON.stringify(Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, +v.toFixed(1)]))), 'vertexMapMs', last.report.phases.vertexMapMs.toFixed(1));
await engine.close();
