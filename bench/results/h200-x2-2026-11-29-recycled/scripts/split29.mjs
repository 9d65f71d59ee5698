// The bench harness's choice for a multiGpu: auto cell (src/bench/cell.ts: modelSplit with the pages resident, as
// in its warm runs), at alpha 0 with HIGH, for each program named: both ways' predicted ms and the way chosen.
// node split29.mjs ROOT GRAPH.tsr TOPOLOGY.yaml pr,bfs -> JSON lines. The calibration cache: TESSERA_CACHE_DIR.
import path from 'node:path';
const [root, tsr, topoFile, algos = 'pr,bfs'] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { readTsr } = await dist('src/graph/tsr.js');
const { loadTopology } = await dist('src/topology/load.js');
const { modelSplit } = await dist('src/model/split.js');
const { modelSweep } = await dist('src/model/index.js');
const { findProgram } = await dist('src/programs/index.js');
const { internalId } = await dist('src/engine/output.js');
const g = await readTsr(tsr);
const topology = await loadTopology(topoFile);
for (const algo of algos.split(',')) {
  const program = findProgram(algo);
  const source = program.profile.levels === true ? internalId(g, g.ids.toOriginal[0]) : undefined;
  const sweep = await modelSweep(g, topology, algo, { partition: 'high', steps: 1, alpha: 0, seed: 1, source, pagesResident: true, multiGpu: 'auto' });
  const split = await modelSplit(g, topology, algo, { partition: 'high', alpha: 0, seed: 1, source, pagesResident: true, multiGpu: 'auto' });
  const at0 = sweep.points.filter((p) => p.alphaRequested === 0).map((p) => ({ way: p.multiGpu, ms: +(p.prediction.makespanS * 1000).toFixed(1), gpus: p.prediction.elements.filter((e) => e.kind === 'gpu').map((e) => ({ computeMs: +(e.computeS * 1000).toFixed(2), streamMs: +(e.streamS * 1000).toFixed(2), rangesMs: +(e.rangesS * 1000).toFixed(2) })) }));
  console.log(JSON.stringify({ algo, chosen: split.multiGpu, predicted: at0 }));
}
