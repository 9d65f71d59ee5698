/**
 * Topologies from files and from objects take the same checks: the schema, socket ids once each,
 * threads capped at MAX_THREADS_PER_CORE per core of this machine; a detected topology's GPUs.
 */
import test from 'ava';
import os from 'node:os';
import path from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { driverGpus, visibleGpus } from '../src/topology/detect.js';
import { checkTopology, MAX_THREADS_PER_CORE, parseTopology } from '../src/topology/parse.js';
import { generate, run, TesseraError } from '../src/index.js';
import { nativeAvailable } from '../actors/gpu/native.js';

const cores = os.availableParallelism();
const avail = nativeAvailable();
const gpuTest = avail.ok || !avail.toolchainMissing ? test : test.skip;

test('a socket id listed twice is an error naming the key', (t) => {
  const e = t.throws(() => parseTopology('sockets:\n  - { id: 0, threads: 1 }\n  - { id: 0, threads: 1 }\n', 'dup.yaml'), { instanceOf: TesseraError });
  t.regex(e!.message, /socket id 0 is listed twice/);
  t.regex(e!.message, /sockets\.1\.id/);
});

test('threads are capped at a multiple of the cores', (t) => {
  const cap = MAX_THREADS_PER_CORE * cores;
  t.notThrows(() => parseTopology(`sockets:\n  - threads: ${cap}\n`, 'cap.yaml'));
  const e = t.throws(() => parseTopology(`sockets:\n  - threads: ${cap}\n  - threads: 1\n`, 'over.yaml'), { instanceOf: TesseraError });
  t.regex(e!.message, new RegExp(`ask for ${cap + 1} threads, and this machine has ${cores} cores`));
  t.regex(e!.message, new RegExp(`at most ${cap} threads`));
  t.throws(() => parseTopology('sockets:\n  - threads: 100000\n', 'huge.yaml'), { message: /100000 threads/ });
});

test('a topology object is checked as a file is (defaults filled in, mistakes named)', async (t) => {
  const ok = checkTopology({ name: 'x', sockets: [{ threads: 1 }], gpus: [{ device: 0, emulated: true }] });
  t.deepEqual(ok.sockets, [{ id: 0, threads: 1 }]);
  t.is(ok.gpus[0]!.streams, 4, 'the default stream count');
  t.is(ok.source, 'topology object');
  t.throws(() => checkTopology({ sockets: [] }), { message: /needs at least one socket/ });
  t.throws(() => checkTopology({ sockets: [{ threads: 0 }] }), { message: /sockets\.0\.threads/ });
  t.throws(() => checkTopology({ sockets: [{ threads: 1, cores: 2 }] }), { message: /cores/ });
  const g = generate('rmat:4');
  const untyped = run as unknown as (g: unknown, p: string, o: unknown) => Promise<unknown>;
  await t.throwsAsync(untyped(g, 'wcc', { topology: { sockets: 'all' } }), { instanceOf: TesseraError, message: /invalid topology: sockets/ });
});

test('a YAML alias bomb is a clear error, not an internal one', (t) => {
  const rows = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (const [k, p] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e']] as const) rows.push(`${k}: &${k} [${Array(9).fill('*' + p).join(', ')}]`);
  const e = t.throws(() => parseTopology(rows.join('\n') + '\nsockets: [{ threads: 1 }]\n', 'bomb.yaml'), { instanceOf: TesseraError });
  t.regex(e!.message, /the YAML expands too far/);
  t.regex(e!.message, /bomb\.yaml/);
});

gpuTest('every shipped topology file parses; 1S2G-emulated runs two GPU actors to the 1S answer', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { REPO_ROOT } = await import('./helpers/paths.js');
  const dir = path.join(REPO_ROOT, 'configs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  t.true(files.includes('1S2G.yaml') && files.includes('2S2G.yaml') && files.includes('1S2G-emulated.yaml'));
  const parsed = new Map(files.map((f) => [f, parseTopology(readFileSync(path.join(dir, f), 'utf8'), f)]));
  t.deepEqual(parsed.get('1S2G.yaml')!.gpus.map((g) => g.device), [0, 1]);
  t.deepEqual(parsed.get('2S2G.yaml')!.sockets.map((s) => s.id), [0, 1]);
  const emu = parsed.get('1S2G-emulated.yaml')!;
  const g = generate('rmat:9');
  const source = g.ids.toOriginal[0]!;
  const one = await run(g, 'bfs', { topology: { ...emu, gpus: [], sockets: [{ id: 0, threads: 1 }] }, source });
  const two = await run(g, 'bfs', { topology: { ...emu, sockets: [{ id: 0, threads: 1 }] }, source, gpuShare: 0.7 });
  t.deepEqual([...two.values], [...one.values]);
  t.is(two.report.partition?.gpus.length, 2);
  t.true(two.report.partition!.gpus.every((x) => x.edges > 0), 'both GPUs own edges');
});

test('detected GPUs: the driver\'s /proc entries, narrowed by CUDA_VISIBLE_DEVICES as CUDA reads it', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-gpus-'));
  try {
    const uuids = ['GPU-f5241086-dbb1-13d3-a497-d6560648e827', 'GPU-c3684858-7034-665e-e867-c4f18ed8935a'];
    // Listed out of bus order on purpose: the entries are read in bus order.
    for (const [bus, uuid] of [['0000:00:07.0', uuids[1]!], ['0000:00:06.0', uuids[0]!]]) {
      mkdirSync(path.join(dir, bus));
      writeFileSync(path.join(dir, bus, 'information'), `Model: \t\t NVIDIA H200\nIRQ:   \t\t 41\nGPU UUID: \t ${uuid}\nBus Location: \t ${bus}\n`);
    }
    t.deepEqual(driverGpus(dir), uuids);
    // With their device files: one this process lacks (/dev/nvidia1 here) is left out, and no GPU
    // at all where none is there (nvidia-smi is not asked then: it would list them).
    const dev = mkdtempSync(path.join(os.tmpdir(), 'tessera-dev-'));
    t.teardown(() => rmSync(dev, { recursive: true, force: true }));
    for (const [bus, minor] of [['0000:00:06.0', 0], ['0000:00:07.0', 1]] as const) {
      const f = path.join(dir, bus, 'information');
      writeFileSync(f, readFileSync(f, 'utf8') + `Device Minor: \t ${minor}\n`);
    }
    t.deepEqual(driverGpus(dir, dev), []);
    writeFileSync(path.join(dev, 'nvidia0'), '');
    t.deepEqual(driverGpus(dir, dev), [uuids[0]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const two = ['GPU-aaaa1111-0000', 'GPU-bbbb2222-0000'];
  const cases: Array<[string | undefined, number]> = [
    [undefined, 2],
    ['', 0],
    ['-1', 0],
    ['1', 1],
    ['1,0', 2],
    ['0,2,1', 1], // cut at the first ordinal past the GPUs
    ['0,0', 1], // a GPU named twice ends the list
    ['GPU-bbbb2222', 1], // a UUID's unique prefix
    ['GPU-', 0], // a prefix of both names none
    ['bbbb2222-0000, 0', 2],
    ['MIG-7f3c0e2a-1111', 1],
  ];
  for (const [v, n] of cases) t.is(visibleGpus(two, v), n, `CUDA_VISIBLE_DEVICES=${v}`);
});

test.serial("run() leaves a detected GPU idle on a small graph unless gpuShare asks for it (its driver entry faked here)", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-gpus-'));
  const saved = { proc: process.env.TESSERA_NVIDIA_PROC, visible: process.env.CUDA_VISIBLE_DEVICES };
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    mkdirSync(path.join(dir, '0000:00:06.0'));
    writeFileSync(path.join(dir, '0000:00:06.0', 'information'), 'GPU UUID: \t GPU-f5241086-dbb1\n');
    process.env.TESSERA_NVIDIA_PROC = dir;
    process.env.CUDA_VISIBLE_DEVICES = 'GPU-f5241086';
    const g = generate('rmat:8:seed=3');
    const r = await run(g, 'wcc');
    t.deepEqual(r.report.topology.gpus, []);
    await new Promise((res) => setImmediate(res));
    t.true(warnings.some((w) => /GPU stays idle on a graph of under 2M edges/.test(w)), warnings.join('\n'));
    // Asked for, the GPU is opened: on a machine without one CUDA can use, the run says so.
    const asked = await run(g, 'wcc', { gpuShare: 1 }).then(
      (x) => x.report.topology.gpus.length,
      (e: Error) => e.message,
    );
    if (typeof asked === 'number') t.is(asked, 1);
    else t.regex(asked, /GPU device 0/);
  } finally {
    process.off('warning', onWarning);
    for (const [k, v] of [['TESSERA_NVIDIA_PROC', saved.proc], ['CUDA_VISIBLE_DEVICES', saved.visible]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
