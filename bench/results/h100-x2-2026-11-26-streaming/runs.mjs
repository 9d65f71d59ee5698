// node .device/runs.mjs SPEC ALGO N: every run's phases and supersteps (ms, plan, actor compute, busy) on 1S (every core)
import os from 'node:os';
const api = await import(`${process.cwd()}/dist/src/index.js`);
const [spec, algo, n] = process.argv.slice(2);
const { graph: g } = await api.loadGraph(spec);
const s = await api.openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
for (let i = 0; i < +n; i++) {
  const t0 = performance.now();
  const r = await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : {});
  const ms = performance.now() - t0;
  const rp = r.report;
  console.log(`run ${i} ${ms.toFixed(1)} total ${rp.totalMs.toFixed(1)} alloc ${rp.phases.allocMs.toFixed(1)} vmap ${rp.phases.vertexMapMs.toFixed(1)} other ${rp.phases.otherMs.toFixed(1)} steps ` + rp.steps.map((x) => `${x.mode}${x.ms.toFixed(1)}(p${x.planMs.toFixed(1)},c${x.actors[0].computeMs.toFixed(1)},b${(x.actors[0].busyMs ?? 0).toFixed(1)})`).join(' '));
}
await s.close();
