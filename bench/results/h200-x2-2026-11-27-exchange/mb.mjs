// Readback microbenchmark: one controller 268 MB vs two controllers 134 MB each at once, into a fresh (populated) or reused host array.
import path from 'node:path';
const { GpuController } = await import(path.resolve('dist/actors/gpu/native.js'));
const { nativePopulate } = await import(path.resolve('dist/actors/gpu/native-host.js'));
const n = 1 << 25;
const ctl = await Promise.all([0, 1].map((d) => GpuController.create({ device: d, emulated: false, streams: 4 })));
for (const c of ctl) { await c.allocState('x', 'f64', n); await c.fillState('x', 1.5); }
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fresh = async () => { const a = new Float64Array(new SharedArrayBuffer(8 * n)); await nativePopulate()(a); return a; };
const out = {};
for (const mode of ['fresh', 'reused']) {
  let reused = await fresh();
  const one = [], two = [], twoSplit = [];
  for (let r = 0; r < 7; r++) {
    let a = mode === 'fresh' ? await fresh() : reused;
    let t = performance.now(); await ctl[0].readState('x', a, 0); one.push(performance.now() - t);
    a = mode === 'fresh' ? await fresh() : reused;
    t = performance.now(); await Promise.all([ctl[0].readState('x', a.subarray(0, n / 2), 0), ctl[1].readState('x', a.subarray(n / 2), n / 2)]); two.push(performance.now() - t);
    a = mode === 'fresh' ? await fresh() : reused;
    t = performance.now(); await ctl[0].readState('x', a.subarray(0, n / 2), 0); twoSplit.push(performance.now() - t);
  }
  out[mode] = { one268: +med(one).toFixed(2), two134each: +med(two).toFixed(2), one134: +med(twoSplit).toFixed(2) };
}
console.log(JSON.stringify({ threads: process.env.TESSERA_STAGING_THREADS ?? 'default', ...out }));
for (const c of ctl) await c.close();
