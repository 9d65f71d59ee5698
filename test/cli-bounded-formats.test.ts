/**
 * `tessera convert --host-memory` of Matrix Market files, Graphalytics graphs and a .tsr re-paged:
 * the .tsr it writes holds what the in-memory convert writes, with buckets small enough for
 * several runs (TESSERA_TEST_RUN_EDGES stands in for a graph many times the limit); bad input is
 * one line naming the file and line, exit 1, nothing left behind; a size line or .properties
 * declaring more than the machine holds falls back to the bounded build by itself.
 */
import test, { type ExecutionContext } from 'ava';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readTsr, readTsrHeader } from '../src/graph/tsr.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';
import { sameGraph } from './helpers/same-graph.js';

test.after.always(removeTempDirs);

const RUNS = { TESSERA_TEST_RUN_EDGES: '300' };

/** Pseudo-random edges over ids 0..299 with a hub (3), self-loops and repeats. */
function edges(): Array<[number, number, number]> {
  let x = 4242;
  const rnd = (k: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % k;
  };
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < 3000; i++) {
    const s = rnd(4) === 0 ? 3 : rnd(300);
    out.push([s, rnd(50) === 0 ? s : rnd(300), 1 + rnd(9) / 4]);
  }
  out.push([10, 11, 5], [10, 11, 2]);
  return out;
}

/**
 * `tessera convert IN` in memory and with --host-memory (several runs): the same graph, the
 * output alone left in `dir`. Returns the bounded run's stdout.
 */
async function sameAsInMemory(t: ExecutionContext, dir: string, input: string, flags: string[]): Promise<string> {
  const before = await readdir(dir);
  const mem = await tessera(['convert', input, '--out', path.join(dir, 'm.tsr'), ...flags]);
  t.is(mem.code, 0, mem.stderr);
  const ext = await tessera(['convert', input, '--out', path.join(dir, 'b.tsr'), '--host-memory', '256MiB', ...flags], { env: RUNS });
  t.is(ext.code, 0, ext.stderr);
  t.regex(ext.stderr, /^bounded build in 256 MiB of memory: needs about [0-9.]+ [KM]iB of temporary runs and [0-9.]+ [KM]iB of output on disk in /);
  const runs = Number(/\(bounded memory: 256 MiB, (\d+) runs on disk\)\n$/.exec(ext.stdout)?.[1]);
  t.true(runs > 2, `several runs: ${ext.stdout}`);
  sameGraph(t, await readTsr(path.join(dir, 'm.tsr')), await readTsr(path.join(dir, 'b.tsr')));
  t.deepEqual((await readdir(dir)).sort(), [...before, 'b.tsr', 'm.tsr'].sort(), 'no run file left');
  return ext.stdout;
}

/** convert --host-memory of `input` fails in one line matching `message`; nothing is left in `dir`. */
async function refused(t: ExecutionContext, dir: string, input: string, message: RegExp, env: Record<string, string> = RUNS): Promise<string> {
  const before = await readdir(dir);
  const r = await tessera(['convert', input, '--out', path.join(dir, 'g.tsr'), '--host-memory', '256MiB'], { env });
  t.is(r.code, 1);
  const lines = r.stderr.trim().split('\n');
  t.regex(lines[lines.length - 1]!, message);
  t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
  t.deepEqual((await readdir(dir)).sort(), before.sort(), 'nothing left');
  return r.stderr;
}

async function mtx(dir: string, field: 'real' | 'pattern', symmetry: 'general' | 'symmetric'): Promise<string> {
  const es = edges();
  const lines = [`%%MatrixMarket matrix coordinate ${field} ${symmetry}`, `320 320 ${es.length}`];
  for (const [s, d, w] of es) lines.push(`${s + 1} ${d + 1}${field === 'pattern' ? '' : ` ${w}`}`);
  const file = path.join(dir, `g-${field}-${symmetry}.mtx`);
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

for (const [field, symmetry, flags] of [
  ['real', 'general', []],
  ['real', 'symmetric', ['--weights', 'float32']],
  ['pattern', 'general', ['--undirected']],
] as const) {
  test(`convert --host-memory of a ${field} ${symmetry} Matrix Market file${flags.length ? ` ${flags.join(' ')}` : ''}: the in-memory .tsr`, async (t) => {
    const dir = await tempDir('tessera-bounded-mtx-');
    await sameAsInMemory(t, dir, await mtx(dir, field, symmetry), ['--page-edges', '32', ...flags]);
  });
}

async function graphalytics(dir: string, directed: boolean, weighted: boolean): Promise<string> {
  const id = (v: number): number => v * 1009 + 7;
  await writeFile(path.join(dir, 'g.v'), Array.from({ length: 320 }, (_, i) => id(319 - i)).join('\n') + '\n');
  await writeFile(path.join(dir, 'g.e'), edges().map(([s, d, w]) => `${id(s)} ${id(d)}${weighted ? ` ${w}` : ''}`).join('\n') + '\n');
  const props = [`directed = ${directed}`, 'vertex-file = g.v', 'edge-file = g.e', ...(weighted ? ['edge-properties.names = weight'] : [])];
  await writeFile(path.join(dir, 'g.properties'), props.map((l) => `graph.g.${l}`).join('\n') + '\n');
  return dir;
}

for (const [directed, weighted] of [
  [true, true],
  [false, false],
] as const) {
  test(`convert --host-memory of a Graphalytics graph (${directed ? 'directed' : 'undirected'}, ${weighted ? 'weighted' : 'unweighted'}): the in-memory .tsr`, async (t) => {
    const dir = await graphalytics(await tempDir('tessera-bounded-ga-'), directed, weighted);
    await sameAsInMemory(t, dir, path.join(dir, 'g.properties'), ['--page-edges', '32']);
  });
}

/** A .tsr (pages of 64 edges) converted in memory from an edge list. */
async function tsr(t: ExecutionContext, dir: string, undirected: boolean): Promise<string> {
  const el = path.join(dir, 'g.el');
  await writeFile(el, edges().map(([s, d, w]) => `${s} ${d} ${w}`).join('\n') + '\n');
  const file = path.join(dir, 'in.tsr');
  const r = await tessera(['convert', el, '--out', file, '--page-edges', '64', ...(undirected ? ['--undirected'] : [])]);
  t.is(r.code, 0, r.stderr);
  return file;
}

for (const [undirected, flags] of [
  [false, ['--page-edges', '16']],
  [true, ['--page-edges', '128', '--weights', 'float32']],
  [false, ['--undirected']],
] as const) {
  test(`convert --host-memory of a${undirected ? 'n undirected' : ' directed'} .tsr ${flags.join(' ')}: the in-memory .tsr`, async (t) => {
    const dir = await tempDir('tessera-bounded-tsr-');
    const file = await tsr(t, dir, undirected);
    await sameAsInMemory(t, dir, file, [...flags]);
    const h = await readTsrHeader(path.join(dir, 'b.tsr'));
    t.is(h.pageEdges, flags[0] === '--page-edges' ? Number(flags[1]) : 64, 'the page size asked for, else the input\'s');
    t.is(h.source, path.join(dir, 'g.el'), 'the source graph the input was made from');
  });
}

test('convert of a .tsr with nothing to change copies it page by page, drop counts kept, with or without --host-memory', async (t) => {
  const dir = await tempDir('tessera-bounded-tsr-');
  const file = await tsr(t, dir, false);
  for (const [out, flags] of [
    ['m.tsr', []],
    ['b.tsr', ['--host-memory', '256MiB']],
  ] as const) {
    const r = await tessera(['convert', file, '--out', path.join(dir, out), '--page-edges', '64', ...flags]);
    t.is(r.code, 0, r.stderr);
    t.notRegex(r.stdout, /bounded memory/);
    sameGraph(t, await readTsr(file), await readTsr(path.join(dir, out)));
    t.deepEqual((await readTsrHeader(path.join(dir, out))).build, (await readTsrHeader(file)).build);
  }
  t.deepEqual((await readdir(dir)).sort(), ['b.tsr', 'g.el', 'in.tsr', 'm.tsr']);
});

test('convert --host-memory: bad Matrix Market, Graphalytics and .tsr input is one line naming the file and line, exit 1', async (t) => {
  const dir = await tempDir('tessera-bounded-bad-');
  const m = await mtx(dir, 'real', 'general');
  const lines = (await readFile(m, 'utf8')).split('\n');
  lines[2] = `x${lines[2]}`;
  await writeFile(m, lines.join('\n'));
  await refused(t, dir, m, /^tessera: .*g-real-general\.mtx:3: 'x\d+' is not a vertex id \(expected a non-negative integer; a line is 'row col value'\)\. Fix: /);
  const ga = await graphalytics(await tempDir('tessera-bounded-bad-'), true, true);
  const e = path.join(ga, 'g.e');
  await writeFile(e, (await readFile(e, 'utf8')) + '5 7 1\n');
  await refused(t, ga, ga, /^tessera: .*g\.e:3003: edge endpoint 5 is not a vertex of g\.v\. Fix: add vertex 5 to /);
  const file = await tsr(t, dir, false);
  const bytes = await readFile(file);
  const h = await readTsrHeader(file);
  const p = h.pages.out[1]!;
  bytes[p.offset + p.length - 2]! ^= 1;
  await writeFile(file, bytes);
  const r = await tessera(['convert', file, '--out', path.join(dir, 'g.tsr'), '--host-memory', '256MiB', '--page-edges', '16'], { env: RUNS });
  t.is(r.code, 1);
  const last = r.stderr.trim().split('\n');
  t.regex(last[last.length - 1]!, /^tessera: .*in\.tsr: out page 1 \(.*\) is corrupt: .*\. Fix: the file is damaged: convert the source graph again .*$/);
  t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
  t.false((await readdir(dir)).some((f) => f.startsWith('g.tsr')), 'nothing left');
});

test('convert without --host-memory: a size line or .properties declaring more than this machine holds builds in bounded memory', async (t) => {
  const dir = await tempDir('tessera-bounded-fallback-');
  const m = path.join(dir, 'huge.mtx');
  await writeFile(m, '%%MatrixMarket matrix coordinate pattern general\n10 10 1000000000000\n1 2\n');
  const full = { TESSERA_TEST_DISK_FREE: '4096' };
  const a = await tessera(['convert', m, '--out', path.join(dir, 'g.tsr')], { env: full });
  t.is(a.code, 1);
  // The in-memory estimate refused, the bounded build (half this machine's memory) took over: its
  // disk estimate from the size line's count.
  t.regex(a.stderr, /^bounded build in [0-9.]+ GiB of memory: needs about [0-9.]+ TiB of temporary runs/);
  t.regex(a.stderr, /tessera: not enough disk space in .*: the conversion needs about [0-9.]+ TiB there .*, 4 KiB is free\. Fix: .*\n$/);
  const ga = await graphalytics(await tempDir('tessera-bounded-fallback-'), true, false);
  await writeFile(path.join(ga, 'g.properties'), `${await readFile(path.join(ga, 'g.properties'), 'utf8')}graph.g.meta.vertices = 320\ngraph.g.meta.edges = 1000000000000\n`);
  const b = await tessera(['convert', ga, '--out', path.join(dir, 'h.tsr')], { env: full });
  t.is(b.code, 1);
  t.regex(b.stderr, /^bounded build in [0-9.]+ GiB of memory: needs about [0-9.]+ TiB of temporary runs/);
  t.regex(b.stderr, /tessera: not enough disk space in .*: the conversion needs about [0-9.]+ TiB there .*, 4 KiB is free\. Fix: .*\n$/);
  t.deepEqual((await readdir(dir)).sort(), ['huge.mtx']);
});
