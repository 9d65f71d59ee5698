/**
 * The bounded-memory builder (src/graph/build/external.ts) against the in-memory one: for the
 * same input and options, the .tsr it writes must hold the same pages, degrees and id maps, bit
 * for bit, with buckets small enough to force many runs. Also: the disk-space refusal, the
 * memory minimum, and that no run or partial file is left after a success or a failure.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TesseraError } from '../src/errors.js';
import { buildGraph, type BuildOptions } from '../src/graph/build.js';
import { buildTsrExternal, type ExternalOptions } from '../src/graph/build/external.js';
import { edgeListStream, generatorStream, type EdgeStream } from '../src/graph/build/external-source.js';
import { generateEdges, parseGeneratorSpec } from '../src/graph/generate/index.js';
import { readEdgeList } from '../src/graph/readers/edgelist.js';
import { readTsr, writeTsr } from '../src/graph/tsr.js';
import type { Graph, RawEdges } from '../src/graph/types.js';
import { trackedTemps } from '../src/tmp-files.js';
import { sameGraph } from './helpers/same-graph.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'tessera-ext-'));
  dirs.push(d);
  return d;
}
test.after.always(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const BIG = 2 ** 40;

/** In-memory build + writeTsr, bounded build; both read back and compared. */
async function compare(t: ExecutionContext, raw: () => Promise<RawEdges> | RawEdges, stream: EdgeStream, opts: Omit<ExternalOptions, 'hostMemory'> & BuildOptions): Promise<Graph> {
  const dir = await tmp();
  const memFile = path.join(dir, 'mem.tsr');
  const { runEdges, blockRecords, tmpDir: _t, onProgress: _p, ...build } = opts;
  await writeTsr(buildGraph(await raw(), build), memFile);
  const out = path.join(dir, 'ext.tsr');
  const r = await buildTsrExternal(stream, out, { hostMemory: BIG, ...opts });
  t.true(r.buckets.out > 1 || runEdges === undefined, 'several out-buckets');
  const got = await readTsr(out);
  sameGraph(t, await readTsr(memFile), got);
  t.deepEqual((await readdir(dir)).sort(), ['ext.tsr', 'mem.tsr'], 'no run file left');
  void blockRecords;
  return got;
}

for (const [spec, pageEdges, directed] of [
  ['rmat:10', 64, true],
  ['rmat:11:weighted', 128, false],
  ['rmat:12', 1024, true],
  ['uniform:10:weighted', 100, true],
] as const) {
  test(`bounded ${spec} ${directed ? 'directed' : 'undirected'} pageEdges=${pageEdges}: same .tsr as in memory`, async (t) => {
    const s = parseGeneratorSpec(spec);
    await compare(t, () => generateEdges(s), generatorStream(s), { pageEdges, directed, runEdges: 2000, blockRecords: 97 });
  });
}

/** An edge list with repeats (several weights), self-loops, a hub and sparse ids. */
async function edgeListFile(sparse: boolean): Promise<string> {
  const lines = ['# test graph', '% another comment'];
  let x = 12345;
  const rnd = (k: number): number => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % k;
  };
  const id = (v: number): number => (sparse ? v * 10_000_019 + 17 : v);
  for (let i = 0; i < 4000; i++) {
    const s = rnd(10) < 3 ? 5 : rnd(300);
    const d = rnd(10) < 1 ? s : rnd(300);
    lines.push(`${id(s)} ${id(d)} ${(1 + rnd(50)) / 8}`);
  }
  for (let i = 0; i < 50; i++) lines.push(`${id(7)} ${id(8)} ${(60 - i) / 4}`);
  const file = path.join(await tmp(), sparse ? 'sparse.el' : 'g.el');
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

for (const sparse of [false, true]) {
  for (const directed of [true, false]) {
    for (const weightType of ['float64', 'float32', 'none'] as const) {
      test(`bounded edge list${sparse ? ' (sparse ids)' : ''} ${directed ? 'directed' : 'undirected'} weights ${weightType}: same .tsr as in memory`, async (t) => {
        const file = await edgeListFile(sparse);
        const read = weightType === 'none' ? { weighted: false } : { weightType };
        const g = await compare(t, () => readEdgeList(file, { directed, ...read }), edgeListStream(file, { directed, ...read }), {
          pageEdges: 16,
          weightType,
          runEdges: 150,
          blockRecords: 13,
        });
        // The hub's list is longer than a bucket's budget and spans split pages both ways.
        t.true(g.out.pages.some((p) => p.split) && g.in.pages.some((p) => p.split));
      });
    }
  }
}

test('bounded renumber none and a vertex file: same .tsr as in memory', async (t) => {
  const file = await edgeListFile(false);
  const vfile = path.join(path.dirname(file), 'g.v');
  // Every vertex of the edges (ids below 300), and isolated even ones up to 798: a vertex list lists every vertex.
  await writeFile(vfile, Array.from({ length: 800 }, (_, i) => i).filter((i) => i < 300 || i % 2 === 0).join('\n') + '\n');
  const raw = async (): Promise<RawEdges> => {
    const { readGraphFile } = await import('../src/graph/readers/index.js');
    return (await readGraphFile(file, { vertices: vfile })).raw;
  };
  await compare(t, raw, edgeListStream(file, { vertices: vfile }), { pageEdges: 32, renumber: 'none', runEdges: 300 });
});

test('bounded: a vertex file that lacks an edge endpoint or lists a vertex twice is refused, as in memory', async (t) => {
  const dir = await tmp();
  const file = path.join(dir, 'e.txt');
  const vfile = path.join(dir, 'v.txt');
  await writeFile(file, '# edges\n0 1\n1 2\n');
  await writeFile(vfile, '0\n1\n');
  const stream = edgeListStream(file, { vertices: vfile });
  const e = await t.throwsAsync(buildTsrExternal(stream, path.join(dir, 'g.tsr'), { hostMemory: BIG }), { instanceOf: TesseraError });
  t.regex(e!.message, /e\.txt:3: edge endpoint 2 is not a vertex of v\.txt\. Fix: add vertex 2 to /);
  await writeFile(vfile, '0\n1\n2\n1\n');
  const e2 = await t.throwsAsync(buildTsrExternal(edgeListStream(file, { vertices: vfile }), path.join(dir, 'g2.tsr'), { hostMemory: BIG }), { instanceOf: TesseraError });
  t.regex(e2!.message, /v\.txt:4: vertex 1 is listed twice/);
});

test('bounded: refuses when the disk is short, naming the directory, the need and the free space', async (t) => {
  const dir = await tmp();
  const s = parseGeneratorSpec('rmat:10');
  const e = await t.throwsAsync(
    buildTsrExternal(generatorStream(s), path.join(dir, 'g.tsr'), { hostMemory: BIG, freeBytes: () => 1000 }),
    { instanceOf: TesseraError },
  );
  t.regex(e!.message, new RegExp(`not enough disk space in ${dir.replace(/[/\\.]/g, '\\$&')}: the conversion needs about [0-9.]+ [KMG]iB there .*1000 B is free`));
  t.false(e!.message.includes('\n'));
  t.deepEqual(await readdir(dir), []);
});

test('bounded: a memory limit too small is refused with the minimum', async (t) => {
  const dir = await tmp();
  const s = parseGeneratorSpec('rmat:12');
  const e = await t.throwsAsync(buildTsrExternal(generatorStream(s), path.join(dir, 'g.tsr'), { hostMemory: 16 << 20 }), { instanceOf: TesseraError });
  t.regex(e!.message, /--host-memory 16 MiB is too small for this graph: it needs at least [0-9.]+ MiB .* Fix: give --host-memory \d+MiB or more/);
  t.deepEqual(await readdir(dir), []);
});

test.serial('bounded: a failure half-way leaves no run file and no partial output', async (t) => {
  const dir = await tmp();
  const runs = await tmp();
  const s = parseGeneratorSpec('rmat:10');
  let seen: string[] = [];
  await t.throwsAsync(
    buildTsrExternal(generatorStream(s), path.join(dir, 'g.tsr'), {
      hostMemory: BIG,
      tmpDir: runs,
      runEdges: 1000,
      pageEdges: 64,
      onProgress: (phase) => {
        if (phase === 'out-pages') {
          seen = trackedTemps().map((f) => path.basename(f));
          throw new Error('stop');
        }
      },
    }),
    { message: 'stop' },
  );
  t.true(seen.some((f) => f.includes('.run-')) && seen.some((f) => f.includes('.tmp-')), `run and partial files existed: ${seen.join(', ')}`);
  t.deepEqual(await readdir(dir), []);
  t.deepEqual(await readdir(runs), []);
  t.deepEqual(trackedTemps(), []);
});
