/**
 * Checkpoints of a run (Garaph's checkpoint and resume), written atomically: a checkpoint is a
 * folder `ckpt-NNNNNN` (each declared state array and each array the driver carries as a raw
 * file) made under a temporary name and renamed, then `manifest.json` (written last, by
 * write-file-atomic) names it; only then is the previous folder removed. A kill at any moment
 * leaves a manifest naming a complete folder, or none yet.
 *
 * What is saved is generic: the program's declared state plus the driver's carry, the small
 * record of values its superstep loop carries (loop counters, frontiers, per-level lists), given
 * at each safe point (`ctx.checkpoint(carry)`, program.ts). Carried frontiers are saved as their
 * vertex lists, carried arrays as raw files (a carried array that is one of the declared state
 * arrays is saved once, by name), numbers exactly (JSON's shortest round-trip form; Infinity, NaN
 * and -0 tagged).
 *
 * Every file is checked when read back: the manifest records each one's tsrChecksum (the .tsr's
 * 32-bit hash; any one changed word changes it) and its own, so a damaged checkpoint is refused
 * in one line naming the file instead of resuming to a wrong result.
 */
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { nativeTsrCheck } from '../../actors/gpu/native-host.js';
import { TesseraError } from '../errors.js';
import { checkBlobs } from '../graph/tsr-check.js';
import { tsrChecksum } from '../graph/tsr-format.js';
import { trackTemp, untrackTemp } from '../tmp-files.js';
import type { StateKind } from '../wire/frames.js';
import { diskFullNow, enospc, reachedStep } from './faults.js';
import { kindOf } from './fold.js';
import { STATE_CTORS, type StateArray } from './kernel.js';
import type { Carry, CarryValue, Frontier, RunContext } from './program.js';

/** When to write: every `every` supersteps, every `interval` seconds, whichever comes first. */
export interface CheckpointPolicy {
  every?: number;
  interval?: number;
}

/** Seconds between checkpoints when neither `every` nor `interval` is given. */
export const DEFAULT_CHECKPOINT_INTERVAL_S = 60;

export const MANIFEST = 'manifest.json';
const FORMAT = 'tessera-checkpoint';
/** 2: checksums of every file and of the manifest (version 1 had none, so it cannot be checked). */
const VERSION = 2;

/** A JSON value (what the manifest holds). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An array saved as a file of the checkpoint folder. */
interface BlobRef {
  file: string;
  kind: StateKind;
  length: number;
  /** tsrChecksum of the file's bytes, taken from the array as it was written. */
  sum: number;
}

/** manifest.json. */
export interface Manifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** Checkpoints written by this run and the runs it resumed from. */
  seq: number;
  /** The next superstep's number: the run resumes here. */
  step: number;
  writtenAt: string;
  /** The checkpoint folder, relative to the manifest. */
  data: string;
  /** What the caller recorded: identity (graph, program, parameters, topology) and how it was run. */
  header: { [k: string]: Json };
  state: Array<BlobRef & { name: string }>;
  blobs: BlobRef[];
  /** Bytes of the pieces each file's checksum is taken over (SUM_PIECE.bytes). */
  sumPiece: number;
  carry: Json;
  notes: Record<string, string | number | boolean>;
  /** tsrChecksum of the manifest's JSON without this field (manifestSum): a flipped step or carry counter is caught too. */
  sum: number;
}

// ---------------------------------------------------------------------------------------------
// carry encoding

function isFrontier(x: object): x is Frontier {
  const f = x as Partial<Frontier>;
  return f.bitmap instanceof Uint8Array && typeof f.size === 'number' && 'list' in f;
}

function isStateArray(x: unknown): x is StateArray {
  return x instanceof Float64Array || x instanceof Float32Array || x instanceof Int32Array || x instanceof Uint32Array || x instanceof Uint8Array;
}

/** A frontier's vertices in ascending order. */
function frontierIds(f: Frontier): Uint32Array {
  if (f.list !== undefined) return f.list;
  const ids = new Uint32Array(f.size);
  let k = 0;
  for (let v = 0; v < f.bitmap.length && k < ids.length; v++) if (f.bitmap[v] === 1) ids[k++] = v;
  return ids;
}

/** Turns a carry into JSON, collecting its arrays (saved as files) in `blobs`. */
export function encodeCarry(value: CarryValue, state: Readonly<Record<string, StateArray>>, blobs: StateArray[], at = 'carry'): Json {
  if (value === undefined) return { $u: 1 };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value) && !Object.is(value, -0)) return value;
    return { $n: Object.is(value, -0) ? '-0' : String(value) };
  }
  if (isStateArray(value)) {
    const name = Object.keys(state).find((k) => state[k] === value);
    if (name !== undefined) return { $state: name };
    return { $blob: blobs.push(value) - 1 };
  }
  if (Array.isArray(value)) return value.map((x, i) => encodeCarry(x as CarryValue, state, blobs, `${at}[${i}]`));
  if (typeof value === 'object') {
    if (isFrontier(value)) return { $frontier: blobs.push(frontierIds(value)) - 1 };
    if (Object.getPrototypeOf(value) === Object.prototype) {
      const out: { [k: string]: Json } = {};
      for (const [k, x] of Object.entries(value)) if (x !== undefined) out[k] = encodeCarry(x as CarryValue, state, blobs, `${at}.${k}`);
      return out;
    }
  }
  throw new TesseraError(`ctx.checkpoint: ${at} is ${describe(value)}, which a checkpoint cannot hold`, {
    fix: 'carry numbers, booleans, strings, frontiers, typed arrays (f64 f32 i32 u32 u8), and arrays or plain objects of them (docs/PROGRAMS.md)',
  });
}

function describe(x: unknown): string {
  if (typeof x !== 'object' || x === null) return `a ${typeof x}`;
  return `a ${(x as object).constructor?.name ?? 'object'}`;
}

/** The inverse of encodeCarry: arrays come back in shared memory (alloc), frontiers from their lists. */
export function decodeCarry(json: Json, state: Readonly<Record<string, StateArray>>, blobs: ReadonlyArray<StateArray>, ctx: Pick<RunContext, 'frontierOf'>): CarryValue {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map((x) => decodeCarry(x, state, blobs, ctx));
  if ('$u' in json) return undefined;
  if ('$n' in json) return json.$n === '-0' ? -0 : Number(json.$n);
  if ('$state' in json) return state[json.$state as string]!;
  if ('$blob' in json) return blobs[json.$blob as number]!;
  if ('$frontier' in json) return ctx.frontierOf(blobs[json.$frontier as number]!);
  const out: { [k: string]: CarryValue } = {};
  for (const [k, x] of Object.entries(json)) out[k] = decodeCarry(x, state, blobs, ctx);
  return out;
}

// ---------------------------------------------------------------------------------------------
// files

const bytesOf = (a: StateArray): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Bytes of each piece of a file that is hashed alone (its checksum hashes the pieces' together):
 * pieces are what the addon's threads share out, and without it what JS hashes while libuv's
 * thread writes or reads the next. (Tests lower it, to a multiple of 4, to hash small arrays in
 * several pieces; a reader takes the manifest's.)
 */
export const SUM_PIECE = { bytes: 64 << 20 };

function piecesOf(bytes: Uint8Array, piece: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += piece) out.push(bytes.subarray(at, Math.min(at + piece, bytes.length)));
  return out;
}

/** A file's checksum: tsrChecksum of its pieces' tsrChecksums (one changed word changes one piece's, and so this). */
const combine = (sums: readonly number[]): number => tsrChecksum(new Uint8Array(Uint32Array.from(sums).buffer));

/**
 * The arrays' checksums, all pieces of all arrays at once on the addon's threads (after a read,
 * before a write: memory is hashed far faster than disks move it). Without the addon, writeArray
 * and readArray hash instead, each piece beside the I/O of the next.
 */
function checksumsOf(arrays: readonly StateArray[], piece: number): number[] {
  const pieces = arrays.map((a) => piecesOf(bytesOf(a), piece));
  const out = checkBlobs(pieces.flat().map((bytes) => ({ bytes, nv: -1, from: 0, to: 0 })), 0);
  let k = 0;
  return pieces.map((ps) => combine(ps.map(() => out[2 * k++]!)));
}

/** The manifest's own checksum: of its JSON without `sum` (JSON.parse then stringify gives back the text hashed). */
function manifestSum(body: Omit<Manifest, 'sum'>): number {
  return tsrChecksum(Buffer.from(JSON.stringify(body)));
}

async function writeAt(h: FileHandle, bytes: Uint8Array, pos: number): Promise<void> {
  for (let at = 0; at < bytes.length; ) at += (await h.write(bytes, at, bytes.length - at, pos + at)).bytesWritten;
}

async function readAt(h: FileHandle, bytes: Uint8Array, pos: number, whole: number): Promise<void> {
  for (let at = 0; at < bytes.length; ) {
    const { bytesRead } = await h.read(bytes, at, bytes.length - at, pos + at);
    if (bytesRead === 0) throw new Error(`the file ended after ${pos + at} of its ${whole} bytes`);
    at += bytesRead;
  }
}

/**
 * Writes an array's bytes and syncs them to disk (TESSERA_FAULT disk-full: half, then ENOSPC).
 * With `hash`, returns its checksum, each piece hashed while libuv's thread writes it.
 */
async function writeArray(file: string, a: StateArray, piece: number, hash: boolean): Promise<number | undefined> {
  const bytes = bytesOf(a);
  const h = await open(file, 'w');
  try {
    const full = diskFullNow();
    const pieces = piecesOf(bytes.subarray(0, full ? bytes.length >> 1 : bytes.length), piece);
    const sums: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const written = writeAt(h, pieces[i]!, i * piece);
      if (hash) sums.push(tsrChecksum(pieces[i]!));
      await written;
    }
    if (full) throw enospc('write', file);
    await h.sync();
    return hash ? combine(sums) : undefined;
  } finally {
    await h.close();
  }
}

/**
 * Reads a file into `a` (which must have the file's size). With `hash`, returns its checksum
 * (pieces of `piece` bytes), each piece hashed while libuv's thread reads the next. (The addon's
 * tsrLoad reads and hashes together, but measured slower here than a read, then checksumsOf.)
 */
async function readArray(file: string, a: StateArray, piece: number, hash: boolean): Promise<number | undefined> {
  const bytes = bytesOf(a);
  const h = await open(file, 'r');
  try {
    const size = (await h.stat()).size;
    if (size !== bytes.length) throw new Error(`the file has ${size} bytes, ${MANIFEST} says ${bytes.length}`);
    const pieces = piecesOf(bytes, piece);
    const sums: number[] = [];
    let reading = pieces.length > 0 ? readAt(h, pieces[0]!, 0, size) : undefined;
    for (let i = 0; i < pieces.length; i++) {
      await reading;
      reading = i + 1 < pieces.length ? readAt(h, pieces[i + 1]!, (i + 1) * piece, size) : undefined;
      if (hash) sums.push(tsrChecksum(pieces[i]!));
    }
    return hash ? combine(sums) : undefined;
  } finally {
    await h.close();
  }
}

const folderOf = (seq: number): string => `ckpt-${String(seq).padStart(6, '0')}`;

/**
 * Removes what a killed writer left: temporary folders, and checkpoint folders the manifest does
 * not name (a kill between the rename and the manifest). A folder serves one run at a time.
 */
async function tidy(dir: string, keep: string | undefined): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => /^ckpt-\d+(\.tmp-\d+)?$/.test(n) && n !== keep).map((n) => rm(path.join(dir, n), { recursive: true, force: true })));
}

// ---------------------------------------------------------------------------------------------
// writing

export class CheckpointWriter {
  private lastStep: number;
  private lastAt = performance.now();
  private readonly every: number | undefined;
  private readonly intervalMs: number | undefined;
  /** Checkpoints this writer wrote, and what writing them cost (for the report). */
  written = 0;
  writeMs = 0;
  private ready: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    private readonly header: { [k: string]: Json },
    policy: CheckpointPolicy,
    private seq: number,
    startStep: number,
    /** The folder a resumed run's manifest names: kept until this writer replaces it. */
    private current: string | undefined,
  ) {
    this.every = policy.every;
    this.intervalMs = policy.interval !== undefined ? policy.interval * 1000 : policy.every === undefined ? DEFAULT_CHECKPOINT_INTERVAL_S * 1000 : undefined;
    this.lastStep = startStep;
  }

  /** Whether a safe point at superstep `step` writes: enough supersteps or seconds since the last. */
  due(step: number): boolean {
    if (step === this.lastStep) return false;
    if (this.every !== undefined && step - this.lastStep >= this.every) return true;
    return this.intervalMs !== undefined && performance.now() - this.lastAt >= this.intervalMs;
  }

  /** Writes a checkpoint at superstep `step` (the next one to run); a failure leaves the previous one in place. */
  async write(step: number, state: Readonly<Record<string, StateArray>>, carry: Carry, notes: Record<string, string | number | boolean>): Promise<void> {
    const t0 = performance.now();
    reachedStep(step);
    const blobs: StateArray[] = [];
    const encoded = encodeCarry(carry, state, blobs);
    this.ready ??= mkdir(this.dir, { recursive: true }).then(() => tidy(this.dir, this.current));
    await this.ready.catch((e: Error) => {
      this.ready = undefined;
      throw new TesseraError(`cannot create the checkpoint folder: ${e.message}`, { file: this.dir, key: '--checkpoint', fix: 'name a folder you can write to' });
    });
    const seq = this.seq + 1;
    const name = folderOf(seq);
    const tmp = path.join(this.dir, `${name}.tmp-${process.pid}`);
    trackTemp(tmp);
    const arrays = [...Object.values(state), ...blobs];
    const files = [...Object.keys(state).map((k) => `state-${k}.bin`), ...blobs.map((_, i) => `blob-${i}.bin`)];
    // Hashed from memory (the state is settled: nothing changes it while it is written).
    const piece = SUM_PIECE.bytes;
    const sums = nativeTsrCheck() !== undefined ? checksumsOf(arrays, piece) : [];
    try {
      await mkdir(tmp, { recursive: true });
      for (let i = 0; i < arrays.length; i++) {
        const sum = await writeArray(path.join(tmp, files[i]!), arrays[i]!, piece, sums[i] === undefined);
        sums[i] ??= sum!;
      }
      const refs = arrays.map((a, i): BlobRef => ({ file: files[i]!, kind: kindOf(a), length: a.length, sum: sums[i]! }));
      const stateRefs = Object.keys(state).map((name, i) => ({ name, ...refs[i]! }));
      const blobRefs = refs.slice(stateRefs.length);
      await rename(tmp, path.join(this.dir, name));
      const body: Omit<Manifest, 'sum'> = { format: FORMAT, version: VERSION, seq, step, writtenAt: new Date().toISOString(), data: name, header: this.header, state: stateRefs, blobs: blobRefs, sumPiece: piece, carry: encoded, notes: { ...notes } };
      const manifest: Manifest = { ...body, sum: manifestSum(body) };
      const { default: writeFileAtomic } = await import('write-file-atomic');
      if (diskFullNow()) throw enospc('write', path.join(this.dir, MANIFEST));
      await writeFileAtomic(path.join(this.dir, MANIFEST), JSON.stringify(manifest, null, 1) + '\n');
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      // A checkpoint folder the manifest does not name (written, then the manifest failed) goes too.
      await rm(path.join(this.dir, name), { recursive: true, force: true });
      const prev = this.current !== undefined ? ` (the previous checkpoint, before superstep ${this.lastStep}, is intact)` : '';
      throw new TesseraError(`cannot write the checkpoint of superstep ${step}: ${(e as Error).message}${prev}`, {
        file: this.dir,
        key: '--checkpoint',
        fix: `free space or write checkpoints elsewhere${prev !== '' ? `, then continue with --resume ${this.dir}` : ''}`,
      });
    } finally {
      untrackTemp(tmp);
    }
    if (this.current !== undefined) await rm(path.join(this.dir, this.current), { recursive: true, force: true });
    this.current = name;
    this.seq = seq;
    this.lastStep = step;
    this.lastAt = performance.now();
    this.written++;
    this.writeMs += performance.now() - t0;
  }

  /** Removes the checkpoint (the run's results are safe): the manifest first, then the folder. */
  async remove(): Promise<void> {
    await rm(path.join(this.dir, MANIFEST), { force: true });
    if (this.current !== undefined) await rm(path.join(this.dir, this.current), { recursive: true, force: true });
    this.current = undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// reading

/** A checkpoint read back: its manifest, and its arrays on demand. */
export interface LoadedCheckpoint {
  dir: string;
  manifest: Manifest;
  /** Copies the saved state array `name` into `into` (same kind and length, else an error). */
  restoreState(name: string, into: StateArray): Promise<void>;
  /** The carried arrays, each in a fresh array from `alloc` (shared memory, as kernels need). */
  loadBlobs(alloc: (kind: StateKind, length: number) => StateArray): Promise<StateArray[]>;
}

/**
 * A damaged checkpoint (`file`: the folder, or the damaged file in it). A folder keeps only its
 * latest checkpoint (the writer removes the one before), so there is no older one to fall back to.
 */
function corrupt(dir: string, what: string, file = dir): TesseraError {
  return new TesseraError(`the checkpoint is damaged: ${what}`, {
    file,
    key: '--resume',
    fix: `remove ${dir} and start the run again without --resume (or resume from another checkpoint folder)`,
  });
}

/** Reads DIR/manifest.json; undefined when the folder holds no checkpoint. */
export async function readCheckpoint(dir: string): Promise<LoadedCheckpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TesseraError(`cannot read the checkpoint: ${(e as Error).message}`, { file: dir, key: '--resume', fix: 'check the folder and its permissions' });
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw corrupt(dir, `${MANIFEST} is not JSON`);
  }
  if (m.format !== FORMAT) throw corrupt(dir, `${MANIFEST} is not a tessera checkpoint`);
  if ((m.version as number) === 1) {
    // Checkpoints are short-lived: one of an older tessera is refused rather than resumed unchecked.
    throw new TesseraError('the checkpoint was written by an older tessera, without checksums of its files, so it cannot be checked and is not resumed', {
      file: dir,
      key: '--resume',
      fix: `remove ${dir} and start the run again without --resume (or resume it with the tessera that wrote it)`,
    });
  }
  if (m.version !== VERSION) throw new TesseraError(`the checkpoint has format version ${String(m.version)}, this tessera reads ${VERSION}`, { file: dir, key: '--resume', fix: 'resume with the tessera version that wrote it, or start again' });
  const { sum, ...body } = m;
  if (typeof sum !== 'number' || manifestSum(body) !== sum) throw corrupt(dir, `${MANIFEST} does not match its checksum (it changed after it was written)`);
  if (!(Number.isSafeInteger(m.sumPiece) && m.sumPiece > 0 && m.sumPiece % 4 === 0)) throw corrupt(dir, `${MANIFEST} has sumPiece ${String(m.sumPiece)}, not a positive multiple of 4`);
  const data = path.join(dir, m.data);
  const read = async (ref: BlobRef, into: StateArray): Promise<void> => {
    const file = path.join(data, ref.file);
    const hashHere = nativeTsrCheck() === undefined;
    const hashed = await readArray(file, into, m.sumPiece, hashHere).catch((e: Error) => {
      throw corrupt(dir, `${e.message}, so the checkpoint cannot be used`, file);
    });
    const got = hashed ?? checksumsOf([into], m.sumPiece)[0];
    if (got !== ref.sum) throw corrupt(dir, `the file's bytes changed after it was written (its checksum differs from the one in ${MANIFEST}), so the checkpoint cannot be used`, file);
  };
  return {
    dir,
    manifest: m,
    async restoreState(name, into) {
      const ref = m.state.find((s) => s.name === name);
      if (ref === undefined || ref.kind !== kindOf(into) || ref.length !== into.length) {
        throw corrupt(dir, ref === undefined ? `no state '${name}'` : `state '${name}' is ${ref.kind}[${ref.length}], the program declares ${kindOf(into)}[${into.length}]`);
      }
      await read(ref, into);
    },
    async loadBlobs(alloc) {
      const out: StateArray[] = [];
      for (const b of m.blobs) {
        if (!(b.kind in STATE_CTORS)) throw corrupt(dir, `array kind '${b.kind}'`);
        const a = alloc(b.kind, b.length);
        await read(b, a);
        out.push(a);
      }
      return out;
    },
  };
}
