// node pre.mjs G.tsr: a GPU's preload of a page set (its pages' first copies, through the staging ring) against writeState
// (the state path's staging) of as many bytes; TESSERA_STAGING_THREADS varies the copy pool.
const R = process.env.ROOT ?? process.cwd();
const { readTsr } = await import(R + '/dist/src/graph/tsr-read.js');
const { GpuController } = await import(R + '/dist/actors/gpu/native.js');
const { prefault } = await import(R + '/dist/src/engine/fill.js');
const { pageBytesWithoutWeights } = await import(R + '/dist/actors/gpu/native.js');
const ms = (t0) => (performance.now() - t0).toFixed(1);
const g = await readTsr(process.argv[2]);
for (let rep = 0; rep < 2; rep++) {
  const c = await GpuController.create({ device: 0, emulated: false, streams: 4 });
  let t0 = performance.now();
  await c.registerPageSet(1, g.in, false);
  const tReg = ms(t0);
  const idx = Uint32Array.from(g.in.pages.map((p) => p.index));
  const bytes = g.in.pages.reduce((s, p) => s + pageBytesWithoutWeights(p), 0);
  t0 = performance.now();
  const n = await c.preload(1, idx, 0);
  const tPre = performance.now() - t0;
  console.log(`threads ${process.env.TESSERA_STAGING_THREADS ?? 'default'}: register ${tReg} ms; preload ${n} pages, ${(bytes / 2 ** 30).toFixed(2)} GiB in ${tPre.toFixed(1)} ms (${(bytes / tPre / 1e6).toFixed(1)} GB/s)`);
  const m = Math.floor(bytes / 8);
  await c.allocState('x', 'f64', m);
  const a = new Float64Array(new SharedArrayBuffer(8 * m)); prefault(a); a.fill(2);
  t0 = performance.now(); await c.writeState('x', a); const tw = performance.now() - t0;
  console.log(`  writeState of as many bytes: ${tw.toFixed(1)} ms (${(8 * m / tw / 1e6).toFixed(1)} GB/s)`);
  await c.close();
}
