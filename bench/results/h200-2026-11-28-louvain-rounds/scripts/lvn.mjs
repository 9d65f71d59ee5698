// ../../h200-2026-11-28-louvain-blocks/scripts/lvq.mjs with NOROUNDS=1 hiding the addon's louvainRounds (cvn.mjs)
const R = process.env.ROOT ?? process.cwd();
if (process.env.NOROUNDS === '1') delete (await import(R + '/dist/actors/gpu/native-host.js')).nativeCpuKernels().louvainRounds;
const { loadGraph } = await import(R + '/dist/src/graph/load.js');
const { Engine } = await import(R + '/dist/src/engine/coordinator.js');
const { prepareRun } = await import(R + '/dist/src/api.js');
const { louvain } = await import(R + '/dist/src/programs/index.js');
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const threads = Number(process.argv[3] ?? 16), reps = Number(process.argv[4] ?? 12);
const topology = { name: '1S', source: 'bench', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };
const engine = await Engine.create(graph, topology, { preload: [louvain] });
const { program, params } = prepareRun(graph, louvain, {});
const ts = []; let notes;
for (let r = 0; r < reps; r++) {
  const t0 = performance.now();
  const res = await engine.run(program, params);
  ts.push(performance.now() - t0); notes = res.report.notes;
}
console.log(ts.map(x => x.toFixed(0)).join(' '), 'median', [...ts].sort((a,b)=>a-b)[ts.length>>1].toFixed(1), 'Q', notes.modularity.toFixed(6), 'rounds', notes.rounds);
await engine.close();
