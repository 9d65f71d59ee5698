/**
 * A .tsr load's checks on the addon's threads (tsrCheck, tsrLoad: native/src/addon_tsr.cpp)
 * against the TypeScript ones (tsr-check.ts), and readTsr with and without them
 * (TESSERA_NATIVE_TSR=0: the fallback): the same checksums, the same flags where the JS pass is
 * exact, and the same one-line errors in file order. Native cases skip only where the toolchain
 * is missing (as native.test.ts).
 */
import test from 'ava';
import { mkdtemp, open, readFile, rm, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeTsrCheck, nativeTsrLoad } from '../actors/gpu/native-host.js';
import { TesseraError } from '../src/errors.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { OFFSETS_BAD, OUT_OF_RANGE, checkBlobs, type BlobToCheck } from '../src/graph/tsr-check.js';
import { readTsr, readTsrHeader, tsrChecksum, writeTsr } from '../src/graph/tsr.js';
import { LOAD_RUN } from '../src/graph/tsr-read.js';
import { pageView } from '../src/graph/pages.js';
import type { Graph } from '../src/graph/types.js';
import { REPO_ROOT } from './helpers/paths.js';

const avail = nativeAvailable();
const skipNative = !avail.ok && avail.toolchainMissing;
const tn = skipNative ? test.skip : test;

let dir = '';
test.before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-tsr-check-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

/**
 * A page's bytes as pages.ts lays them out: offsets (nv + 1 words, 8-byte aligned part), ids
 * (padded with a zero word to 8 bytes), then `slack` words of anything (as weights).
 */
function pageBytes(r: () => number, nv: number, edges: number, n: number, slack: number): { blob: BlobToCheck; ids: Uint32Array } {
  const from = ((4 * (nv + 1) + 7) & ~7) >>> 2;
  const padded = from + edges + (edges & 1);
  const words = new Uint32Array(new SharedArrayBuffer(4 * (padded + slack)));
  for (let v = 1; v <= nv; v++) words[v] = Math.floor((edges * v) / nv);
  for (let k = 0; k < edges; k++) words[from + k] = r() % n;
  for (let k = padded; k < words.length; k++) words[k] = r();
  return { blob: { bytes: new Uint8Array(words.buffer), nv, from, to: from + edges }, ids: words.subarray(from, from + edges) };
}

tn('tsrCheck: the checksum equals tsrChecksum on random byte ranges (odd lengths, unaligned starts and tails)', (t) => {
  t.truthy(nativeTsrCheck(), avail.ok ? 'the addon has tsrCheck' : `native addon unavailable: ${avail.ok || avail.reason}`);
  const r = rng(7);
  const buf = new Uint8Array(new SharedArrayBuffer(1 << 16));
  for (let i = 0; i < buf.length; i++) buf[i] = r() & 0xff;
  const blobs: BlobToCheck[] = [];
  for (let len = 0; len < 40; len++) for (let off = 0; off < 9; off++) blobs.push({ bytes: buf.subarray(off, off + len), nv: -1, from: 0, to: 0 });
  for (let k = 0; k < 200; k++) {
    const off = r() % 4096;
    blobs.push({ bytes: buf.subarray(off, off + (r() % (buf.length - off))), nv: -1, from: 0, to: 0 });
  }
  const native = checkBlobs(blobs, 0);
  const js = checkBlobs(blobs, 0, false);
  for (let i = 0; i < blobs.length; i++) {
    const want = tsrChecksum(blobs[i]!.bytes);
    if (native[2 * i] !== want || js[2 * i] !== want) return t.fail(`blob ${i} (offset ${blobs[i]!.bytes.byteOffset}, ${blobs[i]!.bytes.length} bytes): native ${native[2 * i]}, js ${js[2 * i]}, tsrChecksum ${want}`);
  }
  t.pass();
});

tn('tsrCheck: pages of random shapes get the JS checksum and flags; an id >= n anywhere in the range is flagged, one past it is not', (t) => {
  const r = rng(11);
  for (let trial = 0; trial < 300; trial++) {
    const nv = 1 + (r() % 9);
    const edges = r() % 23;
    const n = 1 + (r() % 1000);
    const { blob, ids } = pageBytes(r, nv, edges, n, r() % 3);
    // The slack may hold anything (not ids).
    const [ck, fl] = checkBlobs([blob], n);
    const js = checkBlobs([blob], n, false);
    t.is(ck, tsrChecksum(blob.bytes));
    t.is(ck, js[0]);
    t.is(fl, 0, `trial ${trial}: clean page flagged`);
    for (let k = 0; k < edges; k++) {
      const old = ids[k]!;
      ids[k] = n + (r() % 5);
      const [c2, f2] = checkBlobs([blob], n);
      t.is(f2, OUT_OF_RANGE, `trial ${trial}: id ${k} of ${edges} >= n not flagged`);
      t.is(c2, tsrChecksum(blob.bytes));
      t.is(checkBlobs([blob], n, false)[1], OUT_OF_RANGE);
      ids[k] = old;
    }
  }
  // A word after the range is not an id (the JS pass looks at the padding word too: it is zero).
  const { blob } = pageBytes(r, 3, 10, 50, 2);
  const w = new Uint32Array(blob.bytes.buffer);
  w[blob.to] = 0xffffffff;
  t.is(checkBlobs([blob], 50)[1], 0);
  // Large n (above 2^31, where the JS pass only says "look"): exact natively.
  const big = pageBytes(r, 2, 9, 0xfffffff0, 0);
  new Uint32Array(big.blob.bytes.buffer)[big.blob.from + 4] = 0xfffffff0;
  t.is(checkBlobs([big.blob], 0xfffffff0)[1], OUT_OF_RANGE);
  new Uint32Array(big.blob.bytes.buffer)[big.blob.from + 4] = 0xffffffef;
  t.is(checkBlobs([big.blob], 0xfffffff0)[1], 0);
  t.is(checkBlobs([big.blob], 0xfffffff0, false)[1], OUT_OF_RANGE);
});

tn('tsrCheck: offsets not from 0, decreasing or not ending at the edge count are flagged, as in JS', (t) => {
  const r = rng(5);
  const cases: Array<[string, (w: Uint32Array, nv: number, edges: number) => void]> = [
    ['start', (w) => (w[0] = 1)],
    ['decrease', (w) => (w[2] = w[3]! + 1)],
    ['end', (w, nv, edges) => (w[nv] = edges + 1)],
    ['end short', (w, nv, edges) => (w[nv] = edges - 1)],
  ];
  for (const [what, damage] of cases) {
    const { blob } = pageBytes(r, 5, 20, 100, 1);
    damage(new Uint32Array(blob.bytes.buffer), 5, 20);
    t.is(checkBlobs([blob], 100)[1]! & OFFSETS_BAD, OFFSETS_BAD, what);
    t.is(checkBlobs([blob], 100, false)[1]! & OFFSETS_BAD, OFFSETS_BAD, what);
  }
  // Many blobs at once (several threads): each its own result.
  const blobs = Array.from({ length: 37 }, (_, i) => pageBytes(r, 1 + (i % 7), 3 * i, 64, i % 2).blob);
  new Uint32Array(blobs[20]!.bytes.buffer)[0] = 9;
  const out = checkBlobs(blobs, 64);
  blobs.forEach((b, i) => {
    t.is(out[2 * i], tsrChecksum(b.bytes));
    t.is(out[2 * i + 1], i === 20 ? OFFSETS_BAD : 0);
  });
});

// ---- readTsr with and without the addon's reads and checks ----------------------------------

/** Runs fn with the addon's .tsr functions off (TESSERA_NATIVE_TSR=0). */
async function withoutNative<T>(fn: () => Promise<T>): Promise<T> {
  process.env.TESSERA_NATIVE_TSR = '0';
  try {
    return await fn();
  } finally {
    delete process.env.TESSERA_NATIVE_TSR;
  }
}

/** Both ways: the error of readTsr(file), the same message with and without the addon. */
async function bothFail(t: import('ava').ExecutionContext, file: string, message: RegExp): Promise<void> {
  const a = await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message });
  const b = await withoutNative(() => t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message }));
  t.is(a?.message, b?.message);
  // Read in calls of a few blobs each, the first damage in file order still the one named.
  const saved = { ...LOAD_RUN };
  Object.assign(LOAD_RUN, { blobs: 3 });
  try {
    const c = await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message });
    t.is(c?.message, a?.message);
  } finally {
    Object.assign(LOAD_RUN, saved);
  }
  t.notRegex(a?.message ?? '', /\n/);
}

async function putU32(file: string, at: number, v: number): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    await fh.write(b, 0, 4, at);
  } finally {
    await fh.close();
  }
}

function sameGraph(t: import('ava').ExecutionContext, a: Graph, b: Graph): void {
  t.is(a.numVertices, b.numVertices);
  t.is(a.numEdges, b.numEdges);
  for (const o of ['out', 'in'] as const) {
    t.deepEqual(Array.from(a[o].firstPageOf), Array.from(b[o].firstPageOf));
    t.is(a[o].pages.length, b[o].pages.length);
    a[o].pages.forEach((p, i) => t.deepEqual(pageView(p), pageView(b[o].pages[i]!)));
  }
  t.deepEqual(Array.from(a.outDegree), Array.from(b.outDegree));
  t.deepEqual(Array.from(a.inDegree), Array.from(b.inDegree));
  t.deepEqual(Array.from(a.ids.byOriginal), Array.from(b.ids.byOriginal));
}

test.serial('readTsr: the same graph with the addon (tsrLoad), without it, and unverified', async (t) => {
  if (!skipNative) t.truthy(nativeTsrLoad(), 'the addon has tsrLoad');
  for (const [spec, directed] of [['rmat:9:weighted', true], ['rmat:8', false]] as const) {
    const g = buildGraph(generateEdges(spec), { pageEdges: 700, directed });
    const file = path.join(dir, `rt-${directed}.tsr`);
    await writeTsr(g, file);
    const progress: number[] = [];
    const a = await readTsr(file, { onProgress: (d, total) => progress.push(d / total) });
    t.is(progress[progress.length - 1], 1);
    sameGraph(t, a, await withoutNative(() => readTsr(file)));
    // Read in calls of a few blobs each (a large file's batches), its pages in several buffers.
    const saved = { ...LOAD_RUN };
    Object.assign(LOAD_RUN, { blobs: 3, bytes: 1 << 30 });
    try {
      const c = await readTsr(file);
      sameGraph(t, a, c);
      if (!skipNative) t.true(new Set(c.out.pages.map((p) => p.buffer)).size > 1, 'several read batches');
    } finally {
      Object.assign(LOAD_RUN, saved);
    }
    sameGraph(t, a, await readTsr(file, { verify: false }));
    sameGraph(t, a, await withoutNative(() => readTsr(file, { verify: false })));
  }
});

test.serial('readTsr: a corrupt page, a corrupt array and a cut file give the same one-line errors either way, in file order', async (t) => {
  const g = buildGraph(generateEdges('rmat:9:weighted'), { pageEdges: 500 });
  const fresh = async (name: string) => {
    const file = path.join(dir, name);
    await writeTsr(g, file);
    return { file, h: await readTsrHeader(file) };
  };
  const nbrAt = (e: { offset: number; vBegin: number; vEnd: number }, k: number): number => e.offset + ((4 * (e.vEnd - e.vBegin + 1) + 7) & ~7) + 4 * k;

  // A neighbour id out of range, named with its vertex; a later page's damage is not reached.
  const { file, h } = await fresh('nbr.tsr');
  const e = h.pages.out[2]!;
  await putU32(file, nbrAt(e, 0), h.numVertices + 3);
  await putU32(file, nbrAt(h.pages.in[1]!, 0), h.numVertices);
  await bothFail(t, file, new RegExp(`nbr\\.tsr: out page 2 \\((vertex \\d+|vertices \\d+ to \\d+)\\) is corrupt: vertex \\d+ has neighbour id ${h.numVertices + 3} \\(edge 0 of the page\\), not below the ${h.numVertices} vertices`));

  // Offsets, then a checksum: each named on its page.
  const { file: f2, h: h2 } = await fresh('offs.tsr');
  await putU32(f2, h2.pages.in[3]!.offset, 5);
  await bothFail(t, f2, /offs\.tsr: in page 3 \(.*\) is corrupt: its offsets start at 5, not 0/);
  const { file: f3, h: h3 } = await fresh('ck.tsr');
  const c = h3.pages.out[h3.pages.out.length - 1]!;
  const old = (await readFile(f3)).readUInt32LE(c.offset + c.length - 4);
  await putU32(f3, c.offset + c.length - 4, old ^ 1);
  await bothFail(t, f3, new RegExp(`ck\\.tsr: out page ${c.index} \\(.*\\) is corrupt: checksum mismatch \\(bytes ${c.offset} to ${c.offset + c.length} changed after the file was written\\)`));

  // An array's checksum.
  const { file: f4, h: h4 } = await fresh('arr.tsr');
  await putU32(f4, h4.arrays.toOriginal.offset + 8, 123456);
  await bothFail(t, f4, /arr\.tsr: array toOriginal is corrupt: checksum mismatch/);

  // A cut file: the header's size check names the first blob cut off, either way.
  const { file: f5, h: h5 } = await fresh('cut.tsr');
  await truncate(f5, h5.pages.in[2]!.offset + 64);
  await bothFail(t, f5, /cut\.tsr: the file is truncated: \d+ bytes, the header says \d+ \(in page 2 and everything after it are cut off\)/);
});

tn('tsrLoad: blobs read at their positions and checked; a blob past the end of the file says so (the caller reads it again)', async (t) => {
  const load = nativeTsrLoad();
  if (load === undefined) return t.fail('the addon has no tsrLoad');
  const file = path.join(dir, 'raw.bin');
  const r = rng(3);
  const data = Buffer.alloc(100_003);
  for (let i = 0; i < data.length; i++) data[i] = r() & 0xff;
  const fh = await open(file, 'w+');
  try {
    await fh.write(data, 0, data.length, 0);
    const spans: Array<[number, number]> = [[0, 4096], [17, 999], [4096, 50_001], [99_000, 1003], [99_999, 10], [200_000, 8]];
    const views = spans.map(([, len]) => new Uint8Array(new SharedArrayBuffer(len)));
    const spec = new Float64Array(3 * spans.length).fill(0);
    spans.forEach((_, i) => (spec[3 * i] = -1));
    const out = new Uint32Array(3 * spans.length);
    await load(fh.fd, views, Float64Array.from(spans.map(([at]) => at)), spec, 0, true, out);
    spans.forEach(([at, len], i) => {
      const whole = at + len <= data.length;
      t.is(out[3 * i + 2] === 0, whole, `span ${i}`);
      if (!whole) return;
      t.deepEqual(Buffer.from(views[i]!), data.subarray(at, at + len));
      t.is(out[3 * i], tsrChecksum(data.subarray(at, at + len)));
    });
  } finally {
    await fh.close();
  }
});

tn('tsrLoad: a page larger than its read chunks hashes and checks ids across the chunks as tsrCheck does', async (t) => {
  const load = nativeTsrLoad();
  if (load === undefined) return t.fail('the addon has no tsrLoad');
  const r = rng(9);
  const n = 1000;
  const { blob, ids } = pageBytes(r, 5, 300_001, n, 1001);
  const file = path.join(dir, 'big-page.bin');
  const fh = await open(file, 'w+');
  try {
    // Clean, then an id >= n on each side of the 256 KiB chunk edges (words 65536 k).
    for (const bad of [-1, 65536 - blob.from - 1, 65536 - blob.from, 131072 - blob.from + 1, ids.length - 1]) {
      const old = bad >= 0 ? ids[bad]! : 0;
      if (bad >= 0) ids[bad] = n + 1;
      await fh.write(blob.bytes, 0, blob.bytes.length, 4096);
      const view = new Uint8Array(new SharedArrayBuffer(blob.bytes.length));
      const out = new Uint32Array(3);
      await load(fh.fd, [view], Float64Array.of(4096), Float64Array.of(blob.nv, blob.from, blob.to), n, true, out);
      const want = checkBlobs([blob], n);
      t.deepEqual(Array.from(out), [want[0], want[1], 0], `id ${bad}`);
      t.is(out[0], tsrChecksum(blob.bytes));
      t.is(out[1], bad >= 0 ? OUT_OF_RANGE : 0);
      if (bad >= 0) ids[bad] = old;
    }
  } finally {
    await fh.close();
  }
});

// A process exiting during a load (a refused run) stops the addon's reads at their next chunk
// (tsrStop at the exit event; node waits for its thread pool's work). Stopped, a load's unread
// blobs are read again on this thread, so one stopped midway still gives the whole graph.
tn('tsrStop: a load in flight when the process exits ends it cleanly; a stopped load still reads the whole graph', async (t) => {
  const g = buildGraph(generateEdges('rmat:12:weighted'), { pageEdges: 400 });
  const file = path.join(dir, 'stop.tsr');
  await writeTsr(g, file);
  const dist = path.join(REPO_ROOT, 'dist');
  const script = `
    const { readTsr, LOAD_RUN } = await import(${JSON.stringify(path.join(dist, 'src/graph/tsr-read.js'))});
    const { nativeTsrStop } = await import(${JSON.stringify(path.join(dist, 'actors/gpu/native-host.js'))});
    const whole = await readTsr(process.argv[1]);
    LOAD_RUN.blobs = 2;
    const p = readTsr(process.argv[1]);
    nativeTsrStop()();
    const stopped = await p;
    const same = stopped.out.pages.every((q, i) => Buffer.from(q.nbrs.buffer, q.nbrs.byteOffset, q.nbrs.byteLength).equals(Buffer.from(whole.out.pages[i].nbrs.buffer, whole.out.pages[i].nbrs.byteOffset, whole.out.pages[i].nbrs.byteLength)));
    console.log(same ? 'same' : 'differs', stopped.out.pages.length);
    readTsr(process.argv[1]);
    setImmediate(() => process.exit(3));`;
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8', timeout: 60_000 });
  t.is(r.status, 3, r.stderr);
  t.is(r.stdout.trim(), `same ${g.out.pages.length}`);
  t.is(r.stderr, '');
});
