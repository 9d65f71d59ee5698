// node .device/lv.mjs SPEC RUNS [inlineEdges]: louvain on 1S (every core), 1S1G (the model's split), GPU-only; labels vs 1S
import os from 'node:os';
const api = await import(`${process.cwd()}/dist/src/index.js`);
const [spec, runs, inl] = process.argv.slice(2);
const { graph: g } = await api.loadGraph(spec);
const T = os.availableParallelism();
const sock = [{ id: 0, threads: T }];
const gpu = [{ device: 0, streams: 4 }];
const configs = [
  ['1S', { name: '1S', sockets: sock }, {}],
  ['1S1G', { name: '1S1G', sockets: sock, gpus: gpu, interconnect: { bandwidth: '55GB/s' } }, {}],
  ['GPU-only', { name: '1S1G', sockets: sock, gpus: gpu, interconnect: { bandwidth: '55GB/s' } }, { gpuShare: 1 }],
];
const only = process.env.LV_CONFIGS?.split(',');
if (only !== undefined) configs.splice(0, configs.length, ...configs.filter((c) => only.includes(c[0])));
const params = inl === undefined ? {} : { inlineEdges: Number(inl) };
let want;
for (const [label, topology, extra] of configs) {
  const s = await api.openSession(g, { topology, ...extra });
  for (let i = 0; i < +runs; i++) {
    const t0 = performance.now();
    const r = await s.run('louvain', params);
    const ms = performance.now() - t0;
    const rp = r.report;
    const move = rp.steps.filter((x) => x.kernel === 'louvainMove');
    const moveMs = move.reduce((a, x) => a + x.ms, 0);
    const gpuE = move.reduce((a, x) => a + x.actors.filter((y) => y.kind === 'gpu').reduce((b, y) => b + y.edges, 0), 0);
    const allE = move.reduce((a, x) => a + x.actors.reduce((b, y) => b + y.edges, 0), 0);
    if (want === undefined) want = r.values.slice();
    let diff = 0;
    for (let v = 0; v < want.length; v++) if (want[v] !== r.values[v]) diff++;
    const rows = move.flatMap((x) => x.actors.filter((y) => y.kind === 'gpu'));
    const sum = (f) => rows.reduce((a, y) => a + (f(y) ?? 0), 0).toFixed(1);
    const gline = rows.length === 0 ? '' : ` [GPU: compute ${sum((y) => y.computeMs)} kernel ${sum((y) => y.gpu.kernelMs)} run ${sum((y) => y.gpu.runMs)} write ${sum((y) => y.gpu.writeMs)} read ${sum((y) => y.gpu.readMs)} pin ${sum((y) => y.gpu.pinMs)} ms, in ${sum((y) => y.gpu.stateBytesIn / 1e6)} MB out ${sum((y) => y.gpu.stateBytesOut / 1e6)} MB]`;
    const plan = move.reduce((a, x) => a + (x.planMs ?? 0), 0).toFixed(1);
    console.log(`${spec} ${label} run ${i} (move plan ${plan} ms)${gline}: ${ms.toFixed(1)} ms, total ${rp.totalMs.toFixed(1)}; louvainMove ${move.length} steps ${moveMs.toFixed(1)} ms, ${allE} edges (GPU ${(100 * gpuE / Math.max(1, allE)).toFixed(1)}%); other steps ${(rp.steps.reduce((a, x) => a + x.ms, 0) - moveMs).toFixed(1)} ms; Q ${rp.notes.modularity} communities ${rp.notes.communities} sweeps ${rp.notes.sweeps} rounds ${rp.notes.rounds}; labels differing from 1S: ${diff}`);
  }
  await s.close();
}
process.exit(0);
