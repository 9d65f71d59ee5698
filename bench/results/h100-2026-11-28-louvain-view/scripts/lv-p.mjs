import { loadGraph } from '../dist/src/graph/load.js';
import { Engine } from '../dist/src/engine/coordinator.js';
import { prepareRun } from '../dist/src/api.js';
import { louvain } from '../dist/src/programs/index.js';
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const threads = Number(process.argv[3] ?? 2), reps = Number(process.argv[4] ?? 12);
const topology = { name: '1S', source: 'bench', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };
const engine = await Engine.create(graph, topology, { preload: [louvain] });
const { program, params } = prepareRun(graph, louvain, {});
for (let r = 0; r < reps; r++) {
  const t0 = performance.now();
  const res = await engine.run(program, params);
  const t = performance.now() - t0;
  console.log(t.toFixed(1), 'view/moves/rest', globalThis.__ph?.at(-1));
  engine.recycle?.(res.values ?? res.output);
}
await engine.close();
