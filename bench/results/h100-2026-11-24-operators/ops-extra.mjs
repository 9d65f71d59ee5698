// On a real GPU: NVRTC cold compile vs cached cubin, a compile error's message, and user
// operators (generic GPU actor) against the built-in precompiled kernels, GPU-only, RMAT 22.
import { generate, run, defineProgram, Engine } from '../dist/src/index.js';
import { hits } from '../dist/examples/hits/index.js';
import { kcore } from '../dist/examples/kcore/index.js';
import { hops, lowLabel } from '../dist/test/fixtures/operators/programs.js';
import { findProgram } from '../dist/src/programs/index.js';
import { writeFileSync } from 'node:fs';
const threads = (await import('node:os')).availableParallelism();
const topo = { name: '1S1G', source: 'device', sockets: [{ id: 0, threads }], gpus: [{ device: 0, emulated: process.env.EMU === '1', streams: 4 }], interconnect: {}, model: {} };
const small = generate('rmat:12:ef=8');
for (const [label, p, extra] of [['hits', hits, { iterations: 5 }], ['hops', hops, { source: small.ids.toOriginal[0] }]]) {
  for (const pass of ['cold (NVRTC)', 'cubin cached on disk']) {
    const t0 = performance.now();
    await run(small, p, { topology: topo, ...extra });
    console.log(`${label} rmat:12 first run, ${pass}: ${(performance.now() - t0).toFixed(0)} ms`);
  }
}
writeFileSync('/tmp/bad.cu', 'struct hop {\n  static TS_OP bool push(const Env<hop>& e, u32, u32 v, double) { return e.nothere[v]; }\n};\n');
const bad = defineProgram({ ...hops, name: 'bad-hops', gpu: { source: new URL('file:///tmp/bad.cu'), kernels: { hop: { modes: ['push'], state: { depth: 'i32' }, args: { level: 'i32' } } } } });
try {
  await run(small, bad, { topology: topo, source: small.ids.toOriginal[0], forceMode: 'push' });
  console.log('bad source: NO ERROR');
} catch (e) {
  console.log('bad source error:', e.message, '| fix:', e.fix);
}
const g = generate(process.env.EMU === '1' ? 'rmat:14:ef=16' : 'rmat:22:ef=16');
const gu = generate(process.env.EMU === '1' ? 'rmat:14:ef=16' : 'rmat:22:ef=16', { undirected: true });
const src = g.ids.toOriginal[0];
const pairs = [
  ['bfs (built-in)', g, findProgram('bfs'), { source: src }],
  ['hops (operator)', g, hops, { source: src }],
  ['hops push-only (operator)', g, hops, { source: src, forceMode: 'push' }],
  ['wcc (built-in, undirected)', gu, findProgram('wcc'), {}],
  ['low-label (operator, undirected)', gu, lowLabel, {}],
  ['pr 10 it (built-in)', g, findProgram('pr'), { iterations: 10, damping: 0.85 }],
  ['hits 5 it = 10 pulls (operator)', g, hits, { iterations: 5 }],
];
console.log(`RMAT 22: ${g.numVertices} vertices, ${g.numEdges} edges; GPU-only (gpuShare 1), ${threads} host threads; median of 3 warm runs after 1`);
for (const [label, graph, p, extra] of pairs) {
  const ms = [];
  let report;
  for (let i = 0; i < 4; i++) {
    const r = await run(graph, p, { topology: topo, gpuShare: 1, ...extra });
    if (i > 0) ms.push(r.report.totalMs);
    report = r.report;
  }
  ms.sort((a, b) => a - b);
  const gsteps = report.steps.flatMap((s) => s.actors.filter((a) => a.kind === 'gpu'));
  const kernelMs = gsteps.reduce((a, x) => a + (x.gpu?.kernelMs ?? 0), 0);
  console.log(`${label.padEnd(34)} ${ms[1].toFixed(1).padStart(8)} ms  supersteps ${report.supersteps}  edges ${report.edgesProcessed}  kernel ${kernelMs.toFixed(1)} ms  GTEPS ${(report.edgesProcessed / ms[1] / 1e6).toFixed(2)}`);
}
