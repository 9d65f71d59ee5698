#!/usr/bin/env node
/**
 * tc / lcc timings on this host: CPU-only (1S, every core), GPU-only (1S1G, gpuShare 1) and
 * CPU+GPU splits, per RMAT scale; every GPU run checked against the CPU-only values.
 *   node .device-tc/tri-time.mjs --scales 20,22 --programs tc,lcc --reps 3 --shares 1,0.5 --partitions high,rand --out DIR [--emulated]
 * Prints one line per cell: median total ms (after one warm-up), the median lccCount / lccFill /
 * lccTri superstep ms, the GPU's kernel ms in lccTri, and whether the values match the CPU's.
 */
import os from 'node:os';
import path from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { loadGraph } = await dist('src/graph/load.js');
const { findProgram } = await dist('src/programs/index.js');
const { withOwnership } = await dist('src/api.js');

const args = process.argv.slice(2);
const opt = (k, d) => (args.indexOf(`--${k}`) >= 0 ? args[args.indexOf(`--${k}`) + 1] : d);
const scales = opt('scales', '20').split(',').map(Number);
const programs = opt('programs', 'tc,lcc').split(',');
const reps = Number(opt('reps', 3));
const shares = opt('shares', '1,0.5').split(',').map(Number);
const partitions = opt('partitions', 'high').split(',');
const out = opt('out', process.env.OUT ?? '.');
const emulated = args.includes('--emulated');
mkdirSync(out, { recursive: true });

const threads = os.availableParallelism();
const cpuTopo = { name: '1S', source: 'tri-time', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };
const gpuTopo = { name: '1S1G', source: 'tri-time', sockets: [{ id: 0, threads }], gpus: [{ device: 0, emulated, streams: 4 }], interconnect: {}, model: {} };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stepMs = (r, k) => r.report.steps.filter((s) => s.kernel === k).reduce((a, s) => a + s.ms, 0);
const gpuKernelMs = (r) => r.report.steps.flatMap((s) => s.actors).filter((a) => a.kind === 'gpu').reduce((a, x) => a + (x.gpu?.kernelMs ?? 0), 0);

async function time(engine, program, label, want) {
  const runs = [];
  for (let i = 0; i <= reps; i++) {
    const r = await engine.run(program, {});
    if (i > 0) runs.push(r);
    else if (want !== undefined) {
      let bad = -1;
      for (let v = 0; v < want.length && bad < 0; v++) if (r.values[v] !== want[v] && Math.abs(r.values[v] - want[v]) > 1e-9 * Math.abs(want[v])) bad = v;
      if (bad >= 0) console.log(`  ${label}: MISMATCH at ${bad}: ${r.values[bad]} vs ${want[bad]}`);
      runs.ok = bad < 0;
    }
    if (i === 0) runs.values = r.values;
  }
  const row = {
    label,
    totalMs: median(runs.map((r) => r.report.totalMs)),
    countMs: median(runs.map((r) => stepMs(r, 'lccCount'))),
    fillMs: median(runs.map((r) => stepMs(r, 'lccFill'))),
    triMs: median(runs.map((r) => stepMs(r, 'lccTri'))),
    gpuKernelMs: median(runs.map(gpuKernelMs)),
    ok: want === undefined ? true : runs.ok,
  };
  console.log(`  ${label.padEnd(34)} total ${row.totalMs.toFixed(0).padStart(7)} ms  count ${row.countMs.toFixed(0)}  fill ${row.fillMs.toFixed(0)}  tri ${row.triMs.toFixed(0)}  gpu kernels ${row.gpuKernelMs.toFixed(0)} ms  ${want === undefined ? '' : row.ok ? 'match' : 'MISMATCH'}`);
  return { row, values: runs.values };
}

const rows = [];
for (const scale of scales) {
  const { graph: g, loadMs } = await loadGraph(`rmat:${scale}:weighted`, {});
  console.log(`rmat:${scale}: ${g.numVertices} vertices, ${g.numEdges} edges, loaded in ${(loadMs / 1000).toFixed(1)} s; ${threads} threads, ${emulated ? 'EMULATED GPU' : 'GPU 0'}`);
  const cpu = await Engine.create(g, cpuTopo);
  const want = {};
  for (const name of programs) {
    const r = await time(cpu, findProgram(name), `${name} CPU-only`, undefined);
    want[name] = r.values;
    rows.push({ scale, program: name, config: 'cpu', ...r.row });
  }
  await cpu.close();
  for (const gpuShare of shares)
    for (const partition of gpuShare === 1 ? ['high'] : partitions) {
      const e = await Engine.create(g, gpuTopo, await withOwnership(g, gpuTopo, { gpuShare, partition }));
      try {
        for (const name of programs) {
          const label = `${name} ${gpuShare === 1 ? 'GPU-only' : `split ${gpuShare} ${partition}`}`;
          const r = await time(e, findProgram(name), label, want[name]);
          rows.push({ scale, program: name, config: gpuShare === 1 ? 'gpu' : `split-${gpuShare}-${partition}`, ...r.row });
        }
      } finally {
        await e.close();
      }
    }
}
writeFileSync(path.join(out, 'tri-time.json'), JSON.stringify(rows, null, 2));
process.exit(rows.every((r) => r.ok) ? 0 : 1);
