/**
 * `tessera convert` and `tessera generate` with --host-memory (bounded-memory builds through runs
 * on disk): the .tsr they write holds what the in-memory build writes; refusals (disk space, a
 * limit too small, a text output) are one line; no run or partial file is left after
 * a success or a refusal (Ctrl-C: signals.test.ts).
 */
import test, { type ExecutionContext } from 'ava';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readTsr } from '../src/graph/tsr.js';
import type { Graph } from '../src/graph/types.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';
import { pageView } from '../src/graph/pages.js';

test.after.always(removeTempDirs);

function sameGraph(t: ExecutionContext, a: Graph, b: Graph): void {
  for (const k of ['numVertices', 'numEdges', 'directed', 'weightType', 'pageEdges'] as const) t.is(b[k], a[k], k);
  for (const [x, y] of [
    [a.out, b.out],
    [a.in, b.in],
  ] as const) {
    t.is(y.pages.length, x.pages.length);
    x.pages.forEach((p, i) => t.true(Buffer.from(pageView(p)).equals(Buffer.from(pageView(y.pages[i]!))), `page ${i}`));
  }
  t.deepEqual(b.outDegree, a.outDegree);
  t.deepEqual(b.inDegree, a.inDegree);
  t.deepEqual(b.ids.toOriginal, a.ids.toOriginal);
  t.deepEqual(b.ids.byOriginal, a.ids.byOriginal);
}

async function edgeList(dir: string): Promise<string> {
  const lines: string[] = ['# src dst weight'];
  for (let i = 0; i < 3000; i++) {
    const s = i % 4 === 0 ? 3 : (i * 7919) % 500;
    lines.push(`${s} ${(i * 104729) % 500} ${1 + (i % 9)}`);
  }
  lines.push('3 3 1', '10 11 5', '10 11 2', '10 11 7');
  const file = path.join(dir, 'g.el');
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

for (const undirected of [false, true]) {
  test(`convert --host-memory${undirected ? ' --undirected' : ''}: the .tsr of the in-memory build, runs removed`, async (t) => {
    const dir = await tempDir('tessera-bounded-');
    const file = await edgeList(dir);
    const flags = ['--page-edges', '64', ...(undirected ? ['--undirected'] : [])];
    const mem = await tessera(['convert', file, '--out', path.join(dir, 'm.tsr'), ...flags]);
    t.is(mem.code, 0, mem.stderr);
    const ext = await tessera(['convert', file, '--out', path.join(dir, 'b.tsr'), '--host-memory', '1GiB', ...flags]);
    t.is(ext.code, 0, ext.stderr);
    t.regex(ext.stdout, /^wrote .*b\.tsr: \d+ vertices, \d+ edges, .* \(bounded memory: 1 GiB, \d+ runs? on disk\)\n$/);
    t.regex(ext.stderr, /^bounded build in 1 GiB of memory: needs about [0-9.]+ [KM]iB of temporary runs and [0-9.]+ [KM]iB of output on disk in /);
    sameGraph(t, await readTsr(path.join(dir, 'm.tsr')), await readTsr(path.join(dir, 'b.tsr')));
    t.deepEqual((await readdir(dir)).sort(), ['b.tsr', 'g.el', 'm.tsr']);
  });
}

test('generate --host-memory --tmp-dir: the .tsr of the in-memory build, runs removed', async (t) => {
  const dir = await tempDir('tessera-bounded-');
  const runs = await tempDir('tessera-runs-');
  const mem = await tessera(['generate', 'rmat', '--scale', '11', '--weighted', '--page-edges', '256', '--out', path.join(dir, 'm.tsr')]);
  t.is(mem.code, 0, mem.stderr);
  const ext = await tessera(['generate', 'rmat', '--scale', '11', '--weighted', '--page-edges', '256', '--out', path.join(dir, 'b.tsr'), '--host-memory', '512MiB', '--tmp-dir', runs]);
  t.is(ext.code, 0, ext.stderr);
  t.true(ext.stderr.includes(`(runs in ${runs}, output in ${dir})`), ext.stderr);
  sameGraph(t, await readTsr(path.join(dir, 'm.tsr')), await readTsr(path.join(dir, 'b.tsr')));
  t.deepEqual((await readdir(dir)).sort(), ['b.tsr', 'm.tsr']);
  t.deepEqual(await readdir(runs), []);
});

test('bounded: too little disk is refused up front in one line naming the directory, the need and the free space', async (t) => {
  const dir = await tempDir('tessera-bounded-');
  const r = await tessera(['generate', 'rmat', '--scale', '12', '--out', path.join(dir, 'g.tsr'), '--host-memory', '1GiB'], { env: { TESSERA_TEST_DISK_FREE: '4096' } });
  t.is(r.code, 1);
  const lines = r.stderr.trim().split('\n');
  t.regex(lines[lines.length - 1]!, new RegExp(`^tessera: not enough disk space in ${dir}: the conversion needs about [0-9.]+ MiB there \\(temporary runs .*, output .*\\), 4 KiB is free\\. Fix: `));
  t.deepEqual(await readdir(dir), []);
});

test('bounded: a limit too small is refused with the minimum; a bad size is refused', async (t) => {
  const dir = await tempDir('tessera-bounded-');
  const small = await tessera(['convert', 'rmat:12', '--out', path.join(dir, 'g.tsr'), '--host-memory', '20MiB']);
  t.is(small.code, 1);
  t.regex(small.stderr, /^tessera: --host-memory 20 MiB is too small for this graph: it needs at least [0-9.]+ MiB .*Fix: give --host-memory \d+MiB or more\n$/);
  const bad = await tessera(['convert', 'rmat:12', '--out', path.join(dir, 'g.tsr'), '--host-memory', 'lots']);
  t.not(bad.code, 0);
  t.regex(bad.stderr, /--host-memory must be a size such as 8GiB/);
  t.deepEqual(await readdir(dir), []);
});

test('bounded: --host-memory with a text output is refused in one line', async (t) => {
  const dir = await tempDir('tessera-bounded-');
  const el = await tessera(['generate', 'rmat', '--scale', '8', '--out', path.join(dir, 'g.el'), '--host-memory', '1GiB']);
  t.is(el.code, 1);
  t.regex(el.stderr, /apply to \.tsr output only/);
  t.deepEqual(await readdir(dir), []);
});
