/**
 * Damaged checkpoints: every file a checkpoint writes (state arrays, carried arrays, the manifest)
 * has its checksum in the manifest, so one flipped bit is refused on resume in one line naming the
 * file (exit 1 from the CLI) instead of giving a wrong result; a checkpoint of the format before
 * checksums is refused too. The checksums agree between the addon and the JS fallback, over
 * several pieces and with a tail of odd bytes. Intact checkpoints: checkpoint.test.ts.
 */
import test, { type ExecutionContext } from 'ava';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bytes, stopAfter } from './helpers/stop-after.js';
import { generate, run } from '../src/api.js';
import { SUM_PIECE } from '../src/engine/checkpoint.js';
import { TesseraError } from '../src/errors.js';
import { removeTempDirs, tempDir, tessera } from './helpers/cli.js';

test.after.always(removeTempDirs);

const TWO = { name: 'two', source: 'test', sockets: [{ id: 0, threads: 1 }, { id: 1, threads: 1 }], gpus: [], interconnect: {}, model: {} };
const graph = generate('rmat:12');
const bfsSource = { source: graph.ids.toOriginal[0]! };

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface ManifestLike {
  version: number;
  step: number;
  data: string;
  sum: number;
  state: Array<{ name: string; file: string }>;
  blobs: Array<{ file: string; kind: string; length: number }>;
}
const manifestOf = async (ck: string): Promise<ManifestLike> => JSON.parse(await readFile(path.join(ck, 'manifest.json'), 'utf8')) as ManifestLike;

/** Flips one bit of a file. */
async function flip(file: string, at: number): Promise<void> {
  const b = await readFile(file);
  b[at] ^= 0x10;
  await writeFile(file, b);
}

/** A checkpoint of `program` stopped after superstep `at`, and an intact copy of it. */
async function checkpointed(program: 'pr' | 'bfs' | 'lcc', at: number, params: Record<string, unknown>): Promise<{ ck: string; intact: string }> {
  const dir = await tempDir('tessera-ckdmg-');
  const ck = path.join(dir, 'ck');
  await run(graph, program, { ...params, topology: TWO, events: stopAfter(at), checkpoint: { dir: ck, every: 1 } } as never).then(
    () => {
      throw new Error('the run was not stopped');
    },
    (e: Error) => {
      if (!/stopped after superstep/.test(e.message)) throw e;
    },
  );
  const intact = path.join(dir, 'intact');
  await cp(ck, intact, { recursive: true });
  return { ck, intact };
}

/** The refusal of a damaged file: one line naming it, saying the checkpoint cannot be used, and the fix. */
function damagedLine(t: ExecutionContext, e: Error | undefined, file: string, ck: string): void {
  t.true(e instanceof TesseraError, String(e));
  t.false(e!.message.includes('\n'));
  t.regex(
    e!.message,
    new RegExp(`^${esc(file)}: the checkpoint is damaged: the file's bytes changed after it was written \\(its checksum differs from the one in manifest\\.json\\), so the checkpoint cannot be used \\(at --resume\\)\\. Fix: remove ${esc(ck)} and start the run again without --resume`),
  );
}

test('a flipped bit in a state array is refused in one line naming the file; the intact copy resumes to the uninterrupted values', async (t) => {
  const { ck, intact } = await checkpointed('pr', 4, { iterations: 10 });
  const m = await manifestOf(ck);
  t.is(m.version, 2);
  const file = path.join(ck, m.data, m.state[0]!.file);
  await flip(file, 100);
  damagedLine(t, await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, resume: ck })), file, ck);
  const whole = await run(graph, 'pr', { iterations: 10, topology: TWO });
  const resumed = await run(graph, 'pr', { iterations: 10, topology: TWO, resume: intact });
  t.true(bytes(resumed.values).equals(bytes(whole.values)));
});

test('a flipped bit in a carried array (a frontier) is refused in one line naming the file', async (t) => {
  const { ck, intact } = await checkpointed('bfs', 2, bfsSource);
  const m = await manifestOf(ck);
  t.true(m.blobs.length > 0 && m.blobs[0]!.length > 1, 'bfs carries its frontier');
  const file = path.join(ck, m.data, m.blobs[0]!.file);
  await flip(file, 4);
  damagedLine(t, await t.throwsAsync(run(graph, 'bfs', { ...bfsSource, topology: TWO, resume: ck })), file, ck);
  const whole = await run(graph, 'bfs', { ...bfsSource, topology: TWO });
  t.true(bytes((await run(graph, 'bfs', { ...bfsSource, topology: TWO, resume: intact })).values).equals(bytes(whole.values)));
});

test('a changed manifest (its step), a truncated file, and a checkpoint from before checksums are refused in one line', async (t) => {
  const { ck, intact } = await checkpointed('pr', 4, { iterations: 10 });
  const text = await readFile(path.join(ck, 'manifest.json'), 'utf8');
  const m = JSON.parse(text) as ManifestLike;
  // A counter the run resumes from: valid JSON, so only the checksum tells.
  await writeFile(path.join(ck, 'manifest.json'), text.replace(`"step": ${m.step},`, `"step": ${m.step - 1},`));
  const e = await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, resume: ck }));
  t.is(e!.message, `${ck}: the checkpoint is damaged: manifest.json does not match its checksum (it changed after it was written) (at --resume). Fix: remove ${ck} and start the run again without --resume (or resume from another checkpoint folder)`);
  // A fresh run into that folder is refused as before, saying why.
  const into = await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, checkpoint: ck }));
  t.regex(into!.message, /the folder holds a damaged checkpoint \(manifest\.json does not match its checksum .*\) \(at --checkpoint\)/);

  const file = path.join(intact, m.data, m.state[0]!.file);
  const whole = await readFile(file);
  await writeFile(file, whole.subarray(0, whole.length - 8));
  const cut = await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, resume: intact }));
  t.regex(cut!.message, new RegExp(`^${esc(file)}: the checkpoint is damaged: the file has ${whole.length - 8} bytes, manifest\\.json says ${whole.length}, so the checkpoint cannot be used`));
  t.false(cut!.message.includes('\n'));

  const { sum: _, ...old } = m as ManifestLike & { sumPiece?: number };
  delete old.sumPiece;
  await writeFile(path.join(intact, 'manifest.json'), JSON.stringify({ ...old, version: 1 }));
  const v1 = await t.throwsAsync(run(graph, 'pr', { iterations: 10, topology: TWO, resume: intact }));
  t.is(v1!.message, `${intact}: the checkpoint was written by an older tessera, without checksums of its files, so it cannot be checked and is not resumed (at --resume). Fix: remove ${intact} and start the run again without --resume (or resume it with the tessera that wrote it)`);
});

// Serial (ava runs these before the concurrent tests): the environment and SUM_PIECE are the process's.
test.serial('checksums agree between the addon and the JS fallback, over several pieces with an odd tail', async (t) => {
  const was = SUM_PIECE.bytes;
  const env = process.env.TESSERA_NATIVE_TSR;
  try {
    // lcc carries a u8 array of the edge count (not a multiple of 4 bytes): many 4 KiB pieces and a tail.
    SUM_PIECE.bytes = 4096;
    const whole = await run(graph, 'lcc', { topology: TWO });
    for (const [write, read] of [['1', '0'], ['0', '1']] as const) {
      process.env.TESSERA_NATIVE_TSR = write;
      const { ck, intact } = await checkpointed('lcc', 2, {});
      const m = await manifestOf(ck);
      const tail = m.blobs.find((b) => b.kind === 'u8' && b.length % 4 !== 0);
      t.truthy(tail, 'a u8 array with a tail of odd bytes');
      process.env.TESSERA_NATIVE_TSR = read;
      const resumed = await run(graph, 'lcc', { topology: TWO, resume: intact });
      t.true(bytes(resumed.values).equals(bytes(whole.values)), `written with TESSERA_NATIVE_TSR=${write}, read with ${read}`);
      // A bit in its last byte: the tail, after the last whole word of the last piece.
      const file = path.join(ck, m.data, tail!.file);
      await flip(file, tail!.length - 1);
      damagedLine(t, await t.throwsAsync(run(graph, 'lcc', { topology: TWO, resume: ck })), file, ck);
    }
  } finally {
    SUM_PIECE.bytes = was;
    if (env === undefined) delete process.env.TESSERA_NATIVE_TSR;
    else process.env.TESSERA_NATIVE_TSR = env;
  }
});

test('the CLI: a damaged state file ends --resume with exit 1 and one line naming it', async (t) => {
  const dir = await tempDir('tessera-ckdmg-');
  const ck = path.join(dir, 'ck');
  const args = ['run', '--algo', 'pr', '--graph', 'rmat:12', '--topology', 'configs/2S.yaml', '-q'];
  const crash = await tessera([...args, '--out', path.join(dir, 'ranks.txt'), '--checkpoint', ck, '--checkpoint-every', '1'], { env: { TESSERA_FAULT: 'worker-exit@3' } });
  t.is(crash.code, 1, crash.stderr);
  const m = await manifestOf(ck);
  const file = path.join(ck, m.data, m.state[0]!.file);
  await flip(file, 100);
  const r = await tessera(['run', '--resume', ck, '-q']);
  t.is(r.code, 1);
  t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  t.regex(r.stderr, new RegExp(`^tessera: ${esc(file)}: the checkpoint is damaged: .*so the checkpoint cannot be used .*Fix: remove ${esc(ck)} and start the run again without --resume`));
  t.deepEqual((await readFile(path.join(dir, 'ranks.txt')).catch(() => undefined)), undefined, 'no --out file');
});
