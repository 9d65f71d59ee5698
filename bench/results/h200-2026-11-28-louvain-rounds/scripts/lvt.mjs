// One engine's louvain runs on the pass-by-pass path (the addon's louvainRounds hidden): each native pass of the last run timed (ms), with the run's supersteps.
const R = process.env.ROOT ?? process.cwd();
const { nativeCpuKernels } = await import(R + '/dist/actors/gpu/native-host.js');
const cpu = nativeCpuKernels();
delete cpu.louvainRounds;
const log = [];
for (const name of ['louvainMoveOrdered', 'louvainAggregate', 'louvainRenumber']) {
  const f = cpu[name];
  cpu[name] = (...a) => { const t0 = performance.now(); const r = f(...a); log.push(`${name} n ${a[4]?.length ?? a[0].length} entries ${a[1].length} ${(performance.now() - t0).toFixed(2)} ms${r?.sweeps ? ' sweeps ' + r.sweeps : ''}`); return r; };
}
const { loadGraph } = await import(R + '/dist/src/graph/load.js');
const { Engine } = await import(R + '/dist/src/engine/coordinator.js');
const { prepareRun } = await import(R + '/dist/src/api.js');
const { louvain } = await import(R + '/dist/src/programs/index.js');
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const threads = Number(process.argv[3] ?? 16), reps = Number(process.argv[4] ?? 8);
const topology = { name: '1S', source: 'bench', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };
const engine = await Engine.create(graph, topology, { preload: [louvain] });
const { program, params } = prepareRun(graph, louvain, {});
for (let r = 0; r < reps; r++) {
  log.length = 0;
  const t0 = performance.now();
  const res = await engine.run(program, params);
  const ms = performance.now() - t0;
  console.log(`run ${r} ${ms.toFixed(1)} ms, supersteps [${res.report.steps.map((s) => s.ms.toFixed(1)).join(', ')}]`);
}
console.log(log.join('\n'));
await engine.close();
