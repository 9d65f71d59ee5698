/**
 * End-to-end tests of the command line: the built CLI (dist/src/cli/main.js) is spawned as a
 * user runs it, on the SNAP graphs and Graphalytics examples in test/data, and its
 * output files, reports and error lines are checked against the README's contract and against
 * the serial reference implementations (computed here, in-process, on the same graph).
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { loadGraph } from '../src/graph/load.js';
import type { Graph } from '../src/graph/types.js';
import { algorithm, takes } from './helpers/programs.js';
import {
  referenceBetweenness,
  referenceBfs,
  referenceCdlp,
  referenceLcc,
  referencePageRank,
  referenceSssp,
  referenceWcc,
} from './helpers/references.js';
import { matchFor, readOutput, type GraphalyticsAlgorithm } from '../src/programs/validate.js';
import type { RunReport } from '../src/engine/report.js';
import { CLI, removeTempDirs, tempDir, tessera, writeTopology, type CliResult } from './helpers/cli.js';
import { GRAPHALYTICS, REPO_ROOT, SNAP } from './helpers/paths.js';

const LONG_MAX = '9223372036854775807';
/** Floating-point programs sum in another order than their references: compare relatively. */
const FLOAT_TOLERANCE = 1e-9;

// ---------------------------------------------------------------------------------------------
// helpers

/** The first vertex id of an edge-list file (first line that is not a comment). */
async function firstId(file: string): Promise<number> {
  const rl = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      const s = line.trim();
      if (s === '' || s.startsWith('#') || s.startsWith('%')) continue;
      return Number(s.split(/\s+/)[0]);
    }
  } finally {
    rl.close();
  }
  throw new Error(`${file} has no edge line`);
}

interface OutLine {
  id: number;
  text: string;
}

/** Parses `id value` lines strictly: single space, one pair per line, final newline. */
function parseLines(t: ExecutionContext, text: string): OutLine[] {
  t.true(text.endsWith('\n'), 'output ends with a newline');
  const rows: OutLine[] = [];
  const lines = text.slice(0, -1).split('\n');
  for (const line of lines) {
    const m = /^(\d+) (\S+)$/.exec(line);
    if (m === null) {
      t.fail(`malformed output line '${line}'`);
      return rows;
    }
    rows.push({ id: Number(m[1]), text: m[2]! });
  }
  return rows;
}

/** Checks one line per vertex in ascending original id: exactly the graph's vertex set. */
function checkIdOrder(t: ExecutionContext, g: Graph, rows: OutLine[]): void {
  t.is(rows.length, g.numVertices, 'one line per vertex');
  const { toOriginal, byOriginal } = g.ids;
  let bad = 0;
  for (let i = 0; i < rows.length; i++) if (rows[i]!.id !== toOriginal[byOriginal[i]!]) bad++;
  t.is(bad, 0, 'ids are the graph vertex ids in ascending order');
}

/** A float as the output must write it: the shortest text that reads back as the same double. */
function isRoundTripFloat(s: string): boolean {
  const x = Number(s);
  return Number.isFinite(x) && String(x) === s;
}

const near = (a: number, b: number): boolean => a === b || Math.abs(a - b) <= FLOAT_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));

type Reference = (g: Graph, params: Record<string, unknown>) => ArrayLike<number>;

interface ProgramCase {
  algo: string;
  flags: (source: number) => string[];
  reference: Reference;
  /** Checks the text of one value (format contract) against the reference value. */
  check(text: string, want: number): boolean;
}

const exactInt = (text: string, want: number): boolean => /^\d+$/.test(text) && Number(text) === want;
const float = (text: string, want: number): boolean => isRoundTripFloat(text) && near(Number(text), want);

const PROGRAMS: ProgramCase[] = [
  {
    algo: 'bfs',
    flags: (s) => ['--source', String(s)],
    reference: (g, p) => referenceBfs(g, p.source as number),
    check: (text, want) => (want < 0 ? text === LONG_MAX : exactInt(text, want)),
  },
  {
    algo: 'pr',
    flags: () => [],
    reference: (g, p) => referencePageRank(g, { iterations: p.iterations as number, damping: p.damping as number }),
    check: float,
  },
  {
    algo: 'sssp',
    flags: (s) => ['--source', String(s)],
    reference: (g, p) => referenceSssp(g, p.source as number),
    // Unweighted input: distances are hop counts, sums of 1s, so exact.
    check: (text, want) => (want === Infinity ? text === 'infinity' : isRoundTripFloat(text) && Number(text) === want),
  },
  { algo: 'wcc', flags: () => [], reference: (g) => referenceWcc(g), check: exactInt },
  { algo: 'cdlp', flags: () => [], reference: (g, p) => referenceCdlp(g, p.iterations as number), check: exactInt },
  { algo: 'lcc', flags: () => [], reference: (g) => referenceLcc(g), check: float },
  {
    algo: 'bc',
    flags: () => ['--sources', '4', '--seed', '1'],
    reference: (g, p) => referenceBetweenness(g, p.sources as Uint32Array),
    check: float,
  },
];

/** The parameters the CLI resolves from its flags, resolved the same way here (internal ids). */
function paramsOf(g: Graph, algo: string, source: number): Record<string, unknown> {
  return algorithm(algo).params(g, takes(algo, { source, sources: 4, seed: 1 }), {}) as Record<string, unknown>;
}

function checkReport(t: ExecutionContext, r: RunReport, algo: string, file: string, g: Graph): void {
  t.is(r.program, algorithm(algo).program.name);
  t.deepEqual(r.graph, { source: file, vertices: g.numVertices, edges: g.numEdges, directed: g.directed });
  t.is(r.topology.name, 'test-2t');
  t.deepEqual(r.topology.sockets, [{ id: 0, threads: 2 }]);
  t.deepEqual(r.topology.gpus, []);
  t.true(r.supersteps >= 1);
  t.is(r.steps.length, r.supersteps);
  r.steps.forEach((s, i) => {
    t.is(s.step, i);
    t.true(s.mode === 'push' || s.mode === 'pull', `step ${i} mode ${s.mode}`);
    t.true(s.edges >= 0 && s.ms >= 0);
    t.deepEqual(
      s.actors.map((a) => [a.actor, a.kind]),
      [['socket0', 'cpu']],
    );
  });
  t.is(r.edgesProcessed, r.steps.reduce((a, s) => a + s.edges, 0));
  // A bc sample may hold only sinks (soc-Epinions1 with --sources 4 --seed 1 does).
  if (algo !== 'bc') t.true(r.edgesProcessed > 0);
  t.true(r.totalMs > 0);
  t.true(Math.abs(r.teps - r.edgesProcessed / (r.totalMs / 1000)) <= 1e-9 * r.teps, 'teps = edges / time');
  t.true(typeof r.loadMs === 'number' && r.loadMs > 0, 'the CLI reports the load time');
  t.true(typeof r.startMs === 'number' && r.startMs > 0, "and the engine's start");
  t.is(typeof r.notes, 'object');
}

/** One error line: `tessera: ...`, exit code 1, nothing on stdout, no stack trace. */
function checkErrorLine(t: ExecutionContext, r: CliResult, ...patterns: RegExp[]): void {
  t.is(r.code, 1, `exit code (stderr: ${r.stderr})`);
  t.is(r.stdout, '');
  t.regex(r.stderr, /^tessera: [^\n]+\n$/, `exactly one line starting with tessera:, got: ${r.stderr}`);
  t.notRegex(r.stderr, /\bat .+:\d+:\d+\)?$/m, 'no stack trace');
  t.notRegex(r.stderr, /internal error/);
  for (const p of patterns) t.regex(r.stderr, p);
}

// ---------------------------------------------------------------------------------------------
// SNAP graphs through every program

interface SnapCase {
  name: string;
  file: string;
  /** facebook_combined lists each undirected edge once (SNAP README): run it as undirected. */
  undirected: boolean;
}

const SNAP_GRAPHS: SnapCase[] = [
  { name: 'facebook_combined', file: path.join(SNAP, 'facebook_combined.txt.gz'), undirected: true },
  { name: 'wiki-Vote', file: path.join(SNAP, 'wiki-Vote.txt.gz'), undirected: false },
  { name: 'soc-Epinions1', file: path.join(SNAP, 'soc-Epinions1.txt.gz'), undirected: false },
];

const loaded = new Map<string, Promise<{ graph: Graph; source: number }>>();
function snapGraph(c: SnapCase): Promise<{ graph: Graph; source: number }> {
  let p = loaded.get(c.name);
  if (p === undefined) {
    p = (async () => ({ graph: (await loadGraph(c.file, { undirected: c.undirected })).graph, source: await firstId(c.file) }))();
    loaded.set(c.name, p);
  }
  return p;
}

const work = tempDir();
test.after.always(removeTempDirs);

for (const c of SNAP_GRAPHS) {
  for (const prog of PROGRAMS) {
    test(`SNAP ${c.name}: tessera run --algo ${prog.algo} matches the serial reference`, async (t) => {
      const dir = await tempDir();
      const topology = await writeTopology(dir, 2);
      const { graph, source } = await snapGraph(c);
      const out = path.join(dir, `${prog.algo}.txt`);
      const reportFile = path.join(dir, `${prog.algo}.json`);
      const args = ['run', '--algo', prog.algo, '--graph', c.file, ...(c.undirected ? ['--undirected'] : []), ...prog.flags(source)];
      const r = await tessera([...args, '--out', out, '--report', reportFile, '--topology', topology]);
      t.is(r.code, 0, r.stderr);
      t.is(r.stderr, '', 'nothing on stderr when it is not a terminal');
      t.regex(r.stdout, new RegExp(`^${algorithm(prog.algo).program.name} on `), 'summary on stdout');

      // --out is atomic: only the files we asked for remain, no temporary.
      t.deepEqual((await readdir(dir)).sort(), [path.basename(out), path.basename(reportFile), path.basename(topology)].sort());

      const rows = parseLines(t, await readFile(out, 'utf8'));
      checkIdOrder(t, graph, rows);
      checkReport(t, JSON.parse(await readFile(reportFile, 'utf8')) as RunReport, prog.algo, c.file, graph);

      const want = prog.reference(graph, paramsOf(graph, prog.algo, source));
      const { byOriginal } = graph.ids;
      const bad: string[] = [];
      for (let i = 0; i < rows.length; i++) {
        const w = want[byOriginal[i]!]!;
        if (!prog.check(rows[i]!.text, w)) bad.push(`vertex ${rows[i]!.id}: got '${rows[i]!.text}', reference ${w}`);
      }
      t.deepEqual(bad.slice(0, 5), [], `${bad.length} of ${rows.length} values disagree with the reference`);
    });
  }
}

// soc-Epinions1's sample above holds only sinks (all zeros): a --source-list with the file's first
// vertex (which has out-edges) makes the comparison bite there too.
test('SNAP soc-Epinions1: tessera run --algo bc --source-list matches the serial reference', async (t) => {
  const c = SNAP_GRAPHS[2]!;
  const dir = await tempDir();
  const topology = await writeTopology(dir, 2);
  const { graph, source } = await snapGraph(c);
  const list = path.join(dir, 'sources.txt');
  await writeFile(list, `# bc sources\n${source}\n`);
  const out = path.join(dir, 'bc.txt');
  const r = await tessera(['run', '--algo', 'bc', '--graph', c.file, '--source-list', list, '--out', out, '--topology', topology, '-q']);
  t.is(r.code, 0, r.stderr);
  const rows = parseLines(t, await readFile(out, 'utf8'));
  checkIdOrder(t, graph, rows);
  const sources = algorithm('bc').params(graph, { sourceList: [source] }, {}) as { sources: Uint32Array };
  const want = referenceBetweenness(graph, sources.sources);
  const { byOriginal } = graph.ids;
  let nonzero = 0;
  const bad: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const w = want[byOriginal[i]!]!;
    if (w !== 0) nonzero++;
    if (!float(rows[i]!.text, w)) bad.push(`vertex ${rows[i]!.id}: got '${rows[i]!.text}', reference ${w}`);
  }
  t.true(nonzero > 100, `the source reaches into the graph (${nonzero} non-zero values)`);
  t.deepEqual(bad.slice(0, 5), [], `${bad.length} of ${rows.length} values disagree with the reference`);
});

// ---------------------------------------------------------------------------------------------
// Graphalytics input (.e with its .v and .properties)

const GA_ALGOS: GraphalyticsAlgorithm[] = ['BFS', 'CDLP', 'LCC', 'PR', 'SSSP', 'WCC'];
for (const ds of ['example-directed', 'example-undirected']) {
  for (const A of GA_ALGOS) {
    test(`Graphalytics ${ds}: tessera run --algo ${A.toLowerCase()} --graph ${ds}.e matches ${ds}-${A}`, async (t) => {
      const dir = await tempDir();
      const out = path.join(dir, 'out.txt');
      // No --source / --iterations / --damping: they come from the .properties file.
      const r = await tessera(['run', '--algo', A.toLowerCase(), '--graph', path.join(GRAPHALYTICS, ds, `${ds}.e`), '--out', out, '-q']);
      t.is(r.code, 0, r.stderr);
      t.is(r.stdout, '');
      const m = matchFor(A, readOutput(path.join(GRAPHALYTICS, ds, `${ds}-${A}`)), readOutput(out));
      t.true(m.ok, m.reason);
    });
  }
}

test('Graphalytics example-directed: the .properties iterations are used (an explicit --iterations 10 gives other ranks)', async (t) => {
  const dir = await tempDir();
  const e = path.join(GRAPHALYTICS, 'example-directed', 'example-directed.e');
  const expected = readOutput(path.join(GRAPHALYTICS, 'example-directed', 'example-directed-PR'));
  const r = await tessera(['run', '--algo', 'pr', '--graph', e, '--iterations', '10', '--out', path.join(dir, 'pr10.txt'), '-q']);
  t.is(r.code, 0, r.stderr);
  t.false(matchFor('PR', expected, readOutput(path.join(dir, 'pr10.txt'))).ok);
});

// ---------------------------------------------------------------------------------------------
// bad arguments and bad inputs: exit 1, one `tessera:` line

const W = path.join(SNAP, 'wiki-Vote.txt.gz');

interface Fixtures {
  dir: string;
  topology: string;
  small: string;
}

let fixtures: Promise<Fixtures> | undefined;
function fx(): Promise<Fixtures> {
  fixtures ??= (async () => {
    const dir = await work;
    const topology = await writeTopology(dir, 2);
    const small = path.join(dir, 'small.el');
    await writeFile(small, '1 2\n2 3\n3 1\n');
    await writeFile(path.join(dir, 'bad.el'), '# a comment\n1 2\n2 x\n3 1\n');
    await writeFile(path.join(dir, 'neg.el'), '1 2 0.5\n2 3 -1\n3 1 2\n');
    await writeFile(path.join(dir, 'list.txt'), '1\n2\n');
    await writeFile(path.join(dir, 'syntax.yaml'), 'name: bad\nsockets:\n  - id: 0\n    threads: 2: 3\n');
    await writeFile(path.join(dir, 'unknown-key.yaml'), 'name: bad\nsockets:\n  - id: 0\n    thread: 2\n');
    await writeFile(path.join(dir, 'zero.yaml'), 'name: bad\nsockets:\n  - id: 0\n    threads: 0\n');
    return { dir, topology, small };
  })();
  return fixtures;
}

interface ErrorCase {
  title: string;
  args: (f: Fixtures) => string[];
  patterns: RegExp[];
}

const ERROR_CASES: ErrorCase[] = [
  { title: 'unknown --algo', args: (f) => ['run', '--algo', 'foo', '--graph', f.small], patterns: [/unknown algorithm 'foo'/, /--algo/, /bfs, pr, sssp, wcc, cdlp, lcc, bc/] },
  { title: 'missing --graph', args: () => ['run', '--algo', 'bfs', '--source', '1'], patterns: [/--graph is required/, /or --resume DIR to continue a checkpointed run/] },
  { title: 'non-integer --source', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--source', 'abc'], patterns: [/--source/, /'abc'/, /integer/] },
  { title: 'fractional --source', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--source', '1.5'], patterns: [/--source/, /'1\.5'/] },
  { title: '--source not in the graph', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--source', '7'], patterns: [/source vertex 7 is not a vertex/, /small\.el/, /from 1 to 3/] },
  { title: '--out naming the input graph', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--out', f.small], patterns: [/--out .*small\.el is also an input: --graph/] },
  { title: '--out equal to --report', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--out', path.join(f.dir, 'same.txt'), '--report', path.join(f.dir, 'same.txt')], patterns: [/--report .*same\.txt is also the --out/] },
  { title: '--checkpoint naming the input graph', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--checkpoint', f.small], patterns: [/--checkpoint .*small\.el is a file, not a folder/] },
  { title: '--checkpoint under a file', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--checkpoint', path.join(f.small, 'sub')], patterns: [/cannot checkpoint into this folder: .*small\.el is a file/] },
  { title: 'empty --checkpoint', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--checkpoint', ''], patterns: [/cannot checkpoint into this folder: the path is empty/] },
  { title: '--checkpoint equal to --out', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--out', path.join(f.dir, 'ck-out'), '--checkpoint', path.join(f.dir, 'ck-out')], patterns: [/--checkpoint .*ck-out is also the --out/, /a folder of its own/] },
  { title: '--out naming a directory', args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--out', f.dir], patterns: [/is not a regular file \(a directory\)/, /--out -/] },
  { title: '--vertices with a generator spec', args: () => ['run', '--algo', 'wcc', '--graph', 'rmat:4', '--vertices', 'x.v'], patterns: [/--vertices does not apply here/, /rmat:4/] },
  { title: 'misspelt --algo', args: (f) => ['run', '--algo', 'pagernak', '--graph', f.small], patterns: [/unknown algorithm 'pagernak'/, /did you mean 'pagerank'\?/] },
  { title: 'a flag the program does not take', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--source', '1', '--damping', '0.5'], patterns: [/bfs has no parameter --damping/, /bfs takes --source/] },
  // Refused before the graph loads: the graph here does not exist.
  { title: 'a flag the program does not take, before the load', args: (f) => ['run', '--algo', 'bfs', '--graph', path.join(f.dir, 'nope.tsr'), '--iterations', '3'], patterns: [/bfs has no parameter --iterations/, /bfs takes --source/] },
  { title: 'a --param the program does not take, before the load', args: (f) => ['run', '--algo', 'pr', '--graph', path.join(f.dir, 'nope.tsr'), '--param', 'sorce=3'], patterns: [/pr has no parameter --param sorce/, /pr takes --iterations, --damping/] },
  { title: 'bfs without a source', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small], patterns: [/bfs needs --source/, /Fix: add --source/] },
  // A .tsr or a generator spec carries no Graphalytics defaults: a missing source is refused before the read.
  { title: 'bfs without a source, before the load', args: (f) => ['run', '--algo', 'bfs', '--graph', path.join(f.dir, 'nope.tsr')], patterns: [/bfs needs --source/, /Fix: add --source/] },
  { title: 'sssp without a source on a generator spec', args: () => ['run', '--algo', 'sssp', '--graph', 'rmat:4:weighted'], patterns: [/sssp needs --source/] },
  { title: 'negative --iterations', args: (f) => ['run', '--algo', 'pr', '--graph', f.small, '--iterations', '-1'], patterns: [/--iterations/, /'-1'/] },
  { title: '--damping 2', args: (f) => ['run', '--algo', 'pr', '--graph', f.small, '--damping', '2'], patterns: [/--damping 2 is out of range/, />= 0 and <= 1/] },
  { title: '--window 0', args: (f) => ['run', '--algo', 'sssp', '--graph', f.small, '--source', '1', '--window', '0'], patterns: [/--window 0 is out of range/, /> 0/] },
  { title: '--sources 0', args: (f) => ['run', '--algo', 'bc', '--graph', f.small, '--sources', '0'], patterns: [/--sources/, /'0'/] },
  {
    title: '--sources with --source-list',
    args: (f) => ['run', '--algo', 'bc', '--graph', f.small, '--sources', '2', '--source-list', path.join(f.dir, 'list.txt')],
    patterns: [/sources \(--sources\) and sourceList \(--source-list\) cannot be used together/],
  },
  { title: 'unknown --mode', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--source', '1', '--mode', 'sideways'], patterns: [/--mode/, /push, pull/] },
  { title: 'unknown option', args: (f) => ['run', '--algo', 'bfs', '--graph', f.small, '--bogus'], patterns: [/unknown option '--bogus'/] },
  { title: 'unknown command', args: () => ['frobnicate'], patterns: [/unknown command 'frobnicate'/] },
  { title: 'missing graph file', args: (f) => ['run', '--algo', 'wcc', '--graph', path.join(f.dir, 'nope.txt')], patterns: [/nope\.txt: graph file not found/] },
  { title: 'malformed edge-list line', args: (f) => ['run', '--algo', 'wcc', '--graph', path.join(f.dir, 'bad.el')], patterns: [/bad\.el:3: 'x' is not a vertex id/] },
  {
    title: 'negative SSSP weight',
    args: (f) => ['run', '--algo', 'sssp', '--graph', path.join(f.dir, 'neg.el'), '--source', '1'],
    patterns: [/neg\.el:2: negative weight -1/],
  },
  {
    title: 'topology: unknown key',
    args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--topology', path.join(f.dir, 'unknown-key.yaml')],
    // The loader names the line of the socket entry holding the key (3) rather than the key's (4).
    patterns: [/unknown-key\.yaml:[34]: invalid topology/, /'thread'/],
  },
  {
    title: 'topology: threads: 0',
    args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--topology', path.join(f.dir, 'zero.yaml')],
    patterns: [/zero\.yaml:4: invalid topology: sockets\.0\.threads/],
  },
  {
    title: 'topology: missing file',
    args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--topology', path.join(f.dir, 'missing.yaml')],
    patterns: [/missing\.yaml: topology file not found/],
  },
  {
    title: 'topology: YAML syntax error',
    args: (f) => ['run', '--algo', 'wcc', '--graph', f.small, '--topology', path.join(f.dir, 'syntax.yaml')],
    patterns: [/syntax\.yaml(:\d+)?: invalid YAML/],
  },
  {
    title: 'bc --source-list missing',
    args: (f) => ['run', '--algo', 'bc', '--graph', f.small, '--source-list', path.join(f.dir, 'nolist.txt')],
    patterns: [/nolist\.txt: source list not found/],
  },
  { title: 'unknown generator option', args: () => ['run', '--algo', 'wcc', '--graph', 'rmat:8:xyz=1'], patterns: [/bad generator spec 'rmat:8:xyz=1'/, /unknown option 'xyz'/] },
  { title: 'generator spec without a scale', args: () => ['run', '--algo', 'wcc', '--graph', 'uniform:'], patterns: [/bad generator spec 'uniform:'/, /scale is missing/] },
  { title: 'unknown generator', args: (f) => ['generate', 'foo', '--scale', '3', '--out', path.join(f.dir, 'foo.tsr')], patterns: [/unknown generator 'foo'/] },
  { title: 'generate to an unknown extension', args: (f) => ['generate', 'rmat', '--scale', '3', '--out', path.join(f.dir, 'g.txt')], patterns: [/g\.txt: cannot tell what to write/, /--out/] },
  { title: 'info of a missing .tsr', args: (f) => ['info', path.join(f.dir, 'none.tsr')], patterns: [/none\.tsr: /] },
];

/** Long options that `tessera CMD --help` lists. */
const helpOptions = new Map<string, Promise<Set<string>>>();
function optionsOf(cmd: string): Promise<Set<string>> {
  let p = helpOptions.get(cmd);
  if (p === undefined) {
    p = tessera([cmd, '--help']).then((r) => new Set(r.stdout.match(/--[a-z][a-z-]*/g) ?? []));
    helpOptions.set(cmd, p);
  }
  return p;
}

/** A message (a fix) that names a flag must name one the command has. */
async function checkFlagsExist(t: ExecutionContext, cmd: string, args: string[], r: CliResult): Promise<void> {
  const known = await optionsOf(cmd);
  for (const flag of r.stderr.match(/--[a-z][a-z-]*/g) ?? []) {
    // An unknown option the user typed is echoed back, of course.
    if (!args.includes(flag)) t.true(known.has(flag), `the message names ${flag}, which 'tessera ${cmd}' does not have`);
  }
}

for (const c of ERROR_CASES) {
  test(`error: ${c.title}`, async (t) => {
    const f = await fx();
    const args = c.args(f);
    const r = await tessera(args);
    checkErrorLine(t, r, ...c.patterns);
    if (args[0] === 'run') await checkFlagsExist(t, 'run', args, r);
  });
}

test('error: topology YAML syntax error names the line', async (t) => {
  const f = await fx();
  const r = await tessera(['run', '--algo', 'wcc', '--graph', f.small, '--topology', path.join(f.dir, 'syntax.yaml')]);
  checkErrorLine(t, r, /syntax\.yaml:4: invalid YAML/);
});

test('error: --out into a missing directory fails before running and leaves nothing behind', async (t) => {
  const f = await fx();
  const missing = path.join(f.dir, 'no-such-dir');
  const r = await tessera(['run', '--algo', 'wcc', '--graph', W, '--topology', f.topology, '--out', path.join(missing, 'wcc.txt')]);
  checkErrorLine(t, r, /no-such-dir/, /--out/);
  await t.throwsAsync(readdir(missing), { code: 'ENOENT' });
  t.false((await readdir(f.dir)).some((n) => n.includes('.tmp')), 'no temporary file');
});

test('error: --report into a missing directory', async (t) => {
  const f = await fx();
  const r = await tessera(['run', '--algo', 'wcc', '--graph', f.small, '--topology', f.topology, '--report', path.join(f.dir, 'nope', 'r.json')]);
  checkErrorLine(t, r, /nope/, /--report/);
});

test('error: an existing --out file is left intact when the run fails', async (t) => {
  const dir = await tempDir();
  const f = await fx();
  const out = path.join(dir, 'keep.txt');
  await writeFile(out, 'previous result\n');
  const r = await tessera(['run', '--algo', 'bfs', '--graph', f.small, '--source', '99', '--topology', f.topology, '--out', out]);
  checkErrorLine(t, r, /source vertex 99/);
  t.is(await readFile(out, 'utf8'), 'previous result\n');
  t.deepEqual(await readdir(dir), ['keep.txt']);
});

// ---------------------------------------------------------------------------------------------
// generate / convert / info / topology detect

test('generate --out x.tsr, then run --graph x.tsr gives what the generator spec gives', async (t) => {
  const dir = await tempDir();
  const f = await fx();
  const tsr = path.join(dir, 'g.tsr');
  const g = await tessera(['generate', 'rmat', '--scale', '10', '--seed', '3', '--weighted', '--out', tsr]);
  t.is(g.code, 0, g.stderr);
  t.regex(g.stdout, /^wrote .*g\.tsr: rmat:10.*1024 vertices/);
  const a = await tessera(['run', '--algo', 'sssp', '--graph', tsr, '--source', '0', '--topology', f.topology, '--out', path.join(dir, 'a.txt'), '-q']);
  const b = await tessera(['run', '--algo', 'sssp', '--graph', 'rmat:10:seed=3:weighted', '--source', '0', '--topology', f.topology, '--out', path.join(dir, 'b.txt'), '-q']);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  const at = await readFile(path.join(dir, 'a.txt'), 'utf8');
  t.is(at.split('\n').length - 1, 1024, 'every one of the 2^10 vertices');
  t.regex(at, /^0 0\n/);
  t.is(at, await readFile(path.join(dir, 'b.txt'), 'utf8'));
  t.deepEqual((await readdir(dir)).sort(), ['a.txt', 'b.txt', 'g.tsr']);
  // A topology's hostMemoryLimit decides how the .tsr is read (the load starts before a topology
  // file is parsed only where its text does not name it): 4 KiB is too small for its pages.
  const limited = path.join(dir, 'limited.yaml');
  await writeFile(limited, 'name: limited\nhostMemoryLimit: 4KiB\nsockets:\n  - id: 0\n    threads: 2\n');
  const c = await tessera(['run', '--algo', 'sssp', '--graph', tsr, '--source', '0', '--topology', limited, '-q']);
  checkErrorLine(t, c, /hostMemoryLimit 4 KiB \(--host-memory, or the topology's\) is too small/);
});

test('convert to .tsr, info on it, and run on it agrees with the text file', async (t) => {
  const dir = await tempDir();
  const f = await fx();
  const tsr = path.join(dir, 'wv.tsr');
  const c = await tessera(['convert', W, '--out', tsr]);
  t.is(c.code, 0, c.stderr);
  t.regex(c.stdout, /7115 vertices, 103689 edges, directed/);

  const info = await tessera(['info', tsr, '--format', 'json']);
  t.is(info.code, 0, info.stderr);
  const i = JSON.parse(info.stdout) as { numVertices: number; numEdges: number; directed: boolean; source: string };
  t.like(i, { numVertices: 7115, numEdges: 103689, directed: true, source: W });
  const text = await tessera(['info', W]);
  t.is(text.code, 0, text.stderr);
  t.regex(text.stdout, /^vertices +7,115$/m);
  t.regex(text.stdout, /^edges +103,689$/m);

  const a = await tessera(['run', '--algo', 'wcc', '--graph', tsr, '--topology', f.topology, '--out', path.join(dir, 'a.txt'), '-q']);
  const b = await tessera(['run', '--algo', 'wcc', '--graph', W, '--topology', f.topology, '--out', path.join(dir, 'b.txt'), '-q']);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  t.is(await readFile(path.join(dir, 'a.txt'), 'utf8'), await readFile(path.join(dir, 'b.txt'), 'utf8'));
});

test("a machine's GPU stays idle on a small graph unless a flag asks for it (its driver entry faked here)", async (t) => {
  const dir = await tempDir();
  const f = await fx();
  const proc = path.join(dir, 'nvidia-gpus');
  await mkdir(path.join(proc, '0000:00:06.0'), { recursive: true });
  await writeFile(path.join(proc, '0000:00:06.0', 'information'), 'Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-f5241086-dbb1-13d3\n');
  const env = { TESSERA_NVIDIA_PROC: proc, CUDA_VISIBLE_DEVICES: 'GPU-f5241086' };
  const d = await tessera(['topology', 'detect'], { env });
  t.regex(d.stdout, /name: detected-\d+S1G/);
  for (const graph of [f.small, 'rmat:8']) {
    const report = path.join(dir, 'idle.json');
    const r = await tessera(['run', '--algo', 'bfs', '--graph', graph, '--source', '1', '--report', report, '-q'], { env });
    t.is(r.code, 0, r.stderr);
    t.regex(r.stderr, graph === 'rmat:8' ? /GPU stays idle on a graph of under 2M edges/ : /GPU stays idle on a graph file under 32 MiB/);
    const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
    t.deepEqual(rep.topology.gpus, [], graph);
  }
  // --alpha asks for the GPU: it is opened (on a machine without one CUDA can use, the run says so).
  const report = path.join(dir, 'asked.json');
  const a = await tessera(['run', '--algo', 'bfs', '--graph', f.small, '--source', '1', '--alpha', '0', '--report', report, '-q'], { env });
  t.notRegex(a.stderr, /stays idle/);
  if (a.code === 0) t.is((JSON.parse(await readFile(report, 'utf8')) as RunReport).topology.gpus.length, 1);
  else t.regex(a.stderr, /names GPU device 0, which cannot be used here/);
});

test('topology detect prints YAML that --topology accepts', async (t) => {
  const dir = await tempDir();
  const f = await fx();
  const d = await tessera(['topology', 'detect']);
  t.is(d.code, 0, d.stderr);
  const doc = parseYaml(d.stdout) as { name: string; sockets: Array<{ threads: number }> };
  t.is(typeof doc.name, 'string');
  t.true(doc.sockets.length >= 1 && doc.sockets.every((s) => Number.isInteger(s.threads) && s.threads >= 1));
  const file = path.join(dir, 'detected.yaml');
  await writeFile(file, d.stdout);
  const viaOut = path.join(dir, 'via-out.yaml');
  const o = await tessera(['topology', 'detect', '--out', viaOut]);
  t.is(o.code, 0, o.stderr);
  t.is(await readFile(viaOut, 'utf8'), d.stdout);

  const report = path.join(dir, 'r.json');
  const r = await tessera(['run', '--algo', 'bfs', '--graph', f.small, '--source', '1', '--topology', file, '--report', report, '-q']);
  t.is(r.code, 0, r.stderr);
  const rep = JSON.parse(await readFile(report, 'utf8')) as RunReport;
  t.is(rep.topology.name, doc.name);
  t.deepEqual(
    rep.topology.sockets.map((s) => s.threads),
    doc.sockets.map((s) => s.threads),
  );
});

test('run prints a summary, and --out writes into a nested existing directory', async (t) => {
  const dir = await tempDir();
  const f = await fx();
  await mkdir(path.join(dir, 'a', 'b'), { recursive: true });
  const out = path.join(dir, 'a', 'b', 'bfs.txt');
  const r = await tessera(['run', '--algo', 'bfs', '--graph', f.small, '--source', '2', '--topology', f.topology, '--out', out]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^bfs on .*small\.el: 3 vertices, 3 edges \(directed\)$/m);
  t.regex(r.stdout, /supersteps/);
  t.is(await readFile(out, 'utf8'), '1 2\n2 0\n3 1\n');
});

test('run --algo MODULE: a program from its own module, its parameters by --param', async (t) => {
  const f = await fx();
  const hits = path.join(REPO_ROOT, 'dist', 'examples', 'hits', 'index.js');
  const out = path.join(f.dir, 'hits.txt');
  const r = await tessera(['run', '--algo', hits, '--graph', f.small, '--param', 'iterations=3', '--topology', f.topology, '--out', out, '-q']);
  t.is(r.code, 0, r.stderr);
  // The cycle 1 -> 2 -> 3 -> 1: every authority is 1/sqrt(3) after any number of iterations.
  const rows = (await readFile(out, 'utf8')).trim().split('\n').map((l) => l.split(' ').map(Number));
  t.deepEqual(rows.map((x) => x[0]), [1, 2, 3]);
  for (const [, x] of rows) t.true(Math.abs(x! - 1 / Math.sqrt(3)) < 1e-12, String(x));
  const args = ['run', '--algo', hits, '--graph', f.small, '--param', 'nope=1', '--topology', f.topology];
  checkErrorLine(t, await tessera(args), /hits has no parameter --param nope/, /hits takes --iterations/);
  checkErrorLine(t, await tessera(['run', '--algo', hits, '--graph', f.small, '--param', 'iterations=-2']), /--param iterations -2 is out of range/);
  checkErrorLine(t, await tessera(['run', '--algo', path.join(f.dir, 'missing.js'), '--graph', f.small]), /program module not found/, /missing\.js/);
  checkErrorLine(t, await tessera(['run', '--algo', path.join(REPO_ROOT, 'dist', 'examples', 'hits', 'kernels.js'), '--graph', f.small]), /the module exports no program/);
});

test('--out - writes the results to standard output (the summary to standard error); --version', async (t) => {
  const f = await fx();
  const r = await tessera(['run', '--algo', 'bfs', '--graph', f.small, '--source', '1', '--topology', f.topology, '--out', '-']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '1 0\n2 1\n3 2\n');
  t.regex(r.stderr, /^bfs on /m, 'the summary on stderr');
  const files = await readdir(f.dir);
  t.false(files.includes('-'), 'no file named -');
  const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  const v = await tessera(['--version']);
  t.is(v.code, 0);
  t.is(v.stdout.trim(), pkg.version);
  // Far more than a pipe holds (the CLI exits once its streams are flushed, not when node is done
  // freeing the run's memory: main.ts): every line arrives, and a reader that stops early is not
  // an error.
  const big = await tessera(['run', '--algo', 'pr', '--graph', 'rmat:14', '--topology', f.topology, '--out', '-', '-q']);
  t.is(big.code, 0, big.stderr);
  const lines = big.stdout.split('\n');
  t.is(lines.pop(), '', 'the output ends with a newline');
  t.is(lines.length, 16384);
  t.deepEqual([lines[0]!.split(' ')[0], lines[16383]!.split(' ')[0]], ['0', '16383']);
  const early = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', '--algo', 'pr', '--graph', 'rmat:14', '--topology', f.topology, '--out', '-', '-q'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
  t.is(early.code, 0, early.stderr);
  t.is(early.stderr, '');
});

test('a .tsr refuses the options that shape pages it has stored (--undirected on a directed one, another --page-edges)', async (t) => {
  const f = await fx();
  const tsr = path.join(f.dir, 'opts.tsr');
  const g = await tessera(['generate', 'rmat', '--scale', '5', '--out', tsr]);
  t.is(g.code, 0, g.stderr);
  checkErrorLine(t, await tessera(['run', '--algo', 'wcc', '--graph', tsr, '--undirected']), /--undirected does not apply here: this \.tsr is stored directed/, /convert/);
  checkErrorLine(t, await tessera(['run', '--algo', 'wcc', '--graph', tsr, '--page-edges', '64']), /--page-edges does not apply here/);
  const ok = await tessera(['run', '--algo', 'wcc', '--graph', tsr, '--topology', f.topology, '-q']);
  t.is(ok.code, 0, ok.stderr);
});
