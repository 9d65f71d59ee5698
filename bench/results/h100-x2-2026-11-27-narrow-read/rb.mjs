// The read-back alone: a device i32 array of N values (depths: -1..9) read into host arrays,
// fresh (V8's zeroed, unmapped memory) or faulted in first, 9 times each; medians in ms.
// Run twice: TESSERA_NARROW_READ=0 (the plain staged copy) and the default (packed).
// node rb.mjs ROOT [N]
import path from 'node:path';
const [root, nArg] = process.argv.slice(2);
const { GpuController } = await import(path.join(root, 'dist/actors/gpu/native.js'));
const { prefault } = await import(path.join(root, 'dist/src/engine/fill.js'));
const N = Number(nArg ?? 2 ** 25);
const c = await GpuController.create({ device: 0, emulated: false, streams: 4 });
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
try {
  await c.allocState('d', 'i32', N);
  const v = new Int32Array(N);
  for (let i = 0; i < N; i++) v[i] = (i * 2654435761) % 11 - 1;
  await c.writeState('d', v);
  const out = {};
  for (const kind of ['fresh', 'faulted', 'reused']) {
    const ms = [];
    let keep = new Int32Array(new SharedArrayBuffer(N * 4));
    for (let r = 0; r < 9; r++) {
      const into = kind === 'reused' ? keep : new Int32Array(new SharedArrayBuffer(N * 4));
      if (kind === 'faulted') prefault(into);
      const t0 = performance.now();
      await c.readState('d', into, 0);
      ms.push(performance.now() - t0);
      for (let i = 0; i < N; i += 4099) if (into[i] !== v[i]) throw new Error(`entry ${i}: ${into[i]} != ${v[i]}`);
    }
    out[kind] = +med(ms).toFixed(2);
  }
  const info = await c.info();
  console.log(JSON.stringify({ N, narrow: process.env.TESSERA_NARROW_READ !== '0', staging: process.env.TESSERA_STAGING_THREADS ?? 'default', ...out, narrowReads: info.totals.narrowReads }));
} finally {
  await c.close();
}
