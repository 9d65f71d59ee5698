/**
 * Edge-list parse speed: writes a synthetic ~200 MB edge list to the temp directory (or reads the
 * file given as argument), times readGraphFile on it, prints MB/s and edges/s, and deletes the
 * file it wrote.
 *
 *   node dist/bench/parse-speed.js [FILE] [--mb 200] [--weighted] [--gz]
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { readGraphFile } from '../src/graph/readers/index.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Writes random `src dst [weight]` lines (ids < 2^24) until about `mb` MB of text. */
async function writeSynthetic(file: string, mb: number, weighted: boolean, gz: boolean): Promise<number> {
  const out = createWriteStream(file, { highWaterMark: 1 << 22 });
  const sink = gz ? createGzip({ level: 1 }) : undefined;
  if (sink) sink.pipe(out);
  const target = mb * 1e6;
  const buf = Buffer.allocUnsafe(1 << 22);
  let seed = 0x9e3779b9;
  const rnd = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  let bytes = 0;
  while (bytes < target) {
    let o = 0;
    while (o < buf.length - 64) {
      o += buf.write(String(rnd() >>> 8), o, 'latin1');
      buf[o++] = 32;
      o += buf.write(String(rnd() >>> 8), o, 'latin1');
      if (weighted) {
        buf[o++] = 32;
        o += buf.write((rnd() / 4294967296).toFixed(6), o, 'latin1');
      }
      buf[o++] = 10;
    }
    bytes += o;
    const w = sink ?? out;
    if (!w.write(Buffer.from(buf.subarray(0, o)))) await once(w, 'drain');
  }
  (sink ?? out).end();
  await once(out, 'close');
  return bytes;
}

async function main(): Promise<void> {
  const given = process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : undefined;
  const weighted = process.argv.includes('--weighted');
  const gz = process.argv.includes('--gz');
  const mb = Number(arg('--mb') ?? 200);
  const file = given ?? path.join(os.tmpdir(), `tessera-parse-speed-${process.pid}.el${gz ? '.gz' : ''}`);
  let textBytes: number;
  try {
    if (given === undefined) {
      const t = performance.now();
      textBytes = await writeSynthetic(file, mb, weighted, gz);
      console.log(`wrote ${(textBytes / 1e6).toFixed(0)} MB of edge-list text to ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    } else {
      textBytes = (await stat(file)).size;
    }
    const t0 = performance.now();
    const { raw } = await readGraphFile(file, {});
    const s = (performance.now() - t0) / 1000;
    const m = raw.src.length;
    const diskNote = gz ? ' (text MB, gunzip included)' : '';
    console.log(
      `readGraphFile: ${m} edges${raw.weights ? ' (weighted)' : ''} in ${s.toFixed(2)} s: ` +
        `${(textBytes / 1e6 / s).toFixed(0)} MB/s${given && gz ? ' of the compressed file' : diskNote}, ${(m / 1e6 / s).toFixed(1)} M edges/s`,
    );
  } finally {
    if (given === undefined) await rm(file, { force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
