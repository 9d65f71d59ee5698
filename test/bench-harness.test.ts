import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseBenchConfig, programLabel } from '../src/bench/config.js';
import { GAPBS_WEIGHT_SCALE } from '../src/bench/cell.js';
import { peerRatios } from '../src/bench/markdown.js';
import { checkGapbs, gapbsCommand, parseGapbsOutput } from '../src/bench/peers/gapbs.js';
import { RESULT_SCHEMA, resultsSchema, summarize, type Cell } from '../src/bench/schema.js';
import { alphaSpec } from '../src/bench/plots.js';
import { accuracyOf, modelAccuracy } from '../src/bench/accuracy.js';
import { fillPeerTeps, runSweep } from '../src/bench/sweep.js';
import { replot } from '../src/cli/bench-command.js';
import { TesseraError } from '../src/errors.js';
import { REPO_ROOT } from './helpers/paths.js';

const FIX = path.join(REPO_ROOT, 'test/fixtures/bench');
const fixture = (f: string): Promise<string> => readFile(path.join(FIX, f), 'utf8');
/** The "Trial Time:" numbers of a fixture, read independently of the parser. */
const trialLines = (text: string): number[] => [...text.matchAll(/^Trial Time:\s+(\S+)$/gm)].map((m) => Number(m[1]));

test('summarize: median of odd and even counts, min, max', (t) => {
  t.deepEqual(summarize([5, 1, 3]), { median: 3, min: 1, max: 5 });
  t.deepEqual(summarize([4, 1, 3, 10]), { median: 3.5, min: 1, max: 10 });
  t.is(summarize([]), null);
});

for (const [file, kernel] of [
  ['gapbs-bfs-g12.txt', 'bfs'],
  ['gapbs-pr-g12.txt', 'pr'],
  ['gapbs-sssp-g12.txt', 'sssp'],
  ['gapbs-cc-g12.txt', 'cc'],
  ['gapbs-bc-g12.txt', 'bc'],
  ['gapbs-tc-g12.txt', 'tc'],
] as const) {
  test(`GAPBS parser: recorded ${kernel} output (generated graph)`, async (t) => {
    const text = await fixture(file);
    const p = parseGapbsOutput(text);
    t.deepEqual(p.trials, trialLines(text));
    t.true(p.trials.length >= 2);
    const mean = p.trials.reduce((a, b) => a + b, 0) / p.trials.length;
    t.true(Math.abs(p.average! - mean) <= 1e-5, `average ${p.average} vs mean of trials ${mean}`);
    t.is(p.nodes, 4096);
    t.is(p.directed, false);
    t.true(p.generateTime! > 0 && p.buildTime! > 0);
    t.is(p.readTime, null);
    t.deepEqual(p.other, [], 'every line of a normal run is understood');
  });
}

test('GAPBS parser: verification and step-log lines', async (t) => {
  const p = parseGapbsOutput(await fixture('gapbs-bfs-g10-verify-log.txt'));
  t.is(p.trials.length, 2);
  t.deepEqual(p.verification, ['PASS', 'PASS']);
  t.deepEqual(p.other, []);
  t.is(p.edges, 10496);
});

test('GAPBS parser: file input reports Read Time and a directed graph', async (t) => {
  const el = parseGapbsOutput(await fixture('gapbs-bfs-file-el.txt'));
  t.true(el.readTime! > 0);
  t.is(el.generateTime, null);
  t.is(el.nodes, 5);
  t.is(el.edges, 6);
  t.is(el.directed, true);
  const wel = parseGapbsOutput(await fixture('gapbs-sssp-file-wel-verify.txt'));
  t.is(wel.trials.length, 2);
  t.deepEqual(wel.verification, ['PASS', 'PASS']);
});

test('GAPBS parser: a failed run has no trials and keeps the message', async (t) => {
  const p = parseGapbsOutput(await fixture('gapbs-missing-file.txt'));
  t.deepEqual(p.trials, []);
  t.is(p.average, null);
  t.regex(p.other[0]!, /Couldn't open file/);
});

test('GAPBS commands: same source, iterations and window as tessera; no kernel for cdlp/lcc', (t) => {
  const files = { el: '/g.el', wel: '/g.wel' };
  const g = { source: 7, meanWeight: 0.25 };
  const bfs = gapbsCommand({ name: 'bfs', params: {} }, files, g, 4)!;
  t.deepEqual([bfs.binary, bfs.args], ['bfs', ['-f', '/g.el', '-r', '7', '-n', '4']]);
  const pr = gapbsCommand({ name: 'pr', params: { iterations: 20 } }, files, g, 4)!;
  t.deepEqual(pr.args, ['-f', '/g.el', '-i', '20', '-t', '0', '-n', '4']);
  const sssp = gapbsCommand({ name: 'sssp', params: {} }, files, g, 4)!;
  t.deepEqual(sssp.args, ['-f', '/g.wel', '-r', '7', '-d', String(0.25 * GAPBS_WEIGHT_SCALE), '-n', '4']);
  t.is(gapbsCommand({ name: 'wcc', params: {} }, files, g, 4)!.binary, 'cc');
  t.is(gapbsCommand({ name: 'cdlp', params: {} }, files, g, 4), null);
  t.is(gapbsCommand({ name: 'lcc', params: {} }, files, g, 4), null);
  t.is(gapbsCommand({ name: 'bc', params: {} }, files, g, 4), null, 'exact bc has no GAPBS equivalent');
});

test('config: expands scales, resolves paths against the config file, canonical program names', (t) => {
  const c = parseBenchConfig(
    'graphs:\n  - rmat: [8, 9]\n    weighted: true\n  - uniform: 7\ntopologies: [../configs/1S.yaml]\nprograms: [bfs, { pagerank: { iterations: 3 } }]\n',
    '/x/bench/config.yaml',
  );
  t.deepEqual(c.graphs.map((g) => g.id), ['rmat:8:weighted', 'rmat:9:weighted', 'uniform:7']);
  t.deepEqual(c.topologies, ['/x/configs/1S.yaml']);
  t.deepEqual(c.programs, [{ name: 'bfs', params: {} }, { name: 'pr', params: { iterations: 3 } }]);
  t.is(c.repetitions, 3);
  t.is(c.warmup, 1);
  t.deepEqual(c.alphas, []);
  // A forced mode is the engine's option; cells and curves carry it in the program's label.
  const forced = parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs, { bfs: { mode: push } }]\n', '/x/c.yaml');
  t.deepEqual(forced.programs.map(programLabel), ['bfs', 'bfs:push']);
  t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [{ bfs: { mode: sideways } }]\n', 'c.yaml'), { message: /^c\.yaml:3: .*programs\.0.*mode: push or pull/ });
});

test('config: errors name the file, line, key and a fix', (t) => {
  const unknownKey = t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\nrepetitons: 3\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(unknownKey!.message, /^c\.yaml: invalid benchmark config: .*repetitons.*Fix: remove or rename 'repetitons'/);
  const prog = t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms:\n  - bfs\n  - quicksort\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(prog!.message, /^c\.yaml:5: unknown program 'quicksort'.*Fix: use one of/);
  const scale = t.throws(() => parseBenchConfig('graphs:\n  - rmat: [8, 40]\ntopologies: [a.yaml]\nprograms: [bfs]\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(scale!.message, /^c\.yaml:2: invalid benchmark config: graphs\.0/);
  const alpha = t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\nalphas: [0.5, 2]\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(alpha!.message, /alphas\.1/);
  const steal = t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\nsteal: sometimes\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(steal!.message, /^c\.yaml:4: invalid benchmark config: steal/);
  t.is(parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\nsteal: off\n', 'c.yaml').steal, 'off');
  t.is(parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\n', 'c.yaml').steal, 'auto');
  // The swept cells' strategy: high unless the config says low or rand.
  t.is(parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\n', 'c.yaml').partition, 'high');
  t.is(parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\npartition: low\n', 'c.yaml').partition, 'low');
  const part = t.throws(() => parseBenchConfig('graphs: [{ rmat: 8 }]\ntopologies: [a.yaml]\nprograms: [bfs]\npartition: middle\n', 'c.yaml'), { instanceOf: TesseraError });
  t.regex(part!.message, /^c\.yaml:4: invalid benchmark config: partition/);
});

function cell(engine: Cell['engine'], topology: string, ms: number[], edges: number | null, alpha: number | null = null, share: number | null = null): Cell {
  const samples = ms.map((x) => ({ ms: x, edges, teps: edges === null ? null : edges / (x / 1000), supersteps: null, actors: [], cpuEdgeShare: share, model: null }));
  return {
    id: `g|${engine}|${topology}|bfs|${alpha ?? '-'}`, graph: 'g', engine, topology, topologyFile: null, threads: 1, gpus: 0, program: 'bfs', params: {}, alpha,
    status: 'ok', note: null, loadMs: 1, setupMs: null, warmup: [], samples, time: summarize(ms), teps: null, tepsBasis: null, peakRssBytes: null, rssMethod: null, finishedAt: '',
  };
}

test('peer TEPS use tessera’s edge count; ratios are peer time over tessera time', (t) => {
  const cells = [cell('tessera', '1S', [10, 20, 30], 1000), cell('graphology', 'graphology (1 thread)', [40, 50, 60], null)];
  fillPeerTeps(cells);
  t.is(cells[1]!.tepsBasis, 'tessera-edges');
  t.deepEqual(cells[1]!.teps, summarize([1000 / 0.04, 1000 / 0.05, 1000 / 0.06]));
  const r = peerRatios({ cells } as never);
  t.is(r.length, 1);
  t.is(r[0]!.ratio, 50 / 20);
});

test('alpha plot: none without alpha cells; achieved at the requested split over the CPU-only baseline, predicted from the model curve', (t) => {
  const base = { schema: RESULT_SCHEMA, graphs: [], modelCurves: [] } as never as Parameters<typeof alphaSpec>[0];
  t.is(alphaSpec({ ...base, cells: [cell('tessera', '1S1G', [10], 100)] }), null);
  const cells = [cell('tessera', '1S1G (CPU only)', [30, 30, 30], 100), cell('tessera', '1S1G', [10, 12, 14], 100, 0.5, 0.4)];
  const curve = { graph: 'g', topology: '1S1G', program: 'bfs', status: 'ok' as const, note: null, points: [{ strategy: 'high', alpha: 0.5, speedup: 2, makespanMs: 1, feasible: true }, { strategy: 'high', alpha: 0, speedup: 9, makespanMs: 1, feasible: false }] };
  const spec = alphaSpec({ ...base, cells, modelCurves: [curve] }) as unknown as { data: { values: Array<{ alpha: number; speedup: number; curve: string }> } };
  t.deepEqual(
    spec.data.values.map((v) => [v.curve, v.alpha, v.speedup]),
    [['achieved (measured)', 0.5, 30 / 12], ['predicted (high)', 0.5, 2]],
    'infeasible model points are left out',
  );
});

test('model accuracy: achieved vs predicted speed-up on the curve of the cells\' strategy (HIGH by default), Pearson r and mean relative error', (t) => {
  const base = { schema: RESULT_SCHEMA, graphs: [] } as never as Parameters<typeof modelAccuracy>[0];
  // CPU only 60 ms; three alpha cells asking for 0.2, 0.5, 0.8 taking 20, 30, 40 ms: achieved 3,
  // 2, 1.5 (compared at the requested alpha, not at the edge share the runs processed).
  const cells = [
    cell('tessera', '1S1G (CPU only)', [60], 100),
    cell('tessera', '1S1G', [20], 100, 0.2, 0.05),
    cell('tessera', '1S1G', [30], 100, 0.5, 0.3),
    cell('tessera', '1S1G', [40], 100, 0.8, 0.6),
  ];
  // Predicted on a grid 0, 0.5, 1 (HIGH): 4, 2, 1 -> at 0.2: 4 - 0.4 * 2 = 3.2; 0.5: 2; 0.8: 2 - 0.6 = 1.4.
  const pt = (alpha: number, speedup: number, strategy = 'high') => ({ strategy, alpha, speedup, makespanMs: 1, feasible: true });
  const curve = { graph: 'g', topology: '1S1G', program: 'bfs', status: 'ok' as const, note: null, points: [pt(0, 4), pt(0.5, 2), pt(1, 1), pt(0.2, 100, 'rand')] };
  const [a] = modelAccuracy({ ...base, cells, modelCurves: [curve] });
  t.deepEqual(a!.points.map((p) => [p.alpha, p.achieved, +p.predicted.toFixed(9)]), [[0.2, 3, 3.2], [0.5, 2, 2], [0.8, 1.5, 1.4]]);
  // |0.2|/3, 0, |0.1|/1.5 -> mean (0.0667 + 0 + 0.0667) / 3
  t.true(Math.abs(a!.meanAbsError! - (0.2 / 3 + 0.1 / 1.5) / 3) < 1e-12);
  // Pearson of (3, 2, 1.5) and (3.2, 2, 1.4), by hand.
  const xs = [3, 2, 1.5], ys = [3.2, 2, 1.4];
  const mx = 6.5 / 3, my = 6.6 / 3;
  const cov = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0);
  const r = cov / Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) * ys.reduce((s, y) => s + (y - my) ** 2, 0));
  t.true(Math.abs(a!.pearson! - r) < 1e-12 && a!.pearson! > 0.99);
  // Two points: no correlation, still an error; no model curve: nothing.
  t.deepEqual(accuracyOf([{ achieved: 2, predicted: 3 }, { achieved: 4, predicted: 4 }]), { pearson: null, meanAbsError: 0.25 });
  t.deepEqual(modelAccuracy({ ...base, cells, modelCurves: [] }), []);
  // A sweep of LOW cells (config partition: low) is compared with the LOW curve: 4 at 0, 1 at 1.
  const low = { ...curve, points: [...curve.points, pt(0, 4, 'low'), pt(1, 1, 'low')] };
  const [l] = modelAccuracy({ ...base, config: { partition: 'low' }, cells, modelCurves: [low] } as never);
  t.deepEqual(l!.points.map((p) => +p.predicted.toFixed(9)), [3.4, 2.5, 1.6]);
});

test('louvain against graphology: both engines record each run\'s modularity, results.md sets them side by side', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-'));
  try {
    const config = parseBenchConfig(
      ['name: q', 'repetitions: 2', 'warmup: 1', 'graphs: [{ rmat: 7 }]', `topologies: [${path.join(REPO_ROOT, 'configs/1S.yaml')}]`, 'programs: [louvain]', 'peers: { graphology: { maxEdges: 5000 } }'].join('\n'),
      path.join(dir, 'c.yaml'),
    );
    const { dir: out, results } = await runSweep({ config, outDir: dir, peerOverrides: {}, progress: false, log: () => {} });
    t.deepEqual(results.cells.map((c) => [c.engine, c.status]), [['tessera', 'ok'], ['graphology', 'ok']]);
    for (const c of results.cells) for (const s of c.samples) t.true((s.notes?.modularity as number) > 0.1, `${c.engine}: ${JSON.stringify(s.notes)}`);
    t.true(resultsSchema.safeParse(JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8'))).success);
    t.regex(await readFile(path.join(out, 'results.md'), 'utf8'), /## Modularity[\s\S]*\| rmat:7 \| louvain \| graphology \|/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a small sweep writes results.json (schema), results.md, the SVGs; absent peers are noted, a GAPBS build is parsed', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-'));
  try {
    // A GAPBS "build" whose bfs replays a recorded output: the sweep must run it and parse it.
    const gap = path.join(dir, 'gapbs');
    await import('node:fs/promises').then((f) => f.mkdir(gap));
    await writeFile(path.join(gap, 'bfs'), `#!/bin/sh\ncat '${path.join(FIX, 'gapbs-bfs-g12.txt')}'\n`);
    await chmod(path.join(gap, 'bfs'), 0o755);
    const config = parseBenchConfig(
      [
        'name: test',
        'repetitions: 2',
        'warmup: 1',
        'graphs: [{ rmat: [6, 7] }]',
        `topologies: [${path.join(REPO_ROOT, 'configs/1S.yaml')}, ${path.join(REPO_ROOT, 'configs/2S.yaml')}]`,
        'programs: [bfs, wcc]',
        `peers: { graphology: { maxEdges: 800 }, gapbs: ${gap} }`,
      ].join('\n'),
      path.join(dir, 'c.yaml'),
    );
    const lines: string[] = [];
    const { dir: out, results } = await runSweep({ config, outDir: dir, peerOverrides: {}, progress: false, log: (s) => void lines.push(s) });
    const json = JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8'));
    const parsed = resultsSchema.safeParse(json);
    t.true(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues[0]));
    t.is(json.schema, RESULT_SCHEMA);
    t.is(json.status, 'complete');
    t.is(json.graphs.length, 2);
    t.deepEqual(json.modelCurves, [], 'no alpha sweep, no model curves');
    t.true(json.machine.cores >= 1 && json.machine.node === process.version);
    // 2 graphs x (2 topologies x 2 programs + graphology 2 + gapbs 2)
    t.is(results.cells.length, 2 * (4 + 2 + 2));
    for (const c of results.cells.filter((x) => x.engine === 'tessera')) {
      t.is(c.status, 'ok', c.note ?? '');
      t.is(c.warmup.length, 1);
      t.is(c.samples.length, 2);
      t.deepEqual(c.time, summarize(c.samples.map((s) => s.ms)));
      t.true(c.teps!.min <= c.teps!.median && c.teps!.median <= c.teps!.max);
      t.true(c.peakRssBytes! > 10 * 2 ** 20, 'a Node process with a worker pool uses more than 10 MiB');
      t.true(c.loadMs! >= 0 && c.setupMs! >= 0);
      t.is(c.samples[0]!.actors.length, c.topology === '2S' ? 2 : 1);
    }
    // graphology runs on graphs up to maxEdges and is skipped with the reason above it.
    for (const c of results.cells.filter((x) => x.engine === 'graphology')) {
      const edges = results.graphs.find((g) => g.id === c.graph)!.edges;
      t.is(c.status, edges <= 800 ? 'ok' : 'skipped');
      if (c.status === 'ok') t.is(c.tepsBasis, 'tessera-edges');
      else t.regex(c.note!, /above peers\.graphology\.maxEdges \(800\)/);
    }
    t.true(new Set(results.cells.filter((x) => x.engine === 'graphology').map((c) => c.status)).size === 2, 'rmat:6 (521 edges) fits under 800, rmat:7 (1156) does not');
    const gb = results.cells.filter((c) => c.engine === 'gapbs' && c.program === 'bfs');
    t.is(gb.length, 2);
    const trials = trialLines(await fixture('gapbs-bfs-g12.txt')).map((s) => s * 1000);
    t.deepEqual(gb[0]!.warmup.map((s) => s.ms), trials.slice(0, 1));
    t.deepEqual(gb[0]!.samples.map((s) => s.ms), trials.slice(1));
    // cc (wcc) has no replayed binary in this fake build: the cell fails with the reason, it is not invented.
    const gpr = results.cells.find((c) => c.engine === 'gapbs' && c.program === 'wcc')!;
    t.is(gpr.status, 'failed');
    t.is(gpr.samples.length, 0);
    const files = await readdir(out);
    t.true(files.includes('throughput.svg') && files.includes('actors.svg') && files.includes('cells.jsonl'));
    t.false(files.includes('speedup-alpha.svg'), 'no alpha data, no alpha plot');
    t.false(files.includes('.graphs'), 'prepared graphs are removed');
    t.is((await readFile(path.join(out, 'cells.jsonl'), 'utf8')).trim().split('\n').length, results.cells.length);
    const svg = await readFile(path.join(out, 'throughput.svg'), 'utf8');
    t.regex(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    t.regex(svg, /tessera 2S/);
    const md = await readFile(path.join(out, 'results.md'), 'utf8');
    t.regex(md, /\| rmat:7 \| bfs \| tessera \| 2S \| 2 \|/);
    t.regex(md, /No alpha sweep was configured/);
    t.regex(md, /No run report carried a model prediction/);
    t.regex(md, /\| rmat:6 \| bfs \| graphology \(1 thread\) \| [0-9.]+ \| 1S \|/);
    t.regex(md, /!\[Throughput vs scale\]\(throughput\.svg\)/);

    // --replot redraws from results.json alone.
    await unlink(path.join(out, 'throughput.svg'));
    t.deepEqual(await replot(out), ['results.md', 'throughput.svg', 'actors.svg']);
    t.true((await readdir(out)).includes('throughput.svg'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a GAPBS build is usable when it holds a kernel of the sweep's programs: tc alone for a tc sweep", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-gapbs-'));
  try {
    await writeFile(path.join(dir, 'tc'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'tc'), 0o755);
    const plans = (programs: string) => parseBenchConfig(`graphs: [{ rmat: 5 }]\ntopologies: [${path.join(REPO_ROOT, 'configs/1S.yaml')}]\nprograms: [${programs}]\n`, path.join(dir, 'c.yaml')).programs;
    t.is(await checkGapbs(dir, plans('tc')), null);
    t.is(await checkGapbs(dir, plans('tc, bfs')), null, 'bfs cells fail with the reason; tc runs');
    t.regex((await checkGapbs(dir, plans('bfs, sssp'))) ?? '', /no executable .*\/bfs, .*\/sssp \(build GAPBS/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an absent GAPBS build is skipped with a note, never run', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-'));
  try {
    const config = parseBenchConfig(
      `graphs: [{ rmat: 5 }]\nrepetitions: 1\nwarmup: 0\ntopologies: [${path.join(REPO_ROOT, 'configs/1S.yaml')}]\nprograms: [bfs]\npeers: { graphology: false, gapbs: ./nowhere }\n`,
      path.join(dir, 'c.yaml'),
    );
    const { results } = await runSweep({ config, outDir: dir, peerOverrides: {}, progress: false, log: () => undefined });
    t.deepEqual(results.peers.map((p) => [p.name, p.status]), [['graphology', 'disabled'], ['gapbs', 'absent']]);
    t.regex(results.peers[1]!.note!, /no executable .*nowhere\/bfs/);
    t.deepEqual(results.cells.map((c) => c.engine), ['tessera']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an alpha sweep on an emulated GPU topology: cells per alpha, the model curve, its accuracy and the alpha plot', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-alpha-'));
  const cacheBefore = process.env.TESSERA_CACHE_DIR;
  process.env.TESSERA_CACHE_DIR = dir; // the cells' children inherit it: no calibration outside this folder
  try {
    const topo = path.join(dir, '1S1G-emulated.yaml');
    await writeFile(topo, 'name: emu\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\nmodel:\n  rCpu: 5e7\n  rGpu: 2e8\n  c: 1e9\n');
    const config = parseBenchConfig(
      ['repetitions: 1', 'warmup: 0', 'graphs: [{ rmat: 9 }]', `topologies: [${topo}]`, 'programs: [{ bfs: { mode: push } }, { pr: { iterations: 3 } }]', 'alphas: [0, 0.5, 1, auto]', 'steal: off', 'peers: { graphology: false }'].join('\n'),
      path.join(dir, 'c.yaml'),
    );
    const { dir: out, results } = await runSweep({ config, outDir: dir, peerOverrides: {}, progress: false, log: () => undefined });
    // Per program: the topology's own split, CPU only, and one cell per alpha (auto: the model's).
    t.is(results.cells.length, 2 * 6);
    for (const c of results.cells) t.is(c.status, 'ok', `${c.id}: ${c.note}`);
    const push = results.cells.filter((c) => c.program === 'bfs:push' && typeof c.alpha === 'number').sort((a, b) => (a.alpha as number) - (b.alpha as number));
    t.deepEqual(push.map((c) => c.alpha), [0, 0.5, 1]);
    // Push-only BFS walks each reached vertex's out-edges on its owner: the measured CPU share follows
    // alpha at the ends exactly; at 0.5 it is the share of the edges walked, which depends on how
    // much of each side the BFS reaches (not the owned share), hence the wide middle bound.
    const share = push.map((c) => c.samples[0]!.cpuEdgeShare!);
    t.true(share[0]! < 0.05 && share[2]! > 0.95 && share[1]! > 0.2 && share[1]! < 0.8, `CPU edge shares ${share}`);
    t.deepEqual(results.modelCurves.map((m) => [m.program, m.status]), [['bfs:push', 'ok'], ['pr', 'ok']]);
    const md = await readFile(path.join(out, 'results.md'), 'utf8');
    t.regex(md, /\| rmat:9 \| emu \| bfs:push \| 3 \| -?[0-9.]+ \| [0-9.]+% \|/);
    t.regex(md, /\| rmat:9 \| emu \| pr \| 3 \|/);
    t.true((await readdir(out)).includes('speedup-alpha.svg'));
    // alpha auto runs the model's choice, named in its note and carried by its reports, and is
    // compared with the fastest swept alpha.
    for (const c of results.cells.filter((x) => x.alpha === 'auto')) {
      t.regex(c.note!, /alpha auto: the model chose (HIGH|LOW|RAND) alpha [0-9.]+ \(predicted [0-9]+ ms; choosing took [0-9.]+ s\); measured CPU edge share/);
      t.true(c.samples.every((s) => typeof s.model?.alpha === 'number' && typeof s.model?.predictedMs === 'number'), c.id);
    }
    t.regex(md, /\| rmat:9 \| emu \| bfs:push \| [0-9.]+ \| [0-9]+ \| (0|0\.5|1) \| [0-9]+ \| [0-9.]+ \|/);
    // scripts/model-replay.mjs predicts the curves again from the recorded rates: the same numbers.
    const { loadGraph } = await import('../src/graph/load.js');
    const { writeTsr } = await import('../src/graph/tsr.js');
    const tsr = path.join(dir, 'g.tsr');
    await writeTsr((await loadGraph('rmat:9')).graph, tsr);
    const replayDir = path.join(dir, 'replay');
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'scripts/model-replay.mjs'), '--results', path.join(out, 'results.json'), '--cache', path.join(dir, 'calibration.json'), '--graph', tsr, '--threads', '1', '--out', replayDir]);
    const lines = stdout.trim().split('\n');
    t.is(lines.length, 4, stdout);
    for (const prog of ['bfs:push', 'pr']) {
      const [rec, rep] = ['recorded', 'replayed'].map((l) => lines.find((x) => x.startsWith(`${l} emu ${prog}:`))!.split(':').slice(1).join(':'));
      t.is(rep, rec, `${prog}: replayed = recorded`);
    }
    t.is(JSON.parse(await readFile(path.join(replayDir, 'results.json'), 'utf8')).modelCurves.length, 2);
  } finally {
    if (cacheBefore === undefined) delete process.env.TESSERA_CACHE_DIR;
    else process.env.TESSERA_CACHE_DIR = cacheBefore;
    await rm(dir, { recursive: true, force: true });
  }
});

test('tessera bench --programs runs a part of a sweep; a label the config lacks is one clear error', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-programs-'));
  try {
    const cfg = path.join(dir, 'c.yaml');
    await writeFile(cfg, `repetitions: 1\nwarmup: 0\ngraphs: [{ rmat: 6 }]\ntopologies: [${path.join(REPO_ROOT, 'configs/1S.yaml')}]\nprograms: [bfs, { bfs: { mode: push } }, wcc]\npeers: { graphology: false }\n`);
    const main = path.join(REPO_ROOT, 'dist/src/cli/main.js');
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [main, 'bench', '--config', cfg, '--out-dir', dir, '--no-progress', '--programs', 'bfs:push,wcc']);
    t.regex(stdout, /done in \d+ s: 2 cells ok/);
    const e = await t.throwsAsync(run(process.execPath, [main, 'bench', '--config', cfg, '--out-dir', dir, '--programs', 'pr']));
    const err = e as unknown as { code: number; stderr: string };
    t.is(err.code, 1);
    t.regex(err.stderr, /--programs names pr, which the config does not sweep.*Fix: use labels of its programs: bfs, bfs:push, wcc/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a sweep on two emulated GPUs runs sssp on the first alone (its GPU loop is single-GPU), the cell's note saying so, and bfs on both; with multiGpu named, sssp on both", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-sole-'));
  const cacheBefore = process.env.TESSERA_CACHE_DIR;
  process.env.TESSERA_CACHE_DIR = dir;
  try {
    const topo = path.join(dir, '1S2G-emulated.yaml');
    await writeFile(topo, 'name: emu2\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n  - device: 1\n    emulated: true\n');
    for (const multiGpu of [undefined, 'p'] as const) {
      const config = parseBenchConfig(
        ['repetitions: 1', 'warmup: 0', 'graphs: [{ rmat: 9, weighted: true }]', `topologies: [${topo}]`, 'programs: [sssp, bfs]', 'alphas: [0]', 'steal: off', 'peers: { graphology: false }', ...(multiGpu !== undefined ? [`multiGpu: ${multiGpu}`] : [])].join('\n'),
        path.join(dir, 'c.yaml'),
      );
      const { results } = await runSweep({ config, outDir: path.join(dir, multiGpu ?? 'none'), peerOverrides: {}, progress: false, log: () => undefined });
      for (const c of results.cells) t.is(c.status, 'ok', `${c.id}: ${c.note}`);
      for (const program of ['sssp', 'bfs']) {
        const c = results.cells.find((x) => x.program === program && x.alpha === 0)!;
        const one = program === 'sssp' && multiGpu === undefined;
        const gpus = new Set(c.samples[0]!.actors.map((a) => a.actor).filter((a) => a.startsWith('gpu')));
        t.is(gpus.size, one ? 1 : 2, `${program} multiGpu ${multiGpu}: ${[...gpus]}`);
        t.is(/runs on one GPU \(device 0\) of the topology's 2/.test(c.note ?? ''), one, `${program} multiGpu ${multiGpu}: ${c.note}`);
      }
    }
  } finally {
    if (cacheBefore === undefined) delete process.env.TESSERA_CACHE_DIR;
    else process.env.TESSERA_CACHE_DIR = cacheBefore;
    await rm(dir, { recursive: true, force: true });
  }
});
