/**
 * The command line's outputs never replace what a command reads (a Graphalytics graph's .v and
 * .properties, a topology, a model cache that is another file), bad output paths are one line and
 * exit 1 (never an internal error), and every output is written through a temporary file.
 */
import test from 'ava';
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeTempDirs, tempDir, tessera, writeTopology, type CliResult } from './helpers/cli.js';
import { GRAPHALYTICS } from './helpers/paths.js';

test.after.always(removeTempDirs);

/** One error line naming what is wrong, exit 1: no stack, no internal error. */
function refused(t: { is: (a: unknown, b: unknown, m?: string) => void; regex: (s: string, r: RegExp) => void; true: (x: boolean, m?: string) => void }, r: CliResult, ...patterns: RegExp[]): void {
  t.is(r.code, 1, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  t.is(lines.length, 1, r.stderr);
  t.true(!/internal error|\n\s+at /.test(r.stderr), r.stderr);
  for (const p of patterns) t.regex(r.stderr, p);
}

/** A copy of the example-directed Graphalytics dataset in a fresh folder. */
async function dataset(): Promise<{ dir: string; e: string; v: string; props: string; topology: string }> {
  const dir = await tempDir();
  const ga = path.join(dir, 'ga');
  await mkdir(ga);
  const src = path.join(GRAPHALYTICS, 'example-directed', 'example-directed');
  for (const x of ['.e', '.v', '.properties']) await copyFile(src + x, path.join(ga, `x${x}`));
  // The .properties names the files of example-directed: renamed with them.
  const props = path.join(ga, 'x.properties');
  await writeFile(props, (await readFile(props, 'utf8')).replaceAll('example-directed', 'x'));
  return { dir, e: path.join(ga, 'x.e'), v: path.join(ga, 'x.v'), props, topology: await writeTopology(dir, 2) };
}

test('--out and --report refuse a Graphalytics graph\'s own .v and .properties, and the topology', async (t) => {
  const d = await dataset();
  const before = await Promise.all([d.v, d.props, d.topology].map((f) => readFile(f, 'utf8')));
  const cases: Array<[string[], RegExp]> = [
    [['--graph', d.e, '--out', d.v], /--out .*x\.v is also an input: --graph's vertex file/],
    [['--graph', d.e, '--out', d.props], /--out .*x\.properties is also an input: --graph's properties file/],
    [['--graph', d.e, '--report', d.v], /--report .*x\.v is also an input: --graph's vertex file/],
    [['--graph', d.props, '--out', path.join(d.dir, 'ga', '.', 'x.e')], /--out .*x\.e is also an input: --graph's edge file/],
    [['--graph', path.join(d.dir, 'ga'), '--out', d.v], /--graph's vertex file/],
    [['--graph', d.e, '--out', d.topology], /is also an input: --topology/],
  ];
  for (const [args, p] of cases) refused(t, await tessera(['run', '-q', '--algo', 'bfs', '--topology', d.topology, ...args]), p);
  t.deepEqual(await Promise.all([d.v, d.props, d.topology].map((f) => readFile(f, 'utf8'))), before, 'the dataset and the topology are untouched');
});

test('empty output paths and an --out-dir that is a file are one line, exit 1', async (t) => {
  const d = await dataset();
  const run = ['run', '-q', '--algo', 'bfs', '--graph', d.e, '--topology', d.topology];
  refused(t, await tessera([...run, '--out', '']), /--out is empty/);
  refused(t, await tessera([...run, '--report', '']), /--report is empty/);
  refused(t, await tessera(['generate', 'rmat', '--scale', '3', '--out', '']), /--out is empty/);
  refused(t, await tessera(['convert', d.e, '--out', '']), /--out is empty/);
  refused(t, await tessera(['topology', 'detect', '--out', '']), /--out is empty/);
  const file = path.join(d.dir, 'p.txt');
  await writeFile(file, 'keep\n');
  refused(t, await tessera(['bench', '--config', 'tiny.yaml', '--out-dir', file]), /p\.txt is a file, not a folder/, /--out-dir/);
  t.is(await readFile(file, 'utf8'), 'keep\n');
  t.deepEqual((await readdir(d.dir)).sort(), ['ga', 'p.txt', path.basename(d.topology)].sort(), 'nothing else written');
});

test('--report - writes the report to standard output, the summary to standard error', async (t) => {
  const d = await dataset();
  const r = await tessera(['run', '--algo', 'bfs', '--graph', d.e, '--topology', d.topology, '--report', '-']);
  t.is(r.code, 0, r.stderr);
  t.is((JSON.parse(r.stdout) as { program: string }).program, 'bfs');
  t.regex(r.stderr, /supersteps/);
  t.false((await readdir(process.cwd())).includes('-'), "no file named '-'");
  refused(t, await tessera(['run', '--algo', 'bfs', '--graph', d.e, '--topology', d.topology, '--report', '-', '--out', '-']), /both write to standard output/);
});

test('topology detect --out writes through a temporary file and refuses a folder', async (t) => {
  const d = await dataset();
  const out = path.join(d.dir, 'detected.yaml');
  const r = await tessera(['topology', 'detect', '--out', out]);
  t.is(r.code, 0, r.stderr);
  t.regex(await readFile(out, 'utf8'), /sockets:/);
  refused(t, await tessera(['topology', 'detect', '--out', path.join(d.dir, 'ga')]), /not a regular file \(a directory\)/);
  refused(t, await tessera(['topology', 'detect', '--out', path.join(d.dir, 'nope', 'x.yaml')]), /does not exist/);
});

test('model --cache refuses the graph and any file that is not a calibration cache', async (t) => {
  const d = await dataset();
  const graph = path.join(d.dir, 'mg.el');
  await writeFile(graph, '1 2\n2 3\n3 1\n');
  const other = path.join(d.dir, 'notes.json');
  await writeFile(other, '{"mine": true}\n');
  const model = (cache: string): Promise<CliResult> => tessera(['model', '--graph', graph, '--algo', 'wcc', '--topology', d.topology, '--cache', cache]);
  refused(t, await model(graph), /--cache .*mg\.el is also an input: --graph/);
  refused(t, await model(d.topology), /is also an input: --topology/);
  refused(t, await model(other), /notes\.json: this file is not a tessera calibration cache \(JSON, but no calibration cache/);
  refused(t, await model(''), /--cache is empty/);
  t.is(await readFile(graph, 'utf8'), '1 2\n2 3\n3 1\n');
  t.is(await readFile(other, 'utf8'), '{"mine": true}\n');
  // A new file, then the same file again: a cache it made is read and kept.
  const cache = path.join(d.dir, 'cal.json');
  for (let i = 0; i < 2; i++) t.is((await model(cache)).code, 0);
  t.is((JSON.parse(await readFile(cache, 'utf8')) as { version: number }).version, 3);
});
