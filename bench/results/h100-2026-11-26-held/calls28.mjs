// Times every GpuController call (call -> settled) over warm runs of a program on one GPU owning
// every vertex: node calls28.mjs ROOT GRAPH.tsr PROGRAM -> JSON lines (per method: count, total ms).
import path from 'node:path';
import os from 'node:os';
const [root, tsr, name] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const { findProgram } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const { GpuController } = await dist('actors/gpu/native.js');
const stats = new Map();
let on = false;
for (const k of Object.getOwnPropertyNames(GpuController.prototype)) {
  const f = GpuController.prototype[k];
  if (typeof f !== 'function' || k === 'constructor') continue;
  GpuController.prototype[k] = function (...a) {
    const t0 = performance.now();
    const r = f.apply(this, a);
    if (on && r && typeof r.then === 'function') r.then(() => { const s = stats.get(k) ?? { n: 0, ms: 0 }; s.n++; s.ms += performance.now() - t0; stats.set(k, s); }, () => {});
    return r;
  };
}
const g = await readTsr(tsr);
const topo = { name: '1S1G', source: 'calls', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [{ device: 0, streams: 4, emulated: false }], interconnect: {}, model: {} };
const program = findProgram(name);
const given = name === 'pr' ? { iterations: 10 } : program.params.source ? { source: g.ids.toOriginal[0] } : {};
const params = prepareRun(g, program, given).params;
const e = await Engine.create(g, topo, await withOwnership(g, topo, { gpuShare: 1, steal: 'off' }));
const ms = [];
let steps = 0;
for (let r = 0; r < 6; r++) {
  on = r >= 2;
  const { report } = await e.run(program, params);
  if (on) { ms.push(report.totalMs); steps += report.supersteps; }
}
await e.close();
console.log(JSON.stringify({ program: name, runs: ms.map((x) => +x.toFixed(1)), steps, calls: Object.fromEntries([...stats].sort((a, b) => b[1].ms - a[1].ms).map(([k, s]) => [k, { n: s.n, ms: +s.ms.toFixed(2), each: +(s.ms / s.n).toFixed(3) }])) }));
if (name === 'bfs') {
  // A bare round trip: fillState of a 16-byte array, 2000 times.
  const c = await GpuController.create({ device: 0, emulated: false, streams: 4 });
  await c.allocState('x', 'u8', 16);
  on = false;
  for (let i = 0; i < 200; i++) await c.fillState('x', 0);
  const t0 = performance.now();
  for (let i = 0; i < 2000; i++) await c.fillState('x', 0);
  const each = (performance.now() - t0) / 2000;
  console.log(JSON.stringify({ roundTripMs: +each.toFixed(4) }));
  await c.close();
}
