/**
 * Crashes and fault injection (TESSERA_FAULT, src/engine/faults.ts) through the CLI: a worker
 * thread that exits or dies of an uncaught exception, a failing GPU actor, a full disk: each ends
 * the run with one line naming the actor and superstep, exit 1, no --out file and no temporary
 * file; with a checkpoint, --resume continues (on the CPU sockets when the GPU is gone) and the
 * output equals an uninterrupted run's. Last, the kill -9 acceptance script on a small graph.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';
import { PROGRAMS } from '../src/programs/index.js';

test.after.always(removeTempDirs);

const TWO = 'configs/2S.yaml';
const GPU = 'configs/1S1G-emulated.yaml';
const BFS = ['run', '--algo', 'bfs', '--graph', 'rmat:12', '--source', '0'];
const WCC = ['run', '--algo', 'wcc', '--graph', 'rmat:12'];

/** Files left in `dir` other than those expected; temporary files named. */
async function leftovers(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const n of await readdir(dir, { recursive: true })) if (String(n).includes('.tmp-')) out.push(String(n));
  return out;
}

async function reference(args: string[], topology: string, dir: string, name: string): Promise<Buffer> {
  const file = path.join(dir, name);
  const r = await tessera([...args, '--topology', topology, '--out', file, '-q']);
  if (r.code !== 0) throw new Error(r.stderr);
  return readFile(file);
}

/** A run checkpointing every superstep that `fault` ends: exit 1, one line matching `line`, no --out file. */
async function crashed(t: ExecutionContext, args: string[], file: string, fault: string, line: RegExp): Promise<{ dir: string; out: string; ck: string }> {
  const dir = await tempDir('tessera-fault-');
  const out = path.join(dir, file);
  const ck = path.join(dir, 'ck');
  const crash = await tessera([...args, '--out', out, '-q', '--checkpoint', ck, '--checkpoint-every', '1'], { env: { TESSERA_FAULT: fault } });
  t.is(crash.code, 1);
  t.regex(crash.stderr, line);
  t.is(crash.stderr.trim().split('\n').length, 1, crash.stderr);
  t.deepEqual((await readdir(dir)).sort(), ['ck'], 'no --out file');
  return { dir, out, ck };
}

for (const [fault, actor, what] of [
  ['worker-exit@2', /actor socket[01] failed in superstep 2: worker exited with code: 1/, 'a worker thread that exits'],
  ['worker-throw@2', /actor socket[01] failed in superstep 2: injected fault \(TESSERA_FAULT worker-throw\)/, 'a worker thread that dies of an uncaught exception'],
] as const) {
  test(`${what} ends the run with one line naming actor and superstep; --resume gives the uninterrupted output`, async (t) => {
    const { dir, out, ck } = await crashed(t, [...BFS, '--topology', TWO], 'depths.txt', fault, actor);
    t.deepEqual(await leftovers(dir), []);
    const resumed = await tessera(['run', '--resume', ck, '-q']);
    t.is(resumed.code, 0, resumed.stderr);
    t.true((await readFile(out)).equals(await reference(BFS, TWO, dir, 'ref.txt')));
    t.deepEqual(await readdir(ck), [], 'the checkpoint is removed once the output is written');
  });
}

test('a worker crash without a checkpoint: the same clean error, and no partial output', async (t) => {
  const dir = await tempDir('tessera-fault-');
  const r = await tessera([...WCC, '--topology', TWO, '--out', path.join(dir, 'w.txt'), '-q'], { env: { TESSERA_FAULT: 'worker-exit@1' } });
  t.is(r.code, 1);
  t.regex(r.stderr, /^tessera: actor socket[01] failed in superstep 1: worker exited with code: 1\. Fix: .*--resume DIR continues/);
  t.deepEqual(await readdir(dir), []);
});

for (const [fault, line] of [
  ['gpu-fail@1', /configs\/1S1G-emulated\.yaml: GPU actor gpu0 failed in superstep 1: CUDA error 700: an illegal memory access was encountered .*\(at gpus\.0\)/],
  ['gpu-oom@1', /configs\/1S1G-emulated\.yaml: GPU actor gpu0 failed in superstep 1: out of memory .*\(at gpus\.0\.memoryLimit\)/],
] as const) {
  test(`a failing GPU actor (${fault}) ends the run naming it; resume goes on on the CPU sockets when the GPU is gone`, async (t) => {
    const { dir, out, ck } = await crashed(t, [...WCC, '--topology', GPU], 'labels.txt', fault, line);
    // The device is gone now: the checkpoint's topology cannot open it, and the run says where it goes on.
    const resumed = await tessera(['run', '--resume', ck, '-q'], { env: { TESSERA_FAULT: 'gpu-gone' } });
    t.is(resumed.code, 0, resumed.stderr);
    t.regex(resumed.stderr, /GPU device 0, which cannot be used here: no CUDA device 0 \(TESSERA_FAULT gpu-gone\).*; resuming on the CPU sockets only/);
    t.regex(resumed.stderr, /resuming on topology '1S1G-emulated' \(1 socket, \d+ threads\); the checkpoint was written on '1S1G-emulated' \(1 socket, \d+ threads, 1 GPU \(emulated\)\)/);
    t.true((await readFile(out)).equals(await reference(WCC, TWO, dir, 'ref.txt')), 'labels equal the CPU run');
  });
}

test('a full disk while writing a checkpoint: one line, the previous checkpoint intact, nothing partial; resume is identical', async (t) => {
  const dir = await tempDir('tessera-fault-');
  const out = path.join(dir, 'ranks.txt');
  const ck = path.join(dir, 'ck');
  const args = ['run', '--algo', 'pr', '--graph', 'rmat:12', '--topology', TWO, '--out', out, '-q', '--checkpoint', ck, '--checkpoint-every', '1'];
  const full = await tessera(args, { env: { TESSERA_FAULT: 'disk-full@3' } });
  t.is(full.code, 1);
  t.regex(full.stderr, /^tessera: .*ck: cannot write the checkpoint of superstep 3: ENOSPC: no space left on device, write .*\(the previous checkpoint, before superstep 2, is intact\) \(at --checkpoint\)\. Fix: free space or write checkpoints elsewhere, then continue with --resume /);
  t.is(full.stderr.trim().split('\n').length, 1);
  t.deepEqual(await leftovers(dir), []);
  t.deepEqual((await readdir(ck)).sort(), ['ckpt-000002', 'manifest.json']);
  t.deepEqual((await readdir(dir)).sort(), ['ck'], 'no --out file');
  const resumed = await tessera(['run', '--resume', ck, '-q']);
  t.is(resumed.code, 0, resumed.stderr);
  t.true((await readFile(out)).equals(await reference(['run', '--algo', 'pr', '--graph', 'rmat:12'], TWO, dir, 'ref.txt')));
});

test('a full disk while writing --out: one line, and no partial file', async (t) => {
  const dir = await tempDir('tessera-fault-');
  const out = path.join(dir, 'd.txt');
  const plain = await tessera([...BFS, '--topology', TWO, '--out', out, '-q'], { env: { TESSERA_FAULT: 'disk-full@1' } });
  t.is(plain.code, 1);
  t.regex(plain.stderr, /^tessera: .*d\.txt: cannot write the output: ENOSPC: no space left on device/);
  t.deepEqual(await readdir(dir), []);
});

test('a misspelt TESSERA_FAULT is refused rather than ignored; so are flags a resume needs and a program that cannot checkpoint', async (t) => {
  const bad = await tessera([...BFS, '--topology', TWO, '-q'], { env: { TESSERA_FAULT: 'worker-exti@2' } });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /TESSERA_FAULT: 'worker-exti@2' is not a fault/);
  const none = await tessera(['run', '--graph', 'rmat:10', '-q']);
  t.is(none.code, 1);
  t.is(none.stderr, 'tessera: --algo is required (at --algo). Fix: give --algo ALGO --graph FILE, or --resume DIR to continue a checkpointed run\n');
  const every = await tessera([...BFS, '--checkpoint-every', '2', '-q']);
  t.regex(every.stderr, /^tessera: --checkpoint-every needs --checkpoint DIR/);
  const other = await tessera(['run', '--resume', path.join(await tempDir('tessera-fault-'), 'nothing'), '-q']);
  t.regex(other.stderr, /no checkpoint here to resume/);
});

test('kill -9 of a checkpointed run, then --resume, is identical for every built-in (scripts/checkpoint-kill.mjs, RMAT 12)', async (t) => {
  const r = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/checkpoint-kill.mjs', '--graph', 'rmat:12', '--topology', TWO], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TESSERA_FAULT: '' } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
  t.is(r.code, 0, r.stdout);
  for (const { name } of PROGRAMS) t.regex(r.stdout, new RegExp(`^${name} .* yes$`, 'm'));
});
