import test from 'ava';
import { mkdtemp, open, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TesseraError } from '../src/errors.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { allocPage, pageView } from '../src/graph/pages.js';
import { materializeGraph, shareGraph } from '../actors/cpu/share.js';
import { nativeTsrLoad } from '../actors/gpu/native-host.js';
import { loadGraph } from '../src/graph/load.js';
import { TSR_ALIGN, isTsrFile, pageBytes, readTsr, readTsrArray, readTsrHeader, readTsrPage, verifyTsr, writeTsr, type TsrPageEntry } from '../src/graph/tsr.js';
import type { Graph, Page, PageSet, WeightType } from '../src/graph/types.js';
import { tessera } from './helpers/cli.js';
import { rawFrom } from './helpers/raw.js';

let dir = '';
test.before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-tsr-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sameArray(t: import('ava').ExecutionContext, a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined, what: string): void {
  if (a === undefined || b === undefined) {
    t.is(a, b, what);
    return;
  }
  t.is(a.constructor, b.constructor, `${what}: type`);
  t.is(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) {
      t.fail(`${what}[${i}]: ${a[i]} != ${b[i]}`);
      return;
    }
  }
}

function samePage(t: import('ava').ExecutionContext, a: Page, b: Page, what: string): void {
  t.is(a.index, b.index, `${what} index`);
  t.is(a.vBegin, b.vBegin, `${what} vBegin`);
  t.is(a.vEnd, b.vEnd, `${what} vEnd`);
  t.is(a.split, b.split, `${what} split`);
  t.is(a.edges, b.edges, `${what} edges`);
  sameArray(t, a.offsets, b.offsets, `${what} offsets`);
  sameArray(t, a.nbrs, b.nbrs, `${what} nbrs`);
  sameArray(t, a.weights, b.weights, `${what} weights`);
  t.true(a.buffer instanceof SharedArrayBuffer);
  t.is(a.offsets.buffer, a.buffer);
  t.is(a.nbrs.buffer, a.buffer);
  if (a.weights) t.is(a.weights.buffer, a.buffer);
}

function sameSet(t: import('ava').ExecutionContext, a: PageSet, b: PageSet): void {
  t.is(a.orientation, b.orientation);
  t.is(a.pages.length, b.pages.length, `${a.orientation} page count`);
  a.pages.forEach((p, i) => samePage(t, p, b.pages[i]!, `${a.orientation} page ${i}`));
  sameArray(t, a.firstPageOf, b.firstPageOf, `${a.orientation} firstPageOf`);
}

function sameGraph(t: import('ava').ExecutionContext, a: Graph, b: Graph): void {
  t.is(a.numVertices, b.numVertices);
  t.is(a.numEdges, b.numEdges);
  t.is(a.directed, b.directed);
  t.is(a.weightType, b.weightType);
  t.is(a.pageEdges, b.pageEdges);
  t.is(a.source, b.source);
  sameSet(t, a.out, b.out);
  sameSet(t, a.in, b.in);
  sameArray(t, a.outDegree, b.outDegree, 'outDegree');
  sameArray(t, a.inDegree, b.inDegree, 'inDegree');
  sameArray(t, a.ids.toOriginal, b.ids.toOriginal, 'toOriginal');
  sameArray(t, a.ids.byOriginal, b.ids.byOriginal, 'byOriginal');
  t.is(a.in === a.out, b.in === b.out, 'in === out');
  t.is(a.inDegree === a.outDegree, b.inDegree === b.outDegree, 'inDegree === outDegree');
  t.true(a.outDegree.buffer instanceof SharedArrayBuffer);
  t.true(a.ids.toOriginal.buffer instanceof SharedArrayBuffer);
}

/** A weighted float64 graph with a hub (split pages) and duplicate edges. */
function float64Raw(directed: boolean) {
  const edges: Array<[number, number, number]> = [];
  let x = 17;
  const rnd = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    return x / 0x80000000;
  };
  for (let i = 0; i < 3000; i++) {
    const s = rnd() < 0.3 ? 5 : Math.floor(rnd() * 400) * 3;
    edges.push([s, Math.floor(rnd() * 400) * 3 + 1, rnd() * 10]);
  }
  return rawFrom(edges, { directed, weighted: true });
}

const cases: Array<[string, () => Graph]> = [
  ['directed rmat', () => buildGraph(generateEdges('rmat:11'), { pageEdges: 300 })],
  ['undirected rmat', () => buildGraph(generateEdges('rmat:11:seed=4'), { pageEdges: 2000, directed: false })],
  ['weighted float32', () => buildGraph(generateEdges('uniform:10:weighted'), { pageEdges: 3000 })],
  ['weighted float64 directed', () => buildGraph(float64Raw(true), { pageEdges: 256 })],
  ['weighted float64 undirected', () => buildGraph(float64Raw(false), { pageEdges: 256 })],
  ['one page', () => buildGraph(rawFrom([[1, 2], [2, 3], [3, 1]]))],
];

for (const [name, make] of cases) {
  test(`round trip: ${name}`, async (t) => {
    const g = make();
    const file = path.join(dir, `${name.replace(/ /g, '-')}.tsr`);
    await writeTsr(g, file);
    const back = await readTsr(file);
    sameGraph(t, back, g);
    if (!g.directed) {
      t.is(back.in, back.out);
      t.is(back.inDegree, back.outDegree);
    }
    // Page buffers are stored verbatim and 4096-aligned.
    const h = await readTsrHeader(file);
    t.is(h.numEdges, g.numEdges);
    t.is(h.source, g.source);
    t.deepEqual(h.build, (g as { build?: unknown }).build);
    for (const e of [...h.pages.out, ...h.pages.in]) t.is(e.offset % TSR_ALIGN, 0);
    const bytes = await readFile(file);
    t.is(bytes.length, h.fileBytes);
    const p0 = h.pages.out[0]!;
    t.true(Buffer.from(g.out.pages[0]!.buffer).equals(bytes.subarray(p0.offset, p0.offset + p0.length)));
    // Read back, each page's own bytes are its blob (with the addon the pages of a read batch
    // share one buffer, each from a 4 KiB boundary); written again, they go as they are.
    const entries = [...h.pages.out, ...(g.directed ? h.pages.in : [])];
    const pages = [...back.out.pages, ...(g.directed ? back.in.pages : [])];
    t.is(pages.length, entries.length);
    pages.forEach((p, i) => {
      const e = entries[i]!;
      t.true(Buffer.from(pageView(p)).equals(bytes.subarray(e.offset, e.offset + e.length)), `page ${i}`);
      t.is(p.offsets.byteOffset % 4096, 0);
      t.is(pageBytes(p, back.weightType).buffer, p.buffer, 'no copy when written');
    });
    const buffers = new Set(pages.map((p) => p.buffer)).size;
    if (nativeTsrLoad() !== undefined && pages.length > 1) t.true(buffers < pages.length, `${buffers} buffers for ${pages.length} pages`);
    // Shared with a worker: each buffer once, the same pages over it.
    const share = shareGraph(back, 1);
    t.is(share.shared.length, buffers + 4);
    const m = materializeGraph(share);
    sameSet(t, m.out, g.out);
    sameSet(t, m.in, g.in);
    t.true(await isTsrFile(file));
    t.deepEqual((await readdir(dir)).filter((f) => f.startsWith(`${path.basename(file)}.tmp-`)), []);
  });
}

test('readTsrPage reads single pages by path, FileHandle or fd', async (t) => {
  const g = buildGraph(generateEdges('rmat:12'), { pageEdges: 400 });
  const file = path.join(dir, 'pages.tsr');
  await writeTsr(g, file);
  const h = await readTsrHeader(file);
  t.is(h.pages.out.length, g.out.pages.length);
  t.is(h.pages.in.length, g.in.pages.length);
  t.true(g.out.pages.some((p) => p.split), 'the test graph should have split pages');
  for (const o of ['out', 'in'] as const) {
    for (const i of [0, 1, g[o].pages.length - 1]) samePage(t, await readTsrPage(file, h, o, i), g[o].pages[i]!, `${o} ${i}`);
  }
  const fh = await open(file, 'r');
  try {
    samePage(t, await readTsrPage(fh, h, 'in', 2), g.in.pages[2]!, 'fh');
    samePage(t, await readTsrPage(fh.fd, h, 'out', 3), g.out.pages[3]!, 'fd');
  } finally {
    await fh.close();
  }
  sameArray(t, await readTsrArray(file, h, 'outDegree'), g.outDegree, 'outDegree');
  sameArray(t, await readTsrArray(file, h, 'toOriginal'), g.ids.toOriginal, 'toOriginal');
  await t.throwsAsync(readTsrPage(file, h, 'out', 9999), { instanceOf: TesseraError, message: /page 9999 does not exist/ });
});

test('undirected: in pages are the out pages', async (t) => {
  const g = buildGraph(generateEdges('uniform:10'), { pageEdges: 3000, directed: false });
  const file = path.join(dir, 'undirected.tsr');
  await writeTsr(g, file);
  const h = await readTsrHeader(file);
  t.is(h.pages.in, h.pages.out);
  samePage(t, await readTsrPage(file, h, 'in', 1), g.out.pages[1]!, 'in 1');
  // One page set, three arrays: the file is about half a directed one.
  const d = buildGraph(generateEdges('uniform:10'), { pageEdges: 3000 });
  const fd = path.join(dir, 'directed.tsr');
  await writeTsr(d, fd);
  const hd = await readTsrHeader(fd);
  t.is(hd.pages.in.length, d.in.pages.length);
  t.not(hd.pages.in, hd.pages.out);
});

test('a hand-made graph whose pages are not in the canonical layout is written canonically', async (t) => {
  // Page arrays that live in a larger buffer at other offsets.
  const big = new SharedArrayBuffer(4096);
  const offsets = new Uint32Array(big, 64, 3);
  offsets.set([0, 2, 3]);
  const nbrs = new Uint32Array(big, 512, 3);
  nbrs.set([1, 2, 0]);
  const p: Page = { index: 0, vBegin: 0, vEnd: 2, split: false, edges: 3, offsets, nbrs, buffer: big };
  const q = allocPage(1, 2, 3, 1, false, undefined);
  q.offsets.set([0, 1]);
  q.nbrs[0] = 0;
  const sab = (n: number, v: number[]): Uint32Array => {
    const a = new Uint32Array(new SharedArrayBuffer(4 * n));
    a.set(v);
    return a;
  };
  const out: PageSet = { orientation: 'out', pages: [p, q], firstPageOf: sab(3, [0, 0, 1]) };
  const deg = sab(3, [2, 1, 1]);
  const g: Graph = {
    numVertices: 3,
    numEdges: 4,
    directed: false,
    out,
    in: out,
    outDegree: deg,
    inDegree: deg,
    ids: { toOriginal: sab(3, [10, 20, 30]), byOriginal: sab(3, [0, 1, 2]) },
    pageEdges: 2,
    source: 'hand-made',
  };
  const file = path.join(dir, 'hand.tsr');
  await writeTsr(g, file);
  const back = await readTsr(file);
  sameGraph(t, back, g);
  t.is((await readTsrHeader(file)).pages.out[0]!.length, 32);
  t.is(pageView(back.out.pages[0]!).byteLength, 32);
});

// ---------------------------------------------------------------------------------------------
// errors

async function sample(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeTsr(buildGraph(generateEdges('rmat:9:weighted'), { pageEdges: 1500 }), file);
  return file;
}

async function patch(file: string, at: number, bytes: number[]): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.write(Buffer.from(bytes), 0, bytes.length, at);
  } finally {
    await fh.close();
  }
}

test('errors: missing, empty, not a .tsr, wrong version', async (t) => {
  const missing = path.join(dir, 'missing.tsr');
  await t.throwsAsync(readTsr(missing), { instanceOf: TesseraError, message: /missing\.tsr: no such file/ });
  const empty = path.join(dir, 'empty.tsr');
  await writeFile(empty, '');
  await t.throwsAsync(readTsr(empty), { instanceOf: TesseraError, message: /empty\.tsr: not a tessera graph file/ });
  const text = path.join(dir, 'text.tsr');
  await writeFile(text, '1 2\n2 3\n3 4\n4 5\n5 6\n');
  await t.throwsAsync(readTsrHeader(text), { instanceOf: TesseraError, message: /text\.tsr: not a tessera graph file \(it starts with "1 2\\n"/ });
  t.false(await isTsrFile(text));
  const v2 = await sample('v2.tsr');
  await patch(v2, 4, [2, 0, 0, 0]);
  await t.throwsAsync(readTsr(v2), { instanceOf: TesseraError, message: /v2\.tsr: unsupported \.tsr version 2/ });
});

test('errors: truncated files', async (t) => {
  const file = await sample('trunc.tsr');
  const h = await readTsrHeader(file);
  // Cut inside the blobs: the header notices.
  await truncate(file, h.fileBytes - 100);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /trunc\.tsr: the file is truncated: \d+ bytes, the header says \d+ \(.* and everything after it are cut off\)/ });
  await t.throwsAsync(readTsrHeader(file), { instanceOf: TesseraError, message: /truncated/ });
  // A page read with a stale header notices too.
  const last = h.pages.in.at(-1)!;
  await truncate(file, last.offset + 10);
  await t.throwsAsync(readTsrPage(file, h, 'in', last.index), { instanceOf: TesseraError, message: /trunc\.tsr: the file is truncated/ });
  // Cut inside the header.
  await truncate(file, 40);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /trunc\.tsr: the file is truncated: its header needs/ });
  await truncate(file, 10);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /not a tessera graph file: only 10 bytes/ });
});

test('errors: corrupt header and corrupt pages', async (t) => {
  const file = await sample('corrupt.tsr');
  const h = await readTsrHeader(file);
  await patch(file, 30, [0xff, 0xfe]);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /corrupt\.tsr: the header is corrupt \(checksum mismatch\)/ });

  const file2 = await sample('corrupt2.tsr');
  const p = h.pages.out[1]!;
  // Flip one neighbour id in the middle of page 1.
  const at = p.offset + Math.floor(p.length / 2);
  const orig = (await readFile(file2)).subarray(at, at + 1)[0]!;
  await patch(file2, at, [orig ^ 0x10]);
  // (A structural check or the checksum notices, whichever says more.)
  await t.throwsAsync(readTsr(file2), { instanceOf: TesseraError, message: /corrupt2\.tsr: out page 1 \(vertices \d+ to \d+\) is corrupt: / });
  await t.throwsAsync(readTsrPage(file2, h, 'out', 1), { instanceOf: TesseraError, message: /out page 1 \(.*\) is corrupt/ });
  // verify: false skips checksums (for speed) but still checks where page offsets start and end.
  await t.notThrowsAsync(readTsrPage(file2, h, 'out', 1, { verify: false }));
  await patch(file2, p.offset, [9]);
  await t.throwsAsync(readTsrPage(file2, h, 'out', 1, { verify: false }), { instanceOf: TesseraError, message: /its offsets start at 9, not 0/ });
});

test('errors: writing into a missing directory leaves nothing behind', async (t) => {
  const g = buildGraph(rawFrom([[1, 2]]));
  await t.throwsAsync(writeTsr(g, path.join(dir, 'nope', 'g.tsr')), { instanceOf: TesseraError, message: /nope\/g\.tsr: cannot write/ });
});

// ---------------------------------------------------------------------------------------------
// damaged files: verified reads refuse them, `tessera info` checks the whole file

const DAMAGED = /Fix: the file is damaged: convert the source graph again/;

/** A directed, weighted graph of several pages, written, with its header. */
async function damageable(name: string): Promise<{ file: string; h: Awaited<ReturnType<typeof readTsrHeader>> }> {
  const file = path.join(dir, name);
  await writeTsr(buildGraph(generateEdges('rmat:9:weighted'), { pageEdges: 1500 }), file);
  return { file, h: await readTsrHeader(file) };
}

async function putU32(file: string, at: number, v: number): Promise<void> {
  await patch(file, at, [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24]);
}

/** File position of a page's offsets[k] and nbrs[k] (pages.ts layout). */
const offsetAt = (e: TsrPageEntry, k: number): number => e.offset + 4 * k;
const nbrAt = (e: TsrPageEntry, k: number): number => e.offset + ((4 * (e.vEnd - e.vBegin + 1) + 7) & ~7) + 4 * k;

/** A page of the table with at least `nv` vertices (not split). */
function pageWith(table: TsrPageEntry[], nv: number): TsrPageEntry {
  const e = table.find((x) => x.index > 0 && !x.split && x.vEnd - x.vBegin >= nv && x.edges >= 8);
  if (e === undefined) throw new Error('the test graph has no such page');
  return e;
}

/** `tessera info FILE` exits 1 with one line: the file, then what is wrong, then the fix. */
async function infoFails(t: import('ava').ExecutionContext, file: string, ...patterns: RegExp[]): Promise<void> {
  const r = await tessera(['info', file]);
  t.is(r.code, 1, `exit code (stdout: ${r.stdout}, stderr: ${r.stderr})`);
  t.is(r.stdout, '');
  t.regex(r.stderr, /^tessera: [^\n]+\n$/, `one line, got: ${r.stderr}`);
  t.true(r.stderr.startsWith(`tessera: ${file}: `), r.stderr);
  t.regex(r.stderr, DAMAGED);
  for (const p of patterns) t.regex(r.stderr, p);
}

/** `tessera info FILE --no-verify` reads the header only: it describes a file with a damaged page. */
async function quickLookPasses(t: import('ava').ExecutionContext, file: string): Promise<void> {
  const r = await tessera(['info', file, '--no-verify']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^verified +no \(--no-verify/m);
}

test('damaged: flipped page offsets are refused by reads and by tessera info, naming the page', async (t) => {
  const { file, h } = await damageable('dmg-offsets.tsr');
  const e = pageWith(h.pages.out, 4);
  await putU32(file, offsetAt(e, 2), 0x7fff0000);
  const what = new RegExp(`dmg-offsets\\.tsr: out page ${e.index} \\(vertices ${e.vBegin} to ${e.vEnd - 1}\\) is corrupt: its offsets decrease at vertex ${e.vBegin + 2} \\(its edges start at 2147418112 and end at \\d+\\)`);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: what });
  await t.throwsAsync(loadGraph(file), { instanceOf: TesseraError, message: what });
  await t.throwsAsync(readTsrPage(file, h, 'out', e.index), { instanceOf: TesseraError, message: what });
  await t.throwsAsync(verifyTsr(file), { instanceOf: TesseraError, message: DAMAGED });
  await infoFails(t, file, what);
  await quickLookPasses(t, file);

  // The last offset: past the page's edge count (caught even with verify: false).
  const { file: file2, h: h2 } = await damageable('dmg-offsets-end.tsr');
  const f = pageWith(h2.pages.in, 4);
  await putU32(file2, offsetAt(f, f.vEnd - f.vBegin), f.edges + 1);
  const end = new RegExp(`in page ${f.index} \\(.*\\) is corrupt: its offsets end at ${f.edges + 1}, but the page holds ${f.edges} edges`);
  await t.throwsAsync(readTsr(file2), { instanceOf: TesseraError, message: end });
  await t.throwsAsync(readTsr(file2, { verify: false }), { instanceOf: TesseraError, message: end });
  await infoFails(t, file2, end);
});

test('damaged: a flipped neighbour id is refused by reads and by tessera info, naming the page and vertex', async (t) => {
  const { file, h } = await damageable('dmg-nbr.tsr');
  const e = pageWith(h.pages.in, 2);
  const page = await readTsrPage(file, h, 'in', e.index);
  let v = page.vBegin;
  while (page.offsets[v - page.vBegin + 1]! <= 5) v++;
  await putU32(file, nbrAt(e, 5), 0x00ff0000);
  const what = new RegExp(`dmg-nbr\\.tsr: in page ${e.index} \\(.*\\) is corrupt: vertex ${v} has neighbour id 16711680 \\(edge 5 of the page\\), not below the ${h.numVertices} vertices`);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: what });
  await t.throwsAsync(readTsrPage(file, h, 'in', e.index), { instanceOf: TesseraError, message: what });
  await infoFails(t, file, what);
  await quickLookPasses(t, file);

  // A neighbour id changed to another vertex's: the structure holds, the checksum notices.
  const { file: file2, h: h2 } = await damageable('dmg-nbr-valid.tsr');
  const f = pageWith(h2.pages.out, 2);
  const old = (await readFile(file2)).readUInt32LE(nbrAt(f, 3));
  await putU32(file2, nbrAt(f, 3), old === 0 ? 1 : old - 1);
  const ck = new RegExp(`out page ${f.index} \\(.*\\) is corrupt: checksum mismatch`);
  await t.throwsAsync(readTsr(file2), { instanceOf: TesseraError, message: ck });
  await infoFails(t, file2, ck);
});

test('damaged: a truncated file is refused, naming the first page cut off', async (t) => {
  const { file, h } = await damageable('dmg-trunc.tsr');
  const e = h.pages.in[1]!;
  await truncate(file, e.offset + 100);
  const what = new RegExp(`dmg-trunc\\.tsr: the file is truncated: ${e.offset + 100} bytes, the header says ${h.fileBytes} \\(in page 1 and everything after it are cut off\\)`);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: what });
  await infoFails(t, file, what);
  // A page before the cut still reads alone.
  await t.notThrowsAsync(readTsrPage(file, h, 'out', 0));
});

test('an intact file passes tessera info (exit 0), verified unless --no-verify', async (t) => {
  const { file, h } = await damageable('intact.tsr');
  await t.notThrowsAsync(verifyTsr(file));
  const r = await tessera(['info', file]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  t.regex(r.stdout, /^verified +yes/m);
  t.regex(r.stdout, new RegExp(`^edges +${h.numEdges.toLocaleString('en-US')}$`, 'm'));
  const j = await tessera(['info', file, '--format', 'json']);
  t.is(j.code, 0, j.stderr);
  t.like(JSON.parse(j.stdout), { numEdges: h.numEdges, verified: true });
  await quickLookPasses(t, file);
  // --no-verify cannot apply to anything else: refused, not ignored.
  const el = path.join(dir, 'intact.txt');
  await writeFile(el, '1 2\n2 3\n');
  const x = await tessera(['info', el, '--no-verify']);
  t.is(x.code, 1);
  t.regex(x.stderr, /^tessera: --no-verify applies to a \.tsr file only\. Fix: drop --no-verify\n$/);
});

/**
 * A three-vertex undirected graph built by hand, so that its pages can be wrong while its
 * checksums are right (what a writer bug, not a damaged disk, makes).
 */
function tiny(o: { nbr?: number; weight?: number; gap?: boolean; degree0?: number; byOriginal?: number[] } = {}): Graph {
  const wt: WeightType | undefined = o.weight !== undefined ? 'float64' : undefined;
  const sab = (v: number[]): Uint32Array => {
    const a = new Uint32Array(new SharedArrayBuffer(4 * v.length));
    a.set(v);
    return a;
  };
  // Vertex 0 -> 1, 2; vertex 1 -> 0 (absent with `gap`); vertex 2 -> 0.
  const p = allocPage(0, 0, o.gap ? 1 : 2, o.gap ? 2 : 3, false, wt);
  p.offsets.set(o.gap ? [0, 2] : [0, 2, 3]);
  p.nbrs.set(o.gap ? [1, 2] : [1, 2, 0]);
  if (o.nbr !== undefined) p.nbrs[1] = o.nbr;
  if (wt) p.weights!.set(o.gap ? [1, 1] : [1, o.weight!, 1]);
  const q = allocPage(1, 2, 3, 1, false, wt);
  q.offsets.set([0, 1]);
  q.nbrs[0] = 0;
  if (wt) q.weights![0] = 1;
  const deg = sab(o.gap ? [2, 0, 1] : [2, 1, 1]);
  if (o.degree0 !== undefined) deg[0] = o.degree0;
  const out: PageSet = { orientation: 'out', pages: [p, q], firstPageOf: sab([0, 0, 1]) };
  return {
    numVertices: 3,
    numEdges: o.gap ? 3 : 4,
    directed: false,
    weightType: wt,
    out,
    in: out,
    outDegree: deg,
    inDegree: deg,
    ids: { toOriginal: sab([10, 20, 30]), byOriginal: sab(o.byOriginal ?? [0, 1, 2]) },
    pageEdges: 3,
    source: 'tiny',
  };
}

test('a page written with a broken structure (its checksum right) is refused when read', async (t) => {
  const file = path.join(dir, 'bad-nbr.tsr');
  await writeTsr(tiny({ nbr: 7 }), file);
  const what = /bad-nbr\.tsr: out page 0 \(vertices 0 to 1\) is corrupt: vertex 0 has neighbour id 7 \(edge 1 of the page\), not below the 3 vertices/;
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: what });
  await t.throwsAsync(loadGraph(file), { instanceOf: TesseraError, message: what });
  await infoFails(t, file, what);
  // The same graph with its ids in range reads, and passes info.
  const ok = path.join(dir, 'ok-tiny.tsr');
  await writeTsr(tiny(), ok);
  await t.notThrowsAsync(readTsr(ok));
  await t.notThrowsAsync(verifyTsr(ok));
});

test('verifyTsr: weights, page-table gaps, degree arrays and id maps', async (t) => {
  const cases: Array<[string, Graph, RegExp]> = [
    ['nan-weight', tiny({ weight: NaN }), /out page 0 \(vertices 0 to 1\) is corrupt: vertex 0 has weight NaN \(edge 1 of the page\), not a finite number/],
    ['inf-weight', tiny({ weight: Infinity }), /vertex 0 has weight Infinity/],
    ['gap', tiny({ gap: true }), /the header is corrupt: out page 1 starts at vertex 2, but the page before it ends at vertex 0 \(vertex 1 is in no page\)/],
    ['degree', tiny({ degree0: 5 }), /array outDegree is corrupt: it gives vertex 0 5 edges, its out pages hold 2/],
    ['byoriginal-order', tiny({ byOriginal: [1, 0, 2] }), /the id maps disagree: byOriginal lists vertex 1 \(original id 20\) before vertex 0 \(original id 10\) at entry 1/],
    ['byoriginal-twice', tiny({ byOriginal: [0, 0, 2] }), /array byOriginal is corrupt: it lists vertex 0 twice/],
    ['byoriginal-range', tiny({ byOriginal: [0, 1, 9] }), /array byOriginal is corrupt: entry 2 is 9, not below the 3 vertices/],
  ];
  for (const [name, g, what] of cases) {
    const file = path.join(dir, `v-${name}.tsr`);
    await writeTsr(g, file);
    await t.throwsAsync(verifyTsr(file), { instanceOf: TesseraError, message: new RegExp(`v-${name}\\.tsr: (.* )?${what.source}.*${DAMAGED.source}`) }, name);
  }
  await infoFails(t, path.join(dir, 'v-gap.tsr'), /out page 1 starts at vertex 2/);
  // A damaged degree array (checksum) is named too.
  const { file, h } = await damageable('dmg-degree.tsr');
  await putU32(file, h.arrays.inDegree.offset + 4 * 3, 123456);
  await infoFails(t, file, /array inDegree is corrupt: it gives vertex 3 123456 edges, its in pages hold \d+/);
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /array inDegree is corrupt: checksum mismatch/ });
});

// ---------------------------------------------------------------------------------------------
// graph commands over .tsr (info from the header, convert re-pages)

test('info: a .tsr described from its header equals the in-memory description', async (t) => {
  const { graphInfo, tsrInfo } = await import('../src/cli/graph-commands.js');
  for (const directed of [true, false]) {
    const g = buildGraph(generateEdges('rmat:10:seed=8'), { pageEdges: 1000, directed });
    const file = path.join(dir, `info-${directed}.tsr`);
    await writeTsr(g, file);
    const a = graphInfo(g);
    const b = await tsrInfo(file);
    t.like(b, { ...a, inDegree: a.inDegree, pages: a.pages });
    t.is(b.file, file);
    t.true(a.outDegree.max > 10 * a.outDegree.mean);
    t.is(a.pages.out.pages, g.out.pages.length);
  }
});

test('degreeSummary: order statistics', async (t) => {
  const { degreeSummary } = await import('../src/cli/graph-commands.js');
  const deg = new Uint32Array(200);
  for (let i = 0; i < 200; i++) deg[i] = i < 10 ? 0 : i;
  deg[199] = 100000; // beyond the histogram
  const other = new Uint32Array(200);
  other[0] = 1;
  const s = degreeSummary(deg, other);
  t.is(s.min, 0);
  t.is(s.max, 100000);
  t.is(s.median, 99); // lower median of 0 x10, 10..198, 100000
  t.is(s.p99, 197); // nearest rank ceil(0.99 * 200) = 198th smallest (0-based 197)
  t.is(s.zero, 10);
  t.is(s.isolated, 9);
  t.is(s.mean, (deg.reduce((a, b) => a + b, 0)) / 200);
});

test('convert: a .tsr re-paged or made undirected keeps its edges', async (t) => {
  const { convertCommand } = await import('../src/cli/graph-commands.js');
  const g = buildGraph(float64Raw(true), { pageEdges: 256 });
  const file = path.join(dir, 'conv-in.tsr');
  await writeTsr(g, file);
  const edges = (x: Graph, set: PageSet): string[] => {
    const out: string[] = [];
    for (const p of set.pages) {
      for (let v = p.vBegin; v < p.vEnd; v++) {
        for (let e = p.offsets[v - p.vBegin]!; e < p.offsets[v - p.vBegin + 1]!; e++) {
          out.push(`${x.ids.toOriginal[v]}>${x.ids.toOriginal[p.nbrs[e]!]}:${p.weights![e]}`);
        }
      }
    }
    return out.sort();
  };
  const repaged = path.join(dir, 'conv-repaged.tsr');
  t.regex(await convertCommand(file, { out: repaged, pageEdges: 100 }), /wrote .*conv-repaged\.tsr/);
  const r = await readTsr(repaged);
  t.is(r.pageEdges, 100);
  t.true(r.out.pages.length > g.out.pages.length);
  t.deepEqual(edges(r, r.out), edges(g, g.out));
  const und = path.join(dir, 'conv-und.tsr');
  await convertCommand(file, { out: und, undirected: true });
  const u = await readTsr(und);
  t.false(u.directed);
  t.is(u.in, u.out);
  const both = new Set(edges(u, u.out).map((e) => e.split(':')[0]));
  for (const e of edges(g, g.out)) {
    const [a, b] = e.split(':')[0]!.split('>');
    t.true(both.has(`${a}>${b}`) && both.has(`${b}>${a}`));
  }
  await t.throwsAsync(convertCommand(file, { out: path.join(dir, 'x.el') }), { instanceOf: TesseraError, message: /FILE\.tsr/ });
});
