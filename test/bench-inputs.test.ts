/**
 * The sweep's refusals of bad input (before any results folder exists) and what a cell records:
 * generator keys on a file graph, repeated topologies or programs, YAML error lines, an empty
 * program list, a bad graph or topology entry; a soleGpu program's note and GPU count.
 */
import test from 'ava';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseBenchConfig } from '../src/bench/config.js';
import { runSweep } from '../src/bench/sweep.js';
import { isTesseraError } from '../src/errors.js';
import { REPO_ROOT } from './helpers/paths.js';

const ONE_S = path.join(REPO_ROOT, 'configs/1S.yaml');

const refused = (t: import('ava').ExecutionContext, text: string, re: RegExp): void => {
  const e = t.throws(() => parseBenchConfig(text, 'c.yaml'));
  t.true(isTesseraError(e));
  t.regex(e!.message, re);
};

test('config: keys that do not apply, repeated topologies or programs, and invalid YAML are refused with the line', (t) => {
  const rest = `topologies: [${ONE_S}]\nprograms: [bfs]\n`;
  refused(t, `graphs:\n  - { file: small.el, edgeFactor: 99, seed: 5 }\n${rest}`, /^c\.yaml:2: .*graphs\.0: Unrecognized keys: "edgeFactor", "seed".*Fix: remove 'edgeFactor', 'seed': edgeFactor and seed apply to generated graphs/);
  refused(t, `graphs: [{ rmat: 6 }]\ntopologies:\n  - ${ONE_S}\n  - ${path.join(REPO_ROOT, 'configs/../configs/1S.yaml')}\nprograms: [bfs]\n`, /^c\.yaml:4: topology .* is listed twice \(at topologies\.1\)/);
  refused(t, `graphs: [{ rmat: 6 }]\ntopologies: [${ONE_S}]\nprograms:\n  - bfs\n  - { bfs: { mode: push } }\n  - { bfs: null }\n`, /^c\.yaml:6: program 'bfs' is listed twice \(at programs\.2\)/);
  refused(t, `graphs: [{ rmat: 6 }]\n\n${rest}\ngraphs: []\n`, /^c\.yaml:6: invalid YAML: Map keys must be unique/);
  t.notThrows(() => parseBenchConfig(`graphs: [{ rmat: 6, seed: 3 }, { file: a.el }]\n${rest}`, 'c.yaml'));
});

test('sweep: a bad graph or topology entry, or no programs, is one line and leaves no results folder', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-inputs-'));
  try {
    const base = ['repetitions: 1', 'warmup: 0', 'peers: { graphology: false }', 'programs: [bfs]'];
    const sweep = async (lines: string[], programs?: []): Promise<Error> => {
      const config = parseBenchConfig([...base, ...lines].join('\n'), path.join(dir, 'c.yaml'));
      if (programs) config.programs = programs;
      const out = path.join(dir, 'out');
      const e = await t.throwsAsync(runSweep({ config, outDir: out, peerOverrides: {}, progress: false, log: () => undefined }));
      t.deepEqual(await readdir(out).catch(() => []), [], 'no results folder');
      t.true(isTesseraError(e));
      t.is(e!.message.split(' Fix: ').length, 2, `one Fix part: ${e!.message}`);
      return e!;
    };
    t.regex((await sweep(['graphs: [{ file: nosuch.el }]', `topologies: [${ONE_S}]`])).message, /graph nosuch\.el: .*nosuch\.el: graph file not found \(at graphs\)\. Fix: check the path.*; or remove this graph entry$/);
    t.regex((await sweep(['graphs: [{ rmat: 6 }]', `topologies: [${ONE_S}, ${path.join(dir, 'nosuch.yaml')}]`])).message, /nosuch\.yaml: topology file not found/);
    t.regex((await sweep(['graphs: [{ rmat: 6 }]', `topologies: [${ONE_S}]`], [])).message, /the sweep has no programs \(at --programs\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sweep: sssp on two emulated GPUs records the one GPU it ran on, its note the notice alone', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-sole-note-'));
  try {
    const topo = path.join(dir, 'emu2.yaml');
    await writeFile(topo, 'name: emu2\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n  - device: 1\n    emulated: true\n');
    const config = parseBenchConfig(['repetitions: 1', 'warmup: 0', 'graphs: [{ rmat: 6, weighted: true }]', `topologies: [${topo}]`, 'programs: [sssp]', 'peers: { graphology: false }'].join('\n'), path.join(dir, 'c.yaml'));
    const { results } = await runSweep({ config, outDir: dir, peerOverrides: {}, progress: false, log: () => undefined });
    const c = results.cells[0]!;
    t.is(c.status, 'ok', c.note ?? '');
    t.regex(c.note ?? '', /^program 'sssp' runs on one GPU \(device 0\)/);
    t.is(c.gpus, 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
