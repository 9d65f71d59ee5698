// node gp.mjs GRAPH(scale|tsr) THREADS : dispatch latencies through the gang (probe build: globalThis.__gp)
import path from 'node:path';
const root = process.env.ROOT;
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { defineProgram } = await dist('src/engine/define.js');
const { findProgram } = await dist('src/programs/index.js');
const { generate, prepareRun } = await dist('src/api.js');
const [gs, th] = process.argv.slice(2);
const g0 = gs.endsWith('.tsr') ? await (await dist('src/graph/tsr.js')).readTsr(gs) : generate(`rmat:${gs}:weighted`); const g = g0.graph ?? g0;
const topo = { name: '1S', source: 'gp', sockets: [{ id: 0, threads: Number(th) }], gpus: [], interconnect: {}, model: {} };
const K = 200;
const nop = defineProgram({ name: 'nops', summary: 'x', params: {}, state: { x: { type: 'u32', init: 'unset', reduce: 'none' } }, output: 'int',
  kernels: new URL('./k.mjs', import.meta.url), profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'run', vertexTerm: true },
  async run(ctx) { for (let i = 0; i < K; i++) await ctx.vertexMap('nop', { x: ctx.state.x }); return ctx.state.x; } });
const e = await Engine.create(g, topo);
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
function summary(label, gp, runMs) {
  const rows = gp.filter((d) => d.tw.length > 0).map((d) => ({ wake0: Math.min(...d.tw) - d.ring, wakeN: Math.max(...d.tw) - d.ring, work: Math.max(...d.td.map((x, i) => x - d.tw[i])), lastDone: Math.max(...d.td) - d.ring, recv: Math.max(...d.tr) - d.ring, back: Math.max(...d.tr) - Math.max(...d.td) }));
  const o = { label, dispatches: rows.length, runMedianMs: runMs }; if (!rows.length) { console.log(JSON.stringify(o)); return; }
  for (const k of ['wake0', 'wakeN', 'work', 'lastDone', 'recv', 'back']) o[k] = +med(rows.map((r) => r[k])).toFixed(3);
  console.log(JSON.stringify(o));
}
if (!process.env.NONOP) for (let r = 0; r < 3; r++) await e.run(nop, {});
globalThis.__gp = [];
if (!process.env.NONOP) { const t = performance.now(); await e.run(nop, {}); const per = (performance.now() - t) / K;
summary("nop vertexMap", globalThis.__gp, +per.toFixed(3)); }
for (const c of ['bfs', 'wcc']) {
  const program = findProgram(c);
  const params = prepareRun(g, program, program.params.source ? { source: g.ids.toOriginal[0] } : {}).params;
  for (let r = 0; r < 5; r++) await e.run(program, params);
  globalThis.__gp = []; const ms = [];
  for (let r = 0; r < 20; r++) ms.push((await e.run(program, params)).report.totalMs);
  summary(c, globalThis.__gp, +med(ms).toFixed(2));
  // one run's dispatches in detail: per thread wake (ms after ring), busy ms, done (ms after ring)
  for (const d of globalThis.__gp.slice(-({ bfs: 6, wcc: 6 })[c])) console.log(c, d.kernel, 'recv', (Math.max(...d.tr) - d.ring).toFixed(2), 'wake', d.tw.map((x) => (x - d.ring).toFixed(2)).join(','), 'busy', d.busy.map((x) => x.toFixed(2)).join(','), 'done', d.td.map((x) => (x - d.ring).toFixed(2)).join(','));
}
await e.close();
