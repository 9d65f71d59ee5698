// node .device/nop/index.mjs SCALE THREADS: per-call time of empty vertex maps (dispatch overhead)
import os from 'node:os';
const api = await import(`${process.cwd()}/dist/src/index.js`);
const [scale, threadsArg] = process.argv.slice(2);
const nop = api.defineProgram({
  name: 'nop', summary: 'dispatch overhead', params: {}, state: { x: { type: 'u32', init: 0, reduce: 'none' } }, output: 'int', profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'run', vertexTerm: true },
  kernels: new URL('./kernels.mjs', import.meta.url),
  async run(ctx) {
    for (const k of ['nop', 'touch']) {
      const ms = [];
      for (let i = 0; i < 40; i++) { const t0 = performance.now(); await ctx.vertexMap(k, { x: ctx.state.x }); ms.push(performance.now() - t0); }
      ms.sort((a, b) => a - b);
      ctx.note(k, +ms[20].toFixed(3));
    }
    return ctx.state.x;
  },
});
const { graph: g } = await api.loadGraph(`rmat:${scale}`);
const s = await api.openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: +(threadsArg ?? os.availableParallelism()) }] } });
for (let i = 0; i < 3; i++) { const r = await s.run(nop, {}); if (i === 2) console.log('scale', scale, 'threads', threadsArg ?? os.availableParallelism(), 'median ms per vertexMap', JSON.stringify(r.report.notes)); }
await s.close();
