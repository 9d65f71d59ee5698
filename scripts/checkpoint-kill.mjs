#!/usr/bin/env node
/**
 * The checkpoint acceptance run: for every built-in, an uninterrupted run, then a checkpointed run
 * killed with SIGKILL (kill -9) as soon as its first checkpoint is on disk (or later: --kill-after
 * N checkpoints), then `tessera run --resume` of it; the resumed output must equal the
 * uninterrupted one byte for byte. Prints one line per program (times in ms) and exits 1 on any
 * difference.
 *
 *   node scripts/checkpoint-kill.mjs --graph rmat:18 [--topology configs/1S.yaml] [--every 1] [--programs bfs,pr] [--kill-after 1]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/src/cli/main.js');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const graph = arg('graph', 'rmat:14');
const topology = arg('topology', path.join(root, 'configs/1S.yaml'));
const every = arg('every', '1');
const killAfter = Number(arg('kill-after', '1'));
const weighted = graph.includes(':weighted') ? graph : `${graph}:weighted`;
const { PROGRAMS } = await import(path.join(root, 'dist/src/programs/index.js'));
// Flags per program (every built-in runs; those not named here take none).
const FLAGS = {
  bfs: ['--source', '0'],
  pr: ['--iterations', '10'],
  sssp: ['--source', '0'],
  wcc: [],
  cdlp: ['--iterations', '10'],
  lcc: [],
  bc: ['--sources', '4', '--seed', '1'],
  scc: [],
  ppr: ['--param', 'iterations=30'],
  // The synchronous level 0 (its sub-rounds are safe points); the default runs small graphs on the coordinator, with none.
  louvain: ['--param', 'inlineEdges=0'],
};
const programs = arg('programs', PROGRAMS.map((p) => p.name).join(',')).split(',');
const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-kill-'));

function run(args, { killWhen } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [cli, 'run', ...args, '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    let timer;
    if (killWhen !== undefined) {
      timer = setInterval(() => {
        if (killWhen()) {
          clearInterval(timer);
          p.kill('SIGKILL');
        }
      }, 5);
    }
    p.on('exit', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, ms: performance.now() - t0, err: err.trim() });
    });
  });
}

let bad = 0;
console.log(`graph ${graph}, topology ${path.basename(topology)}, checkpoint every ${every} superstep(s), kill -9 after checkpoint ${killAfter}`);
console.log('program  uninterrupted-ms  killed-at(step)  killed-after-ms  resume-ms  identical');
for (const name of programs) {
  const g = name === 'sssp' ? weighted : graph;
  const common = ['--algo', name, '--graph', g, '--topology', topology, ...(FLAGS[name] ?? [])];
  const ref = path.join(dir, `${name}.ref`);
  const out = path.join(dir, `${name}.out`);
  const ck = path.join(dir, `ck-${name}`);
  const a = await run([...common, '--out', ref]);
  if (a.code !== 0) {
    console.log(`${name}: uninterrupted run failed: ${a.err}`);
    bad++;
    continue;
  }
  const manifest = path.join(ck, 'manifest.json');
  const seq = () => {
    try {
      return JSON.parse(readFileSync(manifest, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const b = await run([...common, '--out', out, '--checkpoint', ck, '--checkpoint-every', every], { killWhen: () => (seq()?.seq ?? 0) >= killAfter });
  const m = seq();
  if (b.signal !== 'SIGKILL' || m === undefined) {
    console.log(`${name}: the checkpointed run ended before a checkpoint could be killed (code ${b.code}, ${b.err || 'no error'})`);
    bad++;
    continue;
  }
  const partial = existsSync(out);
  const c = await run(['--resume', ck]);
  const same = c.code === 0 && !partial && readFileSync(ref).equals(readFileSync(out));
  if (!same) bad++;
  console.log(`${name.padEnd(8)} ${a.ms.toFixed(0).padStart(16)}  ${String(m.step).padStart(15)}  ${b.ms.toFixed(0).padStart(15)}  ${c.ms.toFixed(0).padStart(9)}  ${same ? 'yes' : `NO${partial ? ' (partial output after kill)' : ''}${c.code !== 0 ? ` (resume: ${c.err})` : ''}`}`);
}
rmSync(dir, { recursive: true, force: true });
process.exitCode = bad > 0 ? 1 : 0;
