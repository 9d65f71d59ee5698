// Copy rates between two GPUs' state arrays (copyFromPeer) and host<->device state copies, pageable
// staged vs driver path, median of 5: node peerlink.mjs ROOT -> JSON
import path from 'node:path';
const [root] = process.argv.slice(2);
const { GpuController } = await import(path.join(root, 'dist/actors/gpu/native.js'));
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const a = await GpuController.create({ device: 0, emulated: false, streams: 4 });
const b = await GpuController.create({ device: 1, emulated: false, streams: 4 });
const out = {};
for (const mb of [64, 256]) {
  const n = mb << 20;
  await a.allocState('x', 'u8', n); await b.allocState('x', 'u8', n);
  out.direct = [await a.enablePeer(b), await b.enablePeer(a)];
  const t = [];
  for (let i = 0; i < 6; i++) { const t0 = performance.now(); await a.copyFromPeer(b, 'x', 'x', [[0, n]]); t.push(performance.now() - t0); }
  out[`peer${mb}MiB_GBs`] = +(n / (med(t.slice(1)) / 1000) / 1e9).toFixed(1);
  const host = new Uint8Array(new SharedArrayBuffer(n)); host.fill(1);
  for (const dir of ['write', 'read']) {
    const u = [];
    for (let i = 0; i < 6; i++) { const t0 = performance.now(); dir === 'write' ? await a.writeState('x', host) : await a.readState('x', host); u.push(performance.now() - t0); }
    out[`${dir}${mb}MiB_GBs`] = +(n / (med(u.slice(1)) / 1000) / 1e9).toFixed(1);
  }
  await a.freeState('x'); await b.freeState('x');
}
console.log(JSON.stringify({ stage: process.env.TESSERA_STAGE_STATE ?? 'on', ...out }));
await a.close(); await b.close();
