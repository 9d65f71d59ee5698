// node --cpu-prof .device/first.mjs SPEC ALGO: a fresh session's run 0 and run 1, 700 ms of idle around each (profile windows).
import os from 'node:os';
const api = await import(`${process.cwd()}/dist/src/index.js`);
const [spec, algo] = process.argv.slice(2);
const { graph: g } = await api.loadGraph(spec);
const s = await api.openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
const nap = () => new Promise((r) => setTimeout(r, 700));
for (let i = 0; i < 3; i++) {
  await nap();
  const t0 = performance.now();
  const r = await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : {});
  const rp = r.report;
  console.log(`run ${i} at ${(performance.timeOrigin + t0).toFixed(1)} ${(performance.now() - t0).toFixed(1)} ms total ${rp.totalMs.toFixed(1)} alloc ${rp.phases.allocMs.toFixed(1)} other ${rp.phases.otherMs.toFixed(1)} steps ` + rp.steps.map((x) => `${x.mode}${x.ms.toFixed(1)}(p${x.planMs.toFixed(1)},c${x.actors[0].computeMs.toFixed(1)})`).join(' '));
}
await nap();
await s.close();
