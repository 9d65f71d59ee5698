// node pin.mjs G.tsr: what page-locking a .tsr's page memory costs (GpuController.pinHost = cudaHostRegister), and the
// copy rates with and without it: the arenas of readTsr (huge pages) pinned whole; the same bytes in buffers of ~4 MB
// faulted in a 4 KiB page at a time; writeState of 1 GiB from pinned and from pageable memory.
const R = process.env.ROOT ?? process.cwd();
const { readTsr } = await import(R + '/dist/src/graph/tsr-read.js');
const { GpuController } = await import(R + '/dist/actors/gpu/native.js');
const { prefault } = await import(R + '/dist/src/engine/fill.js');
const ms = (t0) => (performance.now() - t0).toFixed(1);
const g = await readTsr(process.argv[2]);
const pages = g.in === g.out ? g.out.pages : [...g.out.pages, ...g.in.pages];
const arenas = [...new Set(pages.map((p) => p.buffer))];
const bytes = arenas.reduce((s, a) => s + a.byteLength, 0);
const c = await GpuController.create({ device: 0, emulated: false, streams: 4 });
let t0 = performance.now();
let ok = 0;
for (const a of arenas) ok += (await c.pinHost(new Uint8Array(a))) ? 1 : 0;
console.log(`arenas: ${arenas.length}, ${(bytes / 2 ** 30).toFixed(2)} GiB, pinned ${ok} in ${ms(t0)} ms`);
t0 = performance.now();
for (const a of arenas) await c.unpinHost(new Uint8Array(a));
console.log(`unpinned in ${ms(t0)} ms`);
// The same bytes in ~4 MB buffers of 4 KiB pages (no advice), written first.
const small = [];
for (let left = bytes; left > 0; left -= 4 << 20) { const b = new Uint8Array(new SharedArrayBuffer(Math.min(left, 4 << 20))); b.fill(1); small.push(b); }
t0 = performance.now(); ok = 0;
for (const b of small) ok += (await c.pinHost(b)) ? 1 : 0;
console.log(`4 KiB-paged buffers: ${small.length}, pinned ${ok} in ${ms(t0)} ms`);
t0 = performance.now();
for (const b of small) await c.unpinHost(b);
console.log(`unpinned in ${ms(t0)} ms`);
small.length = 0;
// Copies: 1 GiB from a pinned huge-paged array, and from pageable (huge-paged, not pinned) memory.
const n = 2 ** 27;
await c.allocState('x', 'f64', n);
const a = new Float64Array(new SharedArrayBuffer(8 * n)); prefault(a); a.fill(1.5);
for (let i = 0; i < 3; i++) { t0 = performance.now(); await c.writeState('x', a); console.log(`writeState 1 GiB pageable: ${ms(t0)} ms`); }
t0 = performance.now(); const pinned = await c.pinHost(a); console.log(`pin 1 GiB (huge pages): ${pinned} in ${ms(t0)} ms`);
for (let i = 0; i < 3; i++) { t0 = performance.now(); await c.writeState('x', a); console.log(`writeState 1 GiB pinned: ${ms(t0)} ms`); }
await c.close();
