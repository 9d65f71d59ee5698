import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? process.cwd();
const [tsr, name = 'bfs', runs = '8'] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const g = await readTsr(tsr);
const topo = { name: '1S', source: 'x', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [], interconnect: {}, model: {} };
const program = findProgram(name);
const given = name === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {};
const params = prepareRun(g, program, given).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { steal: 'auto' }));
const ms = []; let last;
for (let r = 0; r < Number(runs); r++) { const { report } = await e.run(program, params); ms.push(+report.totalMs.toFixed(1)); last = report; }
await e.close();
const warm = ms.slice(Math.min(4, ms.length - 1)).sort((a, b) => a - b);
console.log(name, 'median', warm[warm.length >> 1], 'runs', ms.join(' '), 'phases', JSON.stringify(last.phases));
if (process.env.QUIET) { process.exit(0); }
for (const s of last.steps) console.log(JSON.stringify({ step: s.step, kernel: s.kernel, mode: s.mode, ms: +s.wallMs?.toFixed?.(2), active: s.activeVertices ?? s.frontier, plan: s.planMs, list: s.listMs, fold: s.foldMs, actors: s.actors.map((a) => ({ e: a.edges, c: +a.computeMs.toFixed(2), v: +a.voteMs.toFixed(2), t: a.tasks })) }));
console.log(Object.keys(last.steps[0]).join(','));
console.log(Object.keys(last.steps[0].actors[0]).join(','));
