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
 */
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { TesseraError } from '../errors.js';
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
const VERSION = 1;

/** A JSON value (what the manifest holds). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An array saved as a file of the checkpoint folder. */
interface BlobRef {
  file: string;
  kind: StateKind;
  length: number;
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
  carry: Json;
  notes: Record<string, string | number | boolean>;
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

/** Writes an array's bytes and syncs them to disk (TESSERA_FAULT disk-full: half, then ENOSPC). */
async function writeArray(file: string, a: StateArray): Promise<void> {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const h = await open(file, 'w');
  try {
    const full = diskFullNow();
    const end = full ? bytes.length >> 1 : bytes.length;
    for (let at = 0; at < end; ) at += (await h.write(bytes, at, Math.min(end - at, 1 << 30), at)).bytesWritten;
    if (full) throw enospc('write', file);
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Reads a file into `a` (which has the file's size). */
async function readArray(file: string, a: StateArray): Promise<void> {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const h = await open(file, 'r');
  try {
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await h.read(bytes, at, Math.min(bytes.length - at, 1 << 30), at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    if (at !== bytes.length || (await h.stat()).size !== bytes.length) throw new Error(`${file} has ${(await h.stat()).size} bytes, the manifest says ${bytes.length}`);
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
    const stateRefs = Object.entries(state).map(([k, a]) => ({ name: k, file: `state-${k}.bin`, kind: kindOf(a), length: a.length }));
    const blobRefs = blobs.map((a, i): BlobRef => ({ file: `blob-${i}.bin`, kind: kindOf(a), length: a.length }));
    try {
      await mkdir(tmp, { recursive: true });
      for (const r of stateRefs) await writeArray(path.join(tmp, r.file), state[r.name]!);
      for (let i = 0; i < blobs.length; i++) await writeArray(path.join(tmp, blobRefs[i]!.file), blobs[i]!);
      await rename(tmp, path.join(this.dir, name));
      const manifest: Manifest = { format: FORMAT, version: VERSION, seq, step, writtenAt: new Date().toISOString(), data: name, header: this.header, state: stateRefs, blobs: blobRefs, carry: encoded, notes: { ...notes } };
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

function corrupt(dir: string, what: string): TesseraError {
  return new TesseraError(`the checkpoint is damaged: ${what}`, { file: dir, key: '--resume', fix: 'resume from another checkpoint folder, or start the run again without --resume' });
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
  if (m.version !== VERSION) throw new TesseraError(`the checkpoint has format version ${String(m.version)}, this tessera reads ${VERSION}`, { file: dir, key: '--resume', fix: 'resume with the tessera version that wrote it, or start again' });
  const data = path.join(dir, m.data);
  const read = async (ref: BlobRef, into: StateArray): Promise<void> => {
    await readArray(path.join(data, ref.file), into).catch((e: Error) => {
      throw corrupt(dir, e.message);
    });
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
