// Issue 21 profile: a session on 1S (every core), RMAT 22 .tsr, 6 runs each; the last run's steps with busy time.
import { openSession } from '/ROOT/dist/src/index.js';
import { readTsr } from '/ROOT/dist/src/graph/tsr.js';
import os from 'node:os';
const g = await readTsr(process.argv[2]);
const algos = (process.argv[3] ?? 'bfs,wcc,pr').split(',');
const s = await openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
for (const algo of algos) {
  const ms = [];
  let last;
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const r = await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : algo === 'pr' ? { iterations: 10 } : {});
    ms.push(+(performance.now() - t0).toFixed(1));
    last = r.report;
  }
  console.log(JSON.stringify({ algo, ms, phases: last.phases, steps: last.steps.map((x) => ({ mode: x.mode, ms: +x.ms.toFixed(2), plan: +x.planMs.toFixed(2), list: +x.listMs.toFixed(2), frontier: x.frontier, edges: x.edges, actors: x.actors.map((a) => ({ tasks: a.tasks, c: +a.computeMs.toFixed(2), b: +(a.busyMs ?? 0).toFixed(2), v: +a.voteMs.toFixed(2) })) })) }));
}
await s.close();
