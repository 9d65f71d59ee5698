// Warm per-step phases of top-down BFS: node .device/phases.mjs GRAPH TOPOLOGY SOURCE share[,share...] [runs]
import path from 'node:path';
const root = process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { readTsr } = await dist('src/graph/tsr.js');
const { Engine } = await dist('src/engine/coordinator.js');
const { loadTopology } = await dist('src/topology/load.js');
const { bfs } = await dist('src/programs/bfs.js');
const { internalId } = await dist('src/engine/output.js');
const [graphFile, topoFile, src, sharesArg, runsArg] = process.argv.slice(2);
const g = await readTsr(graphFile);
const topo = await loadTopology(topoFile);
const source = internalId(g, Number(src));
const f = (x) => x.toFixed(1);
for (const share of sharesArg.split(',').map(Number)) {
  const e = await Engine.create(g, topo, { ...(topo.gpus.length ? { gpuShare: share, partition: 'high' } : {}), forceMode: 'push', steal: 'off' });
  let r;
  const times = [];
  let marks = [];
  e.events.on('run-start', () => (marks = [['start', performance.now()]]));
  e.events.on('superstep', (s) => marks.push([s.step, performance.now(), s.ms]));
  e.events.on('run-end', () => marks.push(['end', performance.now()]));
  for (let i = 0; i < Number(runsArg ?? 3); i++) { r = await e.run(bfs, { source }); times.push(f(r.report.totalMs)); }
  const stepSum = r.report.steps.reduce((a, s) => a + s.ms, 0);
  console.log(`== ${topo.name} gpuShare ${share}: runs ${times.join(' ')} ms; last: steps ${f(stepSum)} ms, outside steps ${f(r.report.totalMs - stepSum)} ms`);
  let prev = marks[0][1];
  console.log('gaps before each step, and after the last: ' + marks.slice(1).map(([k, t, ms]) => { const gap = t - (ms ?? 0) - prev; prev = t; return `${k}:${f(gap)}`; }).join(' '));
  for (const s of r.report.steps) {
    const wait = Math.max(...s.actors.map((x) => x.voteMs));
    console.log(`${s.step} F=${s.frontier} A=${s.active} ms=${f(s.ms)} plan=${f(s.planMs)} wait=${f(wait)} fold=${f(s.foldMs)} list=${f(s.listMs)} other=${f(s.ms - s.planMs - wait - s.foldMs - s.listMs)} :: ` + s.actors.map((x) => `${x.actor} e=${(x.edges / 1e6).toFixed(1)}M t=${x.tasks} c=${f(x.computeMs)} v=${f(x.voteMs)}${x.gpu ? ` k=${f(x.gpu.kernelMs)} cp=${f(x.gpu.copyMs)}` : ''}`).join(' | '));
  }
  await e.close();
}
process.exit(0);
