#!/usr/bin/env node
/**
 * .tsr load speed: readTsr(FILE) timed in a fresh process per load (as a CLI run loads it: in a
 * process that loaded before, malloc serves the buffers from its heap and zeroes them), after
 * one warm-up load that also brings the file into the page cache. Prints each load and the
 * median in seconds and GB/s of file.
 *
 * Usage: node bench/tsr-load.mjs FILE.tsr [--loads 5] [--no-verify]
 * Env:   TESSERA_DIST=dir   the built tree to load readTsr from (default: this checkout's dist/)
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const file = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--loads');
if (file === undefined) {
  process.stderr.write('usage: node bench/tsr-load.mjs FILE.tsr [--loads 5] [--no-verify]\n');
  process.exit(2);
}
const li = argv.indexOf('--loads');
const loads = li >= 0 ? Number(argv[li + 1]) : 5;
const verify = !argv.includes('--no-verify');
const dist = process.env.TESSERA_DIST ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const reader = pathToFileURL(path.join(dist, 'src', 'graph', 'tsr-read.js')).href;

// One load in a child: prints its seconds.
const child = `
const { readTsr } = await import(${JSON.stringify(reader)});
const t0 = process.hrtime.bigint();
const g = await readTsr(${JSON.stringify(file)}, { verify: ${verify} });
const s = Number(process.hrtime.bigint() - t0) / 1e9;
if (g.numEdges <= 0 && g.numVertices > 1) throw new Error('empty graph');
process.stdout.write(String(s));
`;
const once = () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

const bytes = statSync(file).size;
const gb = (s) => (bytes / 1e9 / s).toFixed(2);
once();
const times = [];
for (let i = 0; i < loads; i++) {
  const s = once();
  times.push(s);
  process.stdout.write(`load ${i + 1}: ${s.toFixed(3)} s, ${gb(s)} GB/s\n`);
}
times.sort((a, b) => a - b);
const med = times[times.length >> 1];
process.stdout.write(`${file}: ${(bytes / 1e9).toFixed(2)} GB, median of ${loads}: ${med.toFixed(3)} s, ${gb(med)} GB/s (verify ${verify})\n`);
