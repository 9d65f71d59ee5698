#!/usr/bin/env node
/**
 * GPU check (npm run gpu-check): on a GPU host, runs every program (the built-ins that run on GPUs
 * and the shipped examples, or those --programs names) on a CPU-only topology and on
 * a topology with a GPU actor, checks that the results agree (integers exactly, floats within
 * 1e-6 relative) on RMAT scale 20 and the SNAP graphs, then runs the native kernel benchmark
 * (native/bench/gpu-bench.mjs) and prints one summary. Exit status 1 when any result differs.
 *
 *   npm run gpu-check [-- --scale 20] [--emulated] [--device 0] [--gpu-share 0.5]
 *                     [--partition high|low|rand] [--partition-seed 1] [--snap DIR | --no-snap] [--programs bfs,pr,...] [--bc-sources 4]
 *                     [--bench-scale S | --no-bench] [--memory-limit 8GiB] [--page-edges N] [--json FILE]
 *                     [--module FILE.js ...] [--gpus N] [--multi-gpu p|s] [--mode push|pull]
 *
 * --module adds every program a module exports (defineProgram's): a user's programs, their GPU
 * operators compiled at run time, checked like the built-ins (each needs demoParams).
 * --gpus N puts N GPU actors (devices --device .. --device+N-1) in the topology, each owning its
 * share of the GPUs' edges (TOTEM's multi-GPU placement): the exchange between GPUs is checked too.
 * --multi-gpu s deals the GPUs' pages round-robin instead (each owns many ranges; partition.ts MultiGpu).
 * --mode push|pull forces every superstep of the GPU engine into that mode (the CPU's runs as chosen).
 * --emulated runs the GPU actor on the host (no GPU needed; tests use it at a small scale).
 * --partition rand gives the GPU actor the model's random pages (several vertex ranges: the
 * kernels' owned byte map), shuffling the page set the model does for each program.
 * Needs a build: `npm run build` (dist/) and the native addon (`node scripts/build-native.mjs`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { loadGraph } = await dist('src/graph/load.js');
const { findProgram, PROGRAMS } = await dist('src/programs/index.js');
const { prepareRun, withOwnership } = await dist('src/api.js');
const { nativeAvailable } = await dist('actors/gpu/native.js');
const { parseSize } = await dist('src/topology/schema.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const flag = (name) => args.includes(`--${name}`);
const fail = (msg) => {
  console.error(`gpu-check: ${msg}`);
  process.exit(1);
};
// A run that fails (a GPU out of memory under --memory-limit, a device error) ends the check with
// its one line (the message names the fix), not a stack trace.
process.on('uncaughtException', (e) => {
  const msg = e instanceof Error ? e.message : String(e);
  console.error(msg.startsWith('gpu-check:') ? msg : `gpu-check: ${msg}`);
  process.exit(1);
});

const scale = Number(opt('scale', 20));
const emulated = flag('emulated');
const device = Number(opt('device', 0));
const gpuCount = Number(opt('gpus', 1));
// Every superstep of the GPU engine in this mode (a program that keeps some rounds off the GPUs
// by default, as kcore, runs them there when pulls are forced).
const forceMode = opt('mode');
if (forceMode !== undefined && forceMode !== 'push' && forceMode !== 'pull') fail(`--mode ${forceMode} must be push or pull`);
if (!(Number.isSafeInteger(gpuCount) && gpuCount >= 1 && gpuCount <= 16)) fail(`--gpus ${opt('gpus')} must be an integer from 1 to 16`);
// Half the edges on the GPU unless told: the check covers the split (both actors' results and
// the exchange between them), which the engine's default for a real GPU (all of it) would not.
const gpuShare = Number(opt('gpu-share', '0.5'));
const bcSources = Number(opt('bc-sources', 4));
/** The programs (defineProgram's) a module exports. */
const programsIn = async (file) => Object.values(await import(pathToFileURL(path.resolve(file)).href)).filter((v) => v?.defined === true);
// The shipped examples (dist/examples/*/index.js: programs written against the public API).
const EXAMPLES = [];
const exDir = path.join(root, 'dist/examples');
for (const ex of existsSync(exDir) ? readdirSync(exDir).sort() : []) {
  const file = path.join(exDir, ex, 'index.js');
  if (existsSync(file)) EXAMPLES.push(...(await programsIn(file)));
}
// By default the built-ins that run on GPUs, and the examples.
const programs = opt('programs', [...PROGRAMS.filter((p) => p.gpu !== undefined || p.operators !== undefined), ...EXAMPLES].map((p) => p.name).join(',')).split(',');
const snapDir = flag('no-snap') ? undefined : opt('snap', path.resolve(root, 'test/data/snap'));
const benchScale = flag('no-bench') ? undefined : Number(opt('bench-scale', scale));
const memoryLimit = opt('memory-limit', undefined);
const pageEdges = opt('page-edges', undefined) === undefined ? undefined : Number(opt('page-edges'));
if (pageEdges !== undefined && !(Number.isSafeInteger(pageEdges) && pageEdges >= 1)) fail(`--page-edges ${opt('page-edges')} must be a positive integer`);
const partition = opt('partition', 'high');
const partitionSeed = Number(opt('partition-seed', 1));
if (!['high', 'low', 'rand'].includes(partition)) fail(`--partition ${partition} must be high, low or rand`);
const multiGpu = opt('multi-gpu', undefined);
if (multiGpu !== undefined && !['p', 's'].includes(multiGpu)) fail(`--multi-gpu ${multiGpu} must be p or s`);
if (multiGpu !== undefined && gpuCount < 2) fail('--multi-gpu needs --gpus 2 or more');
if (!Number.isSafeInteger(partitionSeed) || partitionSeed < 0) fail(`--partition-seed ${opt('partition-seed')} must be an integer >= 0`);
const jsonOut = opt('json', undefined);
if (!(scale >= 1 && scale <= 30)) fail(`--scale ${opt('scale')} must be an integer from 1 to 30`);
for (const p of programs) if (!PROGRAMS.some((x) => x.name === p) && !EXAMPLES.some((x) => x.name === p)) fail(`unknown program '${p}' in --programs`);
const checked = programs.map((p) => EXAMPLES.find((x) => x.name === p) ?? findProgram(p));
for (const [i, a] of args.entries()) {
  if (a !== '--module') continue;
  const file = args[i + 1];
  if (file === undefined || !existsSync(file)) fail(`--module ${file ?? ''}: no such file`);
  const found = await programsIn(file);
  if (found.length === 0) fail(`--module ${file} exports no program (defineProgram)`);
  for (const p of found) if (p.demoParams === undefined && Object.values(p.params).some((x) => x.required)) fail(`--module ${file}: program '${p.name}' has required parameters and no demoParams`);
  // (A shipped example's module is the one already imported: checked once.)
  checked.push(...found.filter((p) => !checked.includes(p)));
}

const avail = nativeAvailable();
if (!avail.ok) fail(`the native GPU controller is not available: ${avail.reason}`);
if (!emulated && avail.cudaDevices < device + gpuCount)
  fail(`no CUDA device ${device + gpuCount - 1} here (${avail.cudaDevices} found${avail.cudaReason ? `: ${avail.cudaReason}` : ''}). Fix: run on a GPU host, or add --emulated`);

const threads = os.availableParallelism();
const cpuTopo = { name: '1S', source: 'gpu-check', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };
const gpus = Array.from({ length: gpuCount }, (_, i) => ({ device: device + i, emulated, streams: 4, ...(memoryLimit ? { memoryLimit: parseSize(memoryLimit) } : {}) }));
const gpuTopo = { name: `1S${gpuCount}G${emulated ? '-emulated' : ''}`, source: 'gpu-check', sockets: [{ id: 0, threads }], gpus, interconnect: {}, model: {} };

const graphs = [{ label: `rmat:${scale}`, spec: `rmat:${scale}:weighted`, undirected: false }];
if (snapDir !== undefined && existsSync(snapDir)) {
  for (const f of ['facebook_combined.txt.gz', 'wiki-Vote.txt.gz', 'soc-Epinions1.txt.gz']) {
    const file = path.join(snapDir, f);
    if (existsSync(file)) graphs.push({ label: f.replace(/\.txt\.gz$/, ''), spec: file, undirected: f.startsWith('facebook') });
  }
}

/** A program's demo parameters (traversals from the top hub); a sampled source count from --bc-sources. */
function params(g, program) {
  const given = { ...(program.demoParams?.(g) ?? {}) };
  if (program.params.sources?.type === 'int') Object.assign(given, { sources: bcSources, seed: 1 });
  // louvain runs views up to inlineEdges on the coordinator alone: the check wants its GPU side at every scale.
  if (program.params.inlineEdges?.type === 'int') given.inlineEdges = 0;
  return prepareRun(g, program, given).params;
}

function mismatch(got, want, float) {
  for (let v = 0; v < want.length; v++) {
    const a = got[v];
    const b = want[v];
    if (a === b) continue;
    if (float && Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b))) continue;
    return v;
  }
  return -1;
}

const rows = [];
let failures = 0;
const t0 = performance.now();
for (const gs of graphs) {
  const { graph: g, loadMs } = await loadGraph(gs.spec, { undirected: gs.undirected, pageEdges });
  console.log(`[gpu-check] ${gs.label}: ${g.numVertices} vertices, ${g.numEdges} edges (${g.directed ? 'directed' : 'undirected'}), loaded in ${(loadMs / 1000).toFixed(1)} s`);
  const cpu = await Engine.create(g, cpuTopo);
  try {
    for (const program of checked) {
      const name = program.name;
      const p = params(g, program);
      const a = await cpu.run(program, p);
      const partitionPages = program.profile.mode === 'push' ? 'out' : 'in';
      // Preloaded, as run() and the CLI make their engines (a weighted graph's pages then go to
      // the GPUs without their weights for programs that read none: ProgramSpec.readsWeights).
      const gpuEngine = await Engine.create(g, gpuTopo, await withOwnership(g, gpuTopo, { gpuShare, partition, partitionSeed, partitionPages, multiGpu, preload: [program], ...(forceMode !== undefined ? { forceMode } : {}) }));
      let b;
      try {
        b = await gpuEngine.run(program, p);
      } finally {
        await gpuEngine.close();
      }
      const bad = mismatch(b.values, a.values, program.output === 'float');
      if (bad >= 0) failures++;
      const gs2 = b.report.steps.flatMap((s) => s.actors.filter((x) => x.kind === 'gpu'));
      const sum = (k) => gs2.reduce((acc, x) => acc + x.gpu[k], 0);
      rows.push({
        graph: gs.label,
        program: name,
        ok: bad < 0,
        detail: bad < 0 ? '' : `vertex ${bad}: gpu ${b.values[bad]} cpu ${a.values[bad]}`,
        cpuMs: a.report.totalMs,
        gpuMs: b.report.totalMs,
        supersteps: b.report.supersteps,
        gpuEdges: gs2.reduce((acc, x) => acc + x.edges, 0),
        edges: b.report.edgesProcessed,
        pagesSent: sum('misses'),
        cacheHits: sum('hits'),
        kernelMs: sum('kernelMs'),
        outbox: gs2.reduce((acc, x) => acc + x.messagesAggregated, 0),
        gpuRanges: (b.report.partition?.gpus ?? []).reduce((acc, x) => acc + x.ranges, 0),
        gpuActors: new Set(gs2.map((x) => x.actor)).size,
      });
      const r = rows[rows.length - 1];
      console.log(`[gpu-check]   ${name}: ${r.ok ? 'match' : `MISMATCH ${r.detail}`}; CPU ${r.cpuMs.toFixed(0)} ms, CPU+GPU ${r.gpuMs.toFixed(0)} ms`);
    }
  } finally {
    await cpu.close();
  }
}

let bench;
if (benchScale !== undefined) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-gpu-check-'));
  const out = path.join(dir, 'bench.json');
  const r = spawnSync(process.execPath, [path.join(root, 'native/bench/gpu-bench.mjs'), '--scale', String(benchScale), '--ef', '16', ...(emulated ? ['--emulated'] : []), '--out', out], { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(out)) {
    failures++;
    bench = { error: (r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' ') };
  } else bench = JSON.parse(readFileSync(out, 'utf8'));
}

const pad = (s, n) => String(s).padEnd(n);
const lines = [];
lines.push(
  `tessera gpu-check: ${emulated ? `EMULATED GPU${gpuCount > 1 ? `S x${gpuCount}` : ''} (host backend; timings say nothing about a real GPU)` : gpuCount > 1 ? `CUDA devices ${device}..${device + gpuCount - 1}` : `CUDA device ${device}`}, ${threads} CPU threads, ` +
    `partition ${partition.toUpperCase()}${partition === 'rand' ? ` seed ${partitionSeed}` : ''}${multiGpu !== undefined ? `, multi-GPU ${multiGpu.toUpperCase()}` : ''}, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
lines.push(`${pad('graph', 20)}${pad('program', 11)}${pad('result', 9)}${pad('CPU ms', 10)}${pad('CPU+GPU ms', 12)}${pad('GPU edges', 12)}${pad('pages sent', 12)}${pad('cache hits', 12)}outbox`);
for (const r of rows)
  lines.push(
    `${pad(r.graph, 20)}${pad(r.program, 11)}${pad(r.ok ? 'match' : 'MISMATCH', 9)}${pad(r.cpuMs.toFixed(1), 10)}${pad(r.gpuMs.toFixed(1), 12)}` +
      `${pad(r.gpuEdges, 12)}${pad(r.pagesSent, 12)}${pad(r.cacheHits, 12)}${r.outbox}`,
  );
if (bench !== undefined) {
  if (bench.error) lines.push(`native benchmark FAILED: ${bench.error}`);
  else
    lines.push(
      `native benchmark (scale ${bench.scale}, ${bench.edges} edges, ${bench.device?.name ?? 'device'}): pr_pull warm ${bench.prPull?.gtepsWarm?.toFixed(3)} GTEPS, ` +
        `streaming ${bench.prPullStreaming?.gteps?.toFixed(3)} GTEPS; pr_pull ${bench.prPullCorrect ? 'correct' : 'WRONG'}, bfs ${bench.bfsCorrect ? 'correct' : 'WRONG'}`,
    );
  if (bench.prPullCorrect === false || bench.bfsCorrect === false) failures++;
}
lines.push(failures === 0 ? `OK: ${rows.length} program runs match the CPU results` : `FAILED: ${failures} check(s) failed`);
console.log(lines.join('\n'));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ emulated, device, gpus: gpuCount, scale, partition, partitionSeed, multiGpu, rows, bench, failures }, null, 2));
process.exit(failures === 0 ? 0 : 1);
