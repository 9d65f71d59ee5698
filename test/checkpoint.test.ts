/**
 * Checkpoint and resume through the library: every built-in (and both examples) interrupted after
 * a checkpoint and resumed gives values and output files identical, byte for byte, to an
 * uninterrupted run; a checkpoint of another graph, program or parameters is refused in one line;
 * a program without safe points is refused; leftovers of a killed writer are tidied; sessions
 * checkpoint and resume too. Crashes and fault injection: faults.test.ts.
 */
import test from 'ava';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EventEmitter } from 'eventemitter3';
import { bytes, stopAfter } from './helpers/stop-after.js';
import { generate, openSession, run } from '../src/api.js';
import { defineProgram, type AnyProgram } from '../src/engine/define.js';
import type { EngineEvents } from '../src/engine/coordinator.js';
import { TesseraError } from '../src/errors.js';
import type { Graph } from '../src/graph/types.js';
import { PROGRAMS } from '../src/programs/index.js';
import { mis } from '../examples/mis/index.js';
import { hits } from '../examples/hits/index.js';
import { removeTempDirs, tempDir } from './helpers/cli.js';

test.after.always(removeTempDirs);

/** Two socket actors of one thread each: results must not depend on the machine. */
const TWO = { name: 'two', source: 'test', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [], interconnect: {}, model: {} };
const ONE = { ...TWO, name: 'one', sockets: [{ id: 0, threads: 2 }] };

const graph = generate('rmat:12');
const weighted = generate('rmat:12:weighted');
const undirected = generate('rmat:11', { undirected: true });

const PARAMS: Record<string, Record<string, unknown>> = {
  bfs: { source: graph.ids.toOriginal[0]! },
  pr: { iterations: 10 },
  sssp: { source: weighted.ids.toOriginal[0]! },
  wcc: {},
  cdlp: { iterations: 10 },
  lcc: {},
  // Three hubs: sources of similar depth, so two thirds in is past BC's safe point before the third.
  bc: { sourceList: [0, 1, 2].map((v) => graph.ids.toOriginal[v]!) },
  scc: {},
  ppr: { iterations: 40 },
  tc: {},
  // Its synchronous level 0: on a graph this small the default runs on the coordinator, no superstep to stop after.
  louvain: { inlineEdges: 0 },
  kcore: {},
  mis: {},
  hits: { iterations: 8 },
};
const graphFor = (name: string): Graph => (name === 'sssp' ? weighted : name === 'kcore' ? undirected : graph);


for (const program of [...PROGRAMS.map((p) => p as AnyProgram), mis as AnyProgram, hits as AnyProgram]) {
  test(`${program.name}: interrupted after a checkpoint and resumed equals an uninterrupted run, byte for byte`, async (t) => {
    const g = graphFor(program.name);
    const params = PARAMS[program.name]!;
    const dir = await tempDir('tessera-ckpt-');
    const ck = path.join(dir, 'ck');
    const whole = await run(g as never, program, { ...params, topology: TWO } as never);
    const steps = whole.report.supersteps;
    t.true(steps >= 2, `${program.name} ran ${steps} supersteps`);
    // Stopped two thirds in: late enough that BC's safe point per source has passed.
    const at = Math.max(1, Math.floor((2 * steps) / 3));
    const err = await t.throwsAsync(run(g as never, program, { ...params, topology: TWO, events: stopAfter(at), checkpoint: { dir: ck, every: 1 } } as never));
    t.regex(err!.message, new RegExp(`stopped after superstep ${at}`));
    const manifest = JSON.parse(await readFile(path.join(ck, 'manifest.json'), 'utf8')) as { step: number; header: { program: { name: string } } };
    t.is(manifest.header.program.name, program.name);
    t.true(manifest.step > 0 && manifest.step <= at + 1, `checkpoint before superstep ${manifest.step}`);
    const resumed = await run(g as never, program, { ...params, topology: TWO, resume: ck } as never);
    t.is(resumed.report.notes.resumedAt, manifest.step, 'the run started at the checkpoint');
    t.is(resumed.report.steps[0]?.step, manifest.step, 'its first superstep is the one after the checkpoint');
    // Chaotic relaxation within a superstep (wcc, sssp, scc's coloring) lets the count vary with thread timing.
    if (!['wcc', 'sssp', 'scc'].includes(program.name)) t.is(resumed.report.supersteps, steps - manifest.step, 'it ran only the supersteps after the checkpoint');
    t.true(bytes(resumed.values).equals(bytes(whole.values)), 'values bit-identical');
    await whole.write(path.join(dir, 'whole.txt'));
    await resumed.write(path.join(dir, 'resumed.txt'));
    t.true((await readFile(path.join(dir, 'whole.txt'))).equals(await readFile(path.join(dir, 'resumed.txt'))), 'output files identical');
    // The resumed run finished: its checkpoint has served and is gone.
    t.deepEqual(await readdir(ck), []);
  });
}

test('a checkpoint of another program, graph or parameters is refused in one line naming both', async (t) => {
  const ck = path.join(await tempDir('tessera-ckpt-'), 'ck');
  await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, events: stopAfter(4), checkpoint: { dir: ck, every: 1 } }));
  const one = (e: Error | undefined): string => {
    t.true(e instanceof TesseraError);
    t.false(e!.message.includes('\n'));
    return e!.message;
  };
  t.regex(one(await t.throwsAsync(run(graph, 'cdlp', { iterations: 10, topology: TWO, resume: ck }))), /ck: the checkpoint is of program 'pr', not 'cdlp' \(at --resume\)\. Fix: resume it with --algo pr/);
  t.regex(one(await t.throwsAsync(run(generate('rmat:11'), 'pr', { iterations: 10, topology: TWO, resume: ck }))), /the checkpoint is of graph rmat:12:ef=16:seed=1 \(4096 vertices, \d+ edges, directed, hash [0-9a-f]{12}\), not of rmat:11:ef=16:seed=1/);
  // Same vertex and edge counts, other page structure: the hash tells them apart.
  t.regex(one(await t.throwsAsync(run(generate('rmat:12', { pageEdges: 512 }), 'pr', { iterations: 10, topology: TWO, resume: ck }))), /the checkpoint is of graph rmat:12:ef=16:seed=1 .*hash ([0-9a-f]{12})\), not of rmat:12:ef=16:seed=1 .*hash (?!\1)/);
  t.regex(one(await t.throwsAsync(run(graph, 'pr', { iterations: 5, topology: TWO, resume: ck }))), /other parameters: iterations 10 there, 5 here/);
  t.regex(one(await t.throwsAsync(run(graph, 'pr', { iterations: 10, damping: 0.5, topology: TWO, resume: ck }))), /damping 0\.85 there, 0\.5 here/);
  // A fresh run into the folder would lose the checkpoint.
  t.regex(one(await t.throwsAsync(run(graph, 'bfs', { source: 1, topology: TWO, checkpoint: ck }))), /already holds a checkpoint \(pr on rmat:12:ef=16:seed=1, before superstep \d+\).*Fix: continue it with --resume/);
  t.regex(one(await t.throwsAsync(run(graph, 'pr', { topology: TWO, resume: path.join(ck, 'none') }))), /no checkpoint here to resume/);
  // A damaged checkpoint in the folder, or a folder that cannot be made: refused before the run.
  const damaged = path.join(path.dirname(ck), 'damaged');
  await mkdir(damaged, { recursive: true });
  await writeFile(path.join(damaged, 'manifest.json'), '{ not json');
  t.regex(one(await t.throwsAsync(run(graph, 'bfs', { source: 1, topology: TWO, checkpoint: damaged }))), /the folder holds a damaged checkpoint \(manifest\.json is not JSON\) \(at --checkpoint\)\. Fix: remove it/);
  t.regex(one(await t.throwsAsync(run(graph, 'bfs', { source: 1, topology: TWO, checkpoint: path.join(damaged, 'manifest.json', 'x') }))), /cannot checkpoint into this folder: .*manifest\.json is a file/);
  // The refusals left the checkpoint as it was: it still resumes.
  const r = await run(graph, 'pr', { iterations: 10, topology: TWO, resume: ck });
  const whole = await run(graph, 'pr', { iterations: 10, topology: TWO });
  t.true(bytes(r.values).equals(bytes(whole.values)));
});

test('a program without safe points is refused with a checkpoint, before any work', async (t) => {
  const plain = defineProgram({
    name: 'plain-degree',
    summary: 'out-degree, no checkpoints',
    params: {},
    state: { x: { type: 'f64', reduce: 'owner' } },
    output: 'float',
    kernels: hits.kernels,
    profile: { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: true },
    async run(ctx) {
      return ctx.state.x;
    },
  });
  const dir = await tempDir('tessera-ckpt-');
  const e = await t.throwsAsync(run(graph, plain, { topology: TWO, checkpoint: path.join(dir, 'ck') }));
  t.is(e!.message, "program 'plain-degree' does not support checkpoints (its definition does not set resumable) (at --checkpoint). Fix: run it without --checkpoint, or make its driver resumable (docs/PROGRAMS.md, Checkpoints)");
  t.deepEqual(await readdir(dir), [], 'nothing written');
  const r = await t.throwsAsync(run(graph, plain, { topology: TWO, resume: path.join(dir, 'ck') }));
  t.regex(r!.message, /does not support checkpoints .*at --resume/);
});

test('a killed writer\'s leftovers are removed, and the checkpoint it replaced still resumes', async (t) => {
  const ck = path.join(await tempDir('tessera-ckpt-'), 'ck');
  await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, events: stopAfter(2), checkpoint: { dir: ck, every: 1 } }));
  const named = (JSON.parse(await readFile(path.join(ck, 'manifest.json'), 'utf8')) as { data: string }).data;
  // What kill -9 leaves mid-write: a temporary folder, or a renamed folder the manifest never named.
  await mkdir(path.join(ck, 'ckpt-000041.tmp-99999'));
  await writeFile(path.join(ck, 'ckpt-000041.tmp-99999', 'state-contrib.bin'), 'partial');
  await mkdir(path.join(ck, 'ckpt-000042'));
  t.deepEqual((await readdir(ck)).sort(), ['ckpt-000041.tmp-99999', 'ckpt-000042', named, 'manifest.json'].sort());
  const r = await run(graph, 'pr', { iterations: 10, topology: TWO, resume: ck, events: stopAfter(3) }).catch((e: Error) => e);
  t.true(r instanceof Error, 'stopped again after one more checkpoint');
  const left = (await readdir(ck)).sort();
  const now = (JSON.parse(await readFile(path.join(ck, 'manifest.json'), 'utf8')) as { data: string; step: number }).data;
  t.deepEqual(left, [now, 'manifest.json'].sort(), 'only the current checkpoint remains');
  t.not(now, named);
  const whole = await run(graph, 'pr', { iterations: 10, topology: TWO });
  const done = await run(graph, 'pr', { iterations: 10, topology: TWO, resume: ck });
  t.true(bytes(done.values).equals(bytes(whole.values)));
});

test('a checkpoint written on two sockets resumes on one; integer results are identical', async (t) => {
  const ck = path.join(await tempDir('tessera-ckpt-'), 'ck');
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    await t.throwsAsync(run(graph, 'bfs', { source: graph.ids.toOriginal[0]!, topology: TWO, events: stopAfter(2), checkpoint: { dir: ck, every: 1 } }));
    const r = await run(graph, 'bfs', { source: graph.ids.toOriginal[0]!, topology: ONE, resume: ck });
    const whole = await run(graph, 'bfs', { source: graph.ids.toOriginal[0]!, topology: TWO });
    t.true(bytes(r.values).equals(bytes(whole.values)));
    await new Promise((res) => setImmediate(res));
    t.true(warnings.some((w) => /resuming on topology 'one' \(1 socket, 2 threads\); the checkpoint was written on 'two' \(2 sockets, 2 threads\)/.test(w)), warnings.join('; '));
  } finally {
    process.off('warning', onWarning);
  }
});

test('wcc resumes with the algorithm its checkpoint was written by: Afforest on sockets, label propagation with a GPU', async (t) => {
  const { nativeAvailable } = await import('../actors/gpu/native.js');
  const whole = await run(graph, 'wcc', { topology: TWO });
  t.is(whole.report.notes.algorithm, 'afforest');
  // An Afforest checkpoint (sockets) resumed on sockets goes on with Afforest...
  const ck = path.join(await tempDir('tessera-ckpt-'), 'ck');
  await t.throwsAsync(run(graph, 'wcc', { topology: TWO, events: stopAfter(1), checkpoint: { dir: ck, every: 1 } }));
  const again = await run(graph, 'wcc', { topology: ONE, resume: ck });
  t.is(again.report.notes.algorithm, 'afforest');
  t.true(bytes(again.values).equals(bytes(whole.values)));
  const avail = nativeAvailable();
  if (!avail.ok && avail.toolchainMissing) return;
  // ...and one resumed with a GPU propagates labels from the start; the labels are the same.
  const ck2 = path.join(await tempDir('tessera-ckpt-'), 'ck');
  await t.throwsAsync(run(graph, 'wcc', { topology: TWO, events: stopAfter(1), checkpoint: { dir: ck2, every: 1 } }));
  const gpu = { ...ONE, name: 'gpu', gpus: [{ device: 0, emulated: true, streams: 2 }] };
  const withGpu = await run(graph, 'wcc', { topology: gpu, resume: ck2 });
  t.is(withGpu.report.notes.algorithm, 'label propagation');
  t.true(bytes(withGpu.values).equals(bytes(whole.values)));
});

test('sessions checkpoint and resume runs on their warm actors', async (t) => {
  const ck = path.join(await tempDir('tessera-ckpt-'), 'ck');
  const events = new EventEmitter<EngineEvents>();
  const s = await openSession(graph, { topology: TWO, events });
  try {
    const whole = await s.run('cdlp', { iterations: 10 });
    const stop = (step: { step: number }): void => {
      if (step.step === 5) throw new Error('stopped');
    };
    events.on('superstep', stop);
    await t.throwsAsync(s.run('pr', { iterations: 10, checkpoint: { dir: ck, every: 2 } }));
    events.off('superstep', stop);
    const e = await t.throwsAsync(s.run('cdlp', { iterations: 10, resume: ck }));
    t.regex(e!.message, /the checkpoint is of program 'pr', not 'cdlp'/);
    const prWhole = await run(graph, 'pr', { iterations: 10, topology: TWO });
    const resumed = await s.run('pr', { iterations: 10, resume: ck });
    t.is(resumed.report.notes.resumedAt, 4, 'from the checkpoint before superstep 4 (every 2)');
    t.true(bytes(resumed.values).equals(bytes(prWhole.values)));
    // Other runs on the session are unaffected.
    t.true(bytes((await s.run('cdlp', { iterations: 10 })).values).equals(bytes(whole.values)));
  } finally {
    await s.close();
  }
});

test('checkpoint options are checked', async (t) => {
  const dir = await tempDir('tessera-ckpt-');
  const e = await t.throwsAsync(run(graph, 'wcc', { topology: TWO, checkpoint: { dir, every: 0 } }));
  t.regex(e!.message, /checkpoint every 0 is not a positive integer/);
  const i = await t.throwsAsync(run(graph, 'wcc', { topology: TWO, checkpoint: { dir, interval: -1 } }));
  t.regex(i!.message, /checkpoint interval -1 is not a positive number/);
});
