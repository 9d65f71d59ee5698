import test from 'ava';
import { mkdtemp, open, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TesseraError } from '../src/errors.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { allocPage } from '../src/graph/pages.js';
import { TSR_ALIGN, isTsrFile, readTsr, readTsrArray, readTsrHeader, readTsrPage, writeTsr } from '../src/graph/tsr.js';
import type { Graph, Page, PageSet } from '../src/graph/types.js';
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
  t.is(back.out.pages[0]!.buffer.byteLength, 32);
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
  await t.throwsAsync(readTsr(file), { instanceOf: TesseraError, message: /trunc\.tsr: the file is truncated: \d+ bytes, the header says \d+/ });
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
  await t.throwsAsync(readTsr(file2), { instanceOf: TesseraError, message: /corrupt2\.tsr: out page 1 is corrupt \(checksum mismatch/ });
  await t.throwsAsync(readTsrPage(file2, h, 'out', 1), { instanceOf: TesseraError, message: /out page 1 is corrupt/ });
  // verify: false skips checksums (for speed) but still checks page offsets.
  await t.notThrowsAsync(readTsrPage(file2, h, 'out', 1, { verify: false }));
  await patch(file2, p.offset, [9]);
  await t.throwsAsync(readTsrPage(file2, h, 'out', 1, { verify: false }), { instanceOf: TesseraError, message: /offsets run from 9/ });
});

test('errors: writing into a missing directory leaves nothing behind', async (t) => {
  const g = buildGraph(rawFrom([[1, 2]]));
  await t.throwsAsync(writeTsr(g, path.join(dir, 'nope', 'g.tsr')), { instanceOf: TesseraError, message: /nope\/g\.tsr: cannot write/ });
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
