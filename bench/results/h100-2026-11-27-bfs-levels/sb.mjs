// node sb.mjs: a run's result array: fresh 64 MiB SAB (+ fill -1 or not) then readState from the device into it
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const { GpuController } = await dist('actors/gpu/native.js');
const { nativeFillArray } = await dist('actors/gpu/native-host.js');
const fill = nativeFillArray();
const n = 1 << 24;
const ctl = await GpuController.create({ device: 0, emulated: false, streams: 4 });
await ctl.allocState('x', 'i32', n); await ctl.fillState('x', 3);
const out = {};
for (let i = 0; i < 8; i++) for (const v of ['fill', 'nofill', 'reuse']) {
  const t0 = performance.now();
  const a = v === 'reuse' ? (globalThis.keep ??= (() => { const a = new Int32Array(new SharedArrayBuffer(4 * n)); fill(a, -1); return a; })()) : new Int32Array(new SharedArrayBuffer(4 * n));
  if (v === 'fill' || v === 'reuse') fill(a, -1);
  const t1 = performance.now();
  await ctl.readState('x', a);
  const t2 = performance.now();
  if (a[12345] !== 3) throw new Error('bad copy');
  if (i > 0) (out[v] ??= []).push([+(t1 - t0).toFixed(2), +(t2 - t1).toFixed(2), +(t2 - t0).toFixed(2)]);
}
await ctl.close();
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [v, r] of Object.entries(out)) console.log(process.env.TESSERA_STAGING_THREADS ?? 'default', v, 'alloc+fill', med(r.map((x) => x[0])), 'read', med(r.map((x) => x[1])), 'total', med(r.map((x) => x[2])));
