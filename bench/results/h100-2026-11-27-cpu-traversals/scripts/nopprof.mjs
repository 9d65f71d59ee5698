// node nopprof.mjs GRAPH.tsr THREADS OUT.cpuprofile: main-thread profile of no-op vertex maps (K per run)
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const root = process.env.ROOT;
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { defineProgram } = await dist('src/engine/define.js');
const { readTsr } = await dist('src/graph/tsr.js');
const [gs, th, out] = process.argv.slice(2);
const g = await readTsr(gs);
const topo = { name: '1S', source: 'np', sockets: [{ id: 0, threads: Number(th) }], gpus: [], interconnect: {}, model: {} };
const K = 300;
const nop = defineProgram({ name: 'nops', summary: 'x', params: {}, state: { x: { type: 'u32', init: 'unset', reduce: 'none' } }, output: 'int',
  kernels: new URL('./probe/k.mjs', import.meta.url), profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'run', vertexTerm: true },
  async run(ctx) { for (let i = 0; i < K; i++) await ctx.vertexMap('nop', { x: ctx.state.x }); return ctx.state.x; } });
const e = await Engine.create(g, topo);
for (let r = 0; r < 3; r++) await e.run(nop, {});
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 50 }); await s.post('Profiler.start');
const t = performance.now();
for (let r = 0; r < 3; r++) await e.run(nop, {});
const per = (performance.now() - t) / (3 * K);
const { profile } = await s.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
console.log('per no-op vertex map ms', per.toFixed(3));
await e.close();
