// Per-superstep profile of hops (operator) and bfs (built-in), GPU owning every vertex: the last of 4 runs.
import path from 'node:path';
const [root, spec] = process.argv.slice(2);
const d = (p) => import(path.join(root, 'dist', p));
const { openSession } = await d('src/index.js');
const { loadGraph } = await d('src/graph/load.js');
const { hops } = await d('test/fixtures/operators/programs.js');
const { graph } = await loadGraph(spec);
const topology = { name: '1S1G', source: 'prof', sockets: [{ id: 0, threads: 1 }], gpus: [{ device: 0, emulated: false, streams: 4 }], interconnect: {}, model: {} };
const s = await openSession(graph, { topology, gpuShare: 1, steal: 'off' });
const source = graph.ids.toOriginal[0];
for (const [label, p] of [['hops', hops], ['bfs', 'bfs']]) {
  let r;
  for (let i = 0; i < 4; i++) r = await s.run(p, { source });
  const rep = r.report;
  console.log(`${label}: total ${rep.totalMs.toFixed(1)} ms, phases ${JSON.stringify(Object.fromEntries(Object.entries(rep.phases).map(([k, v]) => [k, typeof v === 'number' ? +v.toFixed(1) : v])))}`);
  for (const st of rep.steps) {
    const a = st.actors.find((x) => x.kind === 'gpu');
    const g = a.gpu;
    console.log(`  ${st.mode} fr ${st.frontier} act ${st.active} ms ${st.ms.toFixed(1)} plan ${st.planMs.toFixed(1)} fold ${st.foldMs.toFixed(1)} list ${st.listMs.toFixed(1)} | gpu compute ${a.computeMs.toFixed(1)} vote ${a.voteMs.toFixed(1)} kernel ${g.kernelMs.toFixed(1)} write ${(g.writeMs ?? 0).toFixed(1)} read ${(g.readMs ?? 0).toFixed(1)} pin ${(g.pinMs ?? 0).toFixed(1)} in ${(g.stateBytesIn / 2 ** 20).toFixed(2)}M out ${(g.stateBytesOut / 2 ** 20).toFixed(2)}M bytesSent ${a.bytesSent}`);
  }
}
await s.close();
