/**
 * No option of the command line is silently ignored or overridden: a flag given twice, a setting
 * both in a generator spec and as a flag, --tmp-dir and --weights where they cannot apply,
 * --partition-seed without a rand partition, model flags the program does not take, a forced
 * --mode the kernels lack (a notice). And convert / info read what run reads (a CSV header, Arrow).
 */
import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { removeTempDirs, tempDir, tessera, writeTopology, type CliResult } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';

test.after.always(removeTempDirs);

function refused(t: { is: (a: unknown, b: unknown, m?: string) => void; regex: (s: string, r: RegExp) => void; true: (x: boolean, m?: string) => void }, r: CliResult, ...patterns: RegExp[]): void {
  t.is(r.code, 1, r.stderr);
  t.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  t.true(!/internal error|\n\s+at /.test(r.stderr), r.stderr);
  for (const p of patterns) t.regex(r.stderr, p);
}

const fixtures = (async () => {
  const dir = await tempDir();
  const el = path.join(dir, 'p.txt');
  await writeFile(el, '1 2\n2 3\n3 1\n');
  return { dir, el, topology: await writeTopology(dir, 2) };
})();

test('a single-value flag given twice is refused, --x with --no-x too; --param and a switch twice', async (t) => {
  const { el, topology } = await fixtures;
  const run = ['run', '-q', '--graph', el, '--topology', topology];
  refused(t, await tessera([...run, '--algo', 'bfs', '--source', '1', '--source', '3']), /--source 1 and --source 3 are both given/);
  refused(t, await tessera([...run, '--algo', 'pr', '--param', 'iterations=3', '--param', 'iterations=5']), /--param iterations is given twice/);
  refused(t, await tessera([...run, '--algo', 'wcc', '--header', '--no-header']), /--header and --no-header are both given/);
  refused(t, await tessera(['bench', '--peer', 'gapbs=off', '--peer', 'gapbs=/x']), /--peer gapbs is given twice/);
  // Distinct --param keys, and a switch said twice, stay fine.
  t.is((await tessera([...run, '-q', '--algo', 'pr', '--param', 'iterations=3', '--param', 'damping=0.5'])).code, 0);
});

test('generate: a setting both in the spec and as a flag is refused', async (t) => {
  const { dir } = await fixtures;
  const out = path.join(dir, 'g.el');
  refused(t, await tessera(['generate', 'rmat:4', '--scale', '5', '--out', out]), /--scale and the spec 'rmat:4'/);
  refused(t, await tessera(['generate', 'rmat:4:ef=2', '--edge-factor', '3', '--out', out]), /--edge-factor and the spec 'rmat:4:ef=2'/);
  refused(t, await tessera(['generate', 'uniform:4:seed=2', '--seed', '3', '--out', out]), /--seed and the spec/);
  t.is((await tessera(['generate', 'rmat:4', '--edge-factor', '3', '--out', out])).code, 0, 'a flag the spec leaves out applies');
});

test('convert: --tmp-dir is checked and its non-use said; --weights on an unweighted input is refused', async (t) => {
  const { dir, el } = await fixtures;
  const out = path.join(dir, 'x.tsr');
  refused(t, await tessera(['convert', el, '--out', out, '--tmp-dir', path.join(dir, 'nonexistent')]), /--tmp-dir does not exist/);
  refused(t, await tessera(['convert', el, '--out', out, '--tmp-dir', el]), /--tmp-dir is not a folder/);
  const r = await tessera(['convert', el, '--out', out, '--tmp-dir', dir]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stderr, /--tmp-dir unused: the graph fit in memory/);
  for (const extra of [[], ['--host-memory', '1GiB']]) refused(t, await tessera(['convert', el, '--out', path.join(dir, 'w.tsr'), '--weights', 'float64', ...extra]), /--weights float64 stores the input's weights, and it has none/);
  refused(t, await tessera(['convert', 'rmat:3', '--out', path.join(dir, 'w.tsr'), '--weights', 'float32']), /it has none/);
  refused(t, await tessera(['convert', out, '--out', path.join(dir, 'w.tsr'), '--weights', 'float32']), /it has none/);
  t.is((await tessera(['convert', 'rmat:3:weighted', '--out', path.join(dir, 'w.tsr'), '--weights', 'float64'])).code, 0);
});

test('--partition-seed is refused where no rand partition is made; model refuses flags its program does not take', async (t) => {
  const { el, topology } = await fixtures;
  refused(t, await tessera(['run', '-q', '--algo', 'wcc', '--graph', el, '--topology', topology, '--partition-seed', '3']), /--partition-seed .* this topology has no GPU/);
  const gpu = path.join(REPO_ROOT, 'configs', '1S1G-emulated.yaml');
  refused(t, await tessera(['run', '-q', '--algo', 'wcc', '--graph', el, '--topology', gpu, '--partition', 'high', '--partition-seed', '3']), /--partition-seed seeds the rand partition, and this run's partition is high/);
  refused(t, await tessera(['model', '--graph', el, '--algo', 'pr', '--topology', topology, '--source', '3']), /pr has no parameter --source/);
});

test('run --mode a kernel lacks: the run goes on and one notice says how many supersteps ran the other mode', async (t) => {
  const { el, topology } = await fixtures;
  const r = await tessera(['run', '-q', '--algo', 'pr', '--graph', el, '--topology', topology, '--mode', 'push']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stderr, /--mode push applies to kernels with a push form: \d+ of \d+ supersteps of pr \(kernel pr\) ran pull/);
  t.is(r.stderr.trimEnd().split('\n').length, 1);
  const help = await tessera(['run', '--help']);
  t.regex(help.stdout.replace(/\s+/g, ' '), /counted in a notice/);
});

test('convert and info read what run reads: a CSV with a header line, an Arrow table', async (t) => {
  const { dir } = await fixtures;
  const csv = path.join(dir, 'h.csv');
  await writeFile(csv, 'source,target\n1,2\n2,3\n');
  const arrow = path.join(dir, 'r.arrow');
  await writeFile(arrow, tableToIPC(tableFromArrays({ source: Uint32Array.from([1, 2, 3]), target: Uint32Array.from([2, 3, 1]) }), 'file'));
  for (const [file, edges] of [[csv, 2], [arrow, 3]] as const) {
    const info = await tessera(['info', file, '--format', 'json']);
    t.is(info.code, 0, info.stderr);
    t.like(JSON.parse(info.stdout), { numVertices: 3, numEdges: edges });
    const out = path.join(dir, `${path.basename(file)}.tsr`);
    const c = await tessera(['convert', file, '--out', out]);
    t.is(c.code, 0, c.stderr);
    t.like(JSON.parse((await tessera(['info', out, '--format', 'json'])).stdout), { numVertices: 3, numEdges: edges });
  }
  // Names cannot go into a .tsr (integer ids): refused, not numbered silently.
  const names = path.join(dir, 'n.csv');
  await writeFile(names, 'a,b\nb,c\nc,d\n');
  refused(t, await tessera(['convert', names, '--out', path.join(dir, 'n.tsr')]), /names, and a \.tsr stores integer ids only/);
  t.true((await readFile(csv, 'utf8')).startsWith('source'));
});

test('generate --out X.el says how many ids it cannot hold (an edge list has no isolated vertices); --scale out of range names --scale', async (t) => {
  const { dir } = await fixtures;
  const out = path.join(dir, 'r10.el');
  const r = await tessera(['generate', 'rmat', '--scale', '10', '--out', out]);
  t.is(r.code, 0, r.stderr);
  const m = /an edge list holds only vertices with edges: (\d+) of the 1024 vertex ids have none and are not in it \(read back: (\d+) vertices\); write FILE\.tsr to keep all 1024/.exec(r.stderr);
  t.truthy(m, r.stderr);
  const info = JSON.parse((await tessera(['info', out, '--format', 'json'])).stdout) as { numVertices: number };
  t.is(info.numVertices, Number(m![2]), 'the count is what reading it back gives');
  t.is(Number(m![1]) + info.numVertices, 1024);
  t.regex((await tessera(['generate', '--help'])).stdout.replace(/\s+/g, ' '), /holds only the ids with an edge/);
  refused(t, await tessera(['demo', '--scale', '40']), /--scale must be an integer from 4 to 31, got '40'/);
  refused(t, await tessera(['generate', 'rmat', '--scale', '40', '--out', out]), /--scale must be an integer from 1 to 31/);
});
