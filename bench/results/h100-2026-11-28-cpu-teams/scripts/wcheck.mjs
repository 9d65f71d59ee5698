import path from 'node:path';
const dist = (p) => import(path.join(process.env.ROOT ?? '/work/main', 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership, generate } = await dist('src/api.js');
const { referenceWcc } = await dist('src/programs/wcc/reference.js');
const [spec, runs, threads] = process.argv.slice(2);
const g0 = spec.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(spec) : generate(spec); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 't', sockets: [{ id: 0, threads: Number(threads) }], gpus: [], interconnect: {}, model: {} };
const program = findProgram('wcc');
const e = await Engine.create(g, topo, await withOwnership(g, topo, {}));
const ref = referenceWcc(g); let bad = 0; const ms = [];
for (let r = 0; r < Number(runs); r++) { const res = await e.run(program, prepareRun(g, program, {}).params); ms.push(res.report.totalMs); if (r === 0) console.log(res.report.steps.map((s) => `${s.kernel}/${s.team ?? ''}`).join(' ')); for (let v = 0; v < g.numVertices; v++) if (res.values[v] !== ref[v]) bad++; }
await e.close();
console.log(spec, 'threads', threads, 'bad', bad, 'ms', ms.map((x) => x.toFixed(1)).join(' '));
