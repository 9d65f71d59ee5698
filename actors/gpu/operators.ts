/**
 * A program's GPU operators (src/engine/operators.ts) on a GPU actor: one translation unit of
 * native/src's kernel headers, the generated Env of each operator and the program's own source,
 * compiled at run time: by NVRTC inside the addon on a real GPU, by the host C++ compiler ($CXX,
 * else c++) into a shared object on the emulated GPU, so CI, which has no GPU, runs the user's
 * operator code itself. Both are cached on disk by the unit's hash ($TESSERA_CACHE_DIR/operators).
 *
 * The generic handler follows the declared state, not the program: it uploads the arrays the
 * kernel passes (those whose device copy is still the host's stay: residency.ts), runs the generic
 * push or pull kernel over the actor's pages, and folds back what the device wrote by each array's
 * reduce: 'owner'/'none' arrays are copied back over the owned ranges; the others are diffed
 * against what the device started from (a device copy: 'sum' sends differences,
 * 'min'/'max'/'or'/'claim' the new values), so any number of actors writing one vertex combine.
 * Vertices the operator activates go back as next flags (pull: the owned ranges, in place) or a
 * list (push: any vertex).
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import path from 'node:path';
import { promisify } from 'node:util';
import { cacheDir } from '../../src/cache-dir.js';
import type { OperatorSpec, ProgramOperators } from '../../src/engine/operators.js';
import type { StateArray } from '../../src/engine/kernel.js';
import type { MergeOp, StateMerge, StateSync } from '../../src/wire/frames.js';
import type { GpuActor } from './gpu-actor.js';
import type { GpuController } from './native.js';
import { FR, NX, SET_IN, SET_OUT, type GpuHandler } from './handler.js';
import { foldsExactly, isPatch, keep, refresh, slotsFor, stale } from './residency.js';
import { clearNext, frontierAll, frontierOwned, pushPagesOf } from './frontier.js';
import { holdNext, holds } from './held.js';

const HEADERS = ['ts_common.h', 'kernels_common.h', 'kernels_push.h', 'kernels_pull.h', 'kernels_user.h', 'operator_prelude.h'];
const CTYPE = { f64: 'double', f32: 'float', i32: 'int', u32: 'unsigned int', u8: 'unsigned char' } as const;
const HOST_FLAGS = ['-std=c++17', '-O2', '-fPIC', '-shared', '-fvisibility=hidden'];

let headerText: string | undefined;
/** The kernel headers, includes of each other removed (the unit lists them in order). */
function headers(): string {
  const dir = new URL('../../../native/src/', import.meta.url);
  headerText ??= HEADERS.map((h) => `// ---- ${h}\n` + readFileSync(new URL(h, dir), 'utf8').replace(/^#pragma once\s*$/m, '').replace(/^#include "[^"]+"\s*$/gm, '')).join('\n');
  return headerText;
}

/** The translation unit of a program's operators (the same text for NVRTC and the host compiler). */
export function operatorUnit(ops: ProgramOperators): string {
  const out = [headers(), '// ---- generated: the Env of each operator'];
  for (const [k, op] of Object.entries(ops.kernels)) {
    out.push(`struct ${k};`, 'namespace ts {', `template <>\nstruct Env<::${k}> : EnvBase {`);
    for (const [n, t] of op.state) out.push(`  ${CTYPE[t]}* ${n};`);
    for (const [n, t] of op.args) out.push(`  ${CTYPE[t]} ${n};`);
    out.push('  TS_DEVICE static Env make(const UserArgs& a) {', '    Env e;', '    e.fr_ = a.fr;', '    e.sum_ = a.sum;');
    op.state.forEach(([n, t], i) => out.push(`    e.${n} = (${CTYPE[t]}*)a.s[${i}];`));
    op.args.forEach(([n, t], i) => out.push(`    e.${n} = (${CTYPE[t]})a.x[${i}];`));
    out.push('    return e;', '  }', '};', '}  // namespace ts');
  }
  // Compiler messages about the program's source name its file and line.
  out.push(`#line 1 "${ops.file.replace(/\\/g, '/').replace(/"/g, '')}"`, ops.source, '#line 1 "tessera-entry-points"');
  for (const [k, op] of Object.entries(ops.kernels)) for (const m of op.modes) out.push(m === 'push' ? `TS_USER_PUSH(${k})` : m === 'pull' ? `TS_USER_PULL(${k})` : `TS_USER_VERTEX(${k})`);
  return out.join('\n') + '\n';
}

/** Device arrays holding what a diffed array started the superstep from. */
const BEFORE = 'before:';

const snapshots = new WeakMap<GpuActor, Map<string, StateArray>>();
/** A copy of `host` (its first n entries) in a buffer kept per actor and array for the next superstep. */
function snapshot(a: GpuActor, name: string, host: StateArray): StateArray {
  const len = Math.min(host.length, a.graph.numVertices);
  let m = snapshots.get(a);
  if (m === undefined) snapshots.set(a, (m = new Map()));
  const key = `${name}:${host.constructor.name}:${len}`;
  let b = m.get(key);
  if (b === undefined) m.set(key, (b = new (host.constructor as new (n: number) => StateArray)(len)));
  b.set(host.subarray(0, len) as never);
  return b;
}

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 24);

const compiling = new Map<string, Promise<string>>();

/** The emulated GPU's module: the unit built by the host compiler into a cached shared object. */
function hostModule(unit: string, program: string): Promise<string> {
  const cxx = process.env.CXX ?? 'c++';
  const key = hash([unit, cxx, ...HOST_FLAGS, process.platform, process.arch].join('\0'));
  let p = compiling.get(key);
  if (p === undefined) {
    p = (async () => {
      const dir = path.join(cacheDir(), 'operators');
      const so = path.join(dir, `${key}.so`);
      if (existsSync(so)) return so;
      await mkdir(dir, { recursive: true });
      const src = path.join(dir, `${key}.cpp`);
      await writeFileAtomic(src, unit);
      const tmp = `${so}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await promisify(execFile)(cxx, [...HOST_FLAGS, '-x', 'c++', src, '-o', tmp], { maxBuffer: 1 << 24 });
      } catch (e) {
        await rm(tmp, { force: true });
        const err = e as NodeJS.ErrnoException & { stderr?: string };
        if (err.code === 'ENOENT') throw operatorError(`the emulated GPU needs a C++ compiler for the GPU operators of program '${program}', and '${cxx}' was not found`, 'install g++ or set CXX');
        throw await compileError(program, err.stderr ?? String(e), path.join(dir, `${key}.log`));
      }
      await rename(tmp, so);
      return so;
    })();
    compiling.set(key, p);
    p.catch(() => compiling.delete(key));
  }
  return p;
}

/** An error the coordinator reports as one line, "problem. Fix: fix" (code TS_OPERATOR). */
function operatorError(problem: string, fix: string): Error {
  return Object.assign(new Error(`${problem}. Fix: ${fix}`), { code: 'TS_OPERATOR' });
}

/** The compiler's first error line (file:line: error: ...) as the message; its whole output kept in `log`. */
async function compileError(program: string, output: string, log: string): Promise<Error> {
  await writeFileAtomic(log, output).catch(() => undefined);
  const first = output.split('\n').find((l) => /\berror\b/.test(l)) ?? output.split('\n').find((l) => l.trim() !== '') ?? output;
  return operatorError(`the GPU operators of program '${program}' do not compile: ${first.trim()}`, `correct the operator source (the compiler's whole output: ${log})`);
}

/** Operator modules loaded into each controller, by key. */
const loaded = new WeakMap<GpuController, Map<string, Promise<void>>>();

/** Loads the program's operators into the actor's controller (once per controller); returns the module key. */
async function ensureLoaded(a: GpuActor, ops: ProgramOperators): Promise<string> {
  const unit = operatorUnit(ops);
  const key = hash(unit);
  const ctl = a.controller;
  let mods = loaded.get(ctl);
  if (mods === undefined) loaded.set(ctl, (mods = new Map()));
  let p = mods.get(key);
  if (p === undefined) {
    p = (async () => {
      if (a.emulated) {
        await ctl.loadOperators(key, await hostModule(unit, ops.program), '');
        return;
      }
      // NVRTC builds for the device's architecture: the cached cubin is per compute capability.
      const cc = (await ctl.info()).computeCapability.replace(/\D/g, '');
      const file = path.join(cacheDir(), 'operators', `${key}-sm${cc}.cubin`);
      const cached = existsSync(file) ? new Uint8Array(await readFile(file)) : undefined;
      const built = await ctl.loadOperators(key, '', unit, cached).catch(async (e: unknown) => {
        const m = (e as Error).message;
        if ((e as { code?: string }).code !== 'TS_NVRTC') throw e;
        // Without NVRTC: the addon's message says so and how to fix it; a compile error carries the log.
        if (!m.includes('do not compile')) throw operatorError(`program '${ops.program}' has GPU operators: ${m.replace(/\. Fix: .*$/s, '')}`, m.match(/Fix: (.*)$/s)?.[1] ?? 'install NVRTC');
        await mkdir(path.dirname(file), { recursive: true });
        throw await compileError(ops.program, m.slice(m.indexOf(':\n') + 2), path.join(path.dirname(file), `${key}-sm${cc}.log`));
      });
      if (built !== undefined) {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFileAtomic(file, Buffer.from(built.buffer, built.byteOffset, built.byteLength));
      }
    })();
    mods.set(key, p);
    p.catch(() => mods.delete(key));
  }
  await p;
  return key;
}

/** The handler of kernel `kernel`'s operator (GpuActor.superstep takes it when the frame carries `ops`). */
export function operatorHandler(ops: ProgramOperators, kernel: string): GpuHandler | undefined {
  const op = ops.kernels[kernel];
  if (op === undefined) return undefined;
  const modes = op.modes.filter((m) => m !== 'vertex');
  return { modes, ...(op.modes.includes('vertex') ? { vertex: true as const } : {}), run: (a, s) => runOperator(a, s, ops, kernel, op) };
}

/** The undirected view's CSR the call passes (OperatorSpec.viewCsr), checked; undefined where the operator names none or the call passes neither (the pages are merged then). */
function viewCsrOf(a: GpuActor, s: Parameters<GpuHandler['run']>[1], op: OperatorSpec, what: string): { off: Float64Array; adj: Uint32Array } | undefined {
  if (op.viewCsr === undefined) return undefined;
  const [o, j] = op.viewCsr;
  const off = s.state[o], adj = s.state[j];
  if (off === undefined && adj === undefined) return undefined;
  if (!(off instanceof Float64Array) || !(adj instanceof Uint32Array) || off.length <= a.graph.numVertices || adj.length < off[a.graph.numVertices]!)
    throw operatorError(`${what}: its GPU operator's viewCsr names '${o}' (f64) and '${j}' (u32), which this call does not pass as such`, `pass the undirected view's off and adj (undirectedCsr) as '${o}' and '${j}' in the call's state`);
  return { off, adj };
}

async function runOperator(a: GpuActor, s: Parameters<GpuHandler['run']>[1], ops: ProgramOperators, kernel: string, op: OperatorSpec): ReturnType<GpuHandler['run']> {
  const f = s.f;
  const what = `kernel '${kernel}' of program '${ops.program}'`;
  const key = await ensureLoaded(a, ops);
  for (const [n, t] of op.state) {
    const ref = f.state.find((r) => r.name === n);
    if (ref === undefined) throw operatorError(`${what}: its GPU operator declares state '${n}', which this call does not pass`, `pass '${n}' in the call's state or remove it from gpu.kernels.${kernel}.state`);
    if (ref.kind !== t) throw operatorError(`${what}: this call passes '${n}' as ${ref.kind}, its GPU operator declares ${t}`, `declare ${n}: '${ref.kind}' in gpu.kernels.${kernel}.state`);
  }
  const params: Record<string, number> = { n: a.graph.numVertices, ...a.ownedParams() };
  op.args.forEach(([n], i) => {
    const x = f.args[n];
    if (x === undefined) throw operatorError(`${what}: its GPU operator reads argument '${n}', which this call does not pass`, `pass ${n} in the call's args or remove it from gpu.kernels.${kernel}.args`);
    params[`x${i}`] = x;
  });
  const writes = new Map(op.writes);
  const diffed = new Map(op.writes.filter(([, r]) => r !== 'owner' && r !== 'none'));
  const lengths = new Map<string, number>();
  const roles: Record<string, string> = { frontier: FR, next: NX, ...a.ownedState() };
  // residency.ts: the device array of each state array (the one still holding its values, if any).
  const slots = slotsFor(a, s, op.state);
  for (const [i, [n, kind]] of op.state.entries()) {
    const d = slots.get(n)!;
    roles[`s${i}`] = d;
    // What of the device copy another writer may have changed since the last superstep.
    const up = stale(a, s, n, kind, d);
    if (!diffed.has(n)) {
      // Filled by the operator (GpuOperator.fills): the device's copy need hold nothing yet
      // (a pullIf pull computes some vertices only: the others' values go up).
      if (op.fills.includes(n) && f.pullIf === undefined) await a.ensure(d, kind);
      else await refresh(a, s, n, kind, d, up);
      continue;
    }
    const host = s.state[n]!;
    const len = Math.min(host.length, a.graph.numVertices);
    lengths.set(n, len);
    await a.ensure(d, kind);
    await a.ensure(BEFORE + d, kind);
    // Owning every vertex, the actor is the only writer this superstep; otherwise CPU actors write
    // the host array meanwhile and the device starts from one snapshot of it.
    if (isPatch(up)) await refresh(a, s, n, kind, d, up);
    else if (up !== 'none') await a.uploadRanges(d, a.ownsAll ? (host.subarray(0, len) as StateArray) : snapshot(a, n, host), [[0, len]]);
    // The device diffs against what it started from: a copy on the device.
    await a.controller.copyState(BEFORE + d, d, 0, len);
  }
  await clearNext(a, s);
  const push = f.mode === 'push';
  // A vertex map reads no frontier and no pages: the owned vertices, each written by its owner (as a pull).
  const vertex = f.vertexOp === true;
  if (vertex) delete roles.frontier;
  else if (push) await frontierOwned(a, s);
  else await frontierAll(a, s);
  let st: Awaited<ReturnType<GpuActor['run']>>;
  if (vertex) st = await a.runPageless(`user:${key}:${kernel}:vertex`, { params, state: roles });
  else {
    const set = op.view === 'undirected' && a.directed ? await a.ensureUnion(viewCsrOf(a, s, op, what)) : push || f.pullPages === 'out' ? SET_OUT : SET_IN;
    const pages = push && set === SET_OUT ? await pushPagesOf(a, SET_OUT, s) : await a.pullPages(set, s, f.pullIf && slots.get(f.pullIf.state));
    st = await a.run(`user:${key}:${kernel}:${f.mode}`, { setId: set, pages, params, state: roles });
  }
  const merges: StateMerge[] = [];
  const sync: StateSync[] = [];
  const kinds = new Map(op.state);
  // Owning every vertex, a superstep that changed many goes back dense, in place, where the fold
  // would reproduce the device's values anyway: a list of millions costs its encoding in the vote
  // and a fold on the coordinator's thread.
  const dense = a.ownsAll && (!push || (st?.activated ?? 0) * 256 >= a.graph.numVertices);
  for (const [n, r] of op.writes) {
    const d = slots.get(n)!;
    // held.ts: the device copy counts until the engine settles it (where keep records it below).
    if ((r === 'owner' || r === 'none' || foldsExactly(r, kinds.get(n)!)) && holds(a, s, n)) continue;
    if (r === 'owner' || r === 'none' || (dense && foldsExactly(r, kinds.get(n)!) && s.state[n]!.length >= a.graph.numVertices)) {
      sync.push(...(await a.syncOwned(d, n, s)));
      continue;
    }
    // Listed on the device: O(changed) bytes come back ('sum': the differences).
    const { ids, values } = await a.controller.changes(d, BEFORE + d, 0, lengths.get(n)!, r === 'sum');
    a.stats.stateBytesOut += ids.byteLength + values.byteLength;
    if (ids.length > 0) merges.push({ state: n, op: r as MergeOp, activate: false, ids, values });
  }
  let active = 0;
  let activate: Uint32Array | undefined;
  const held = await holdNext(a, s, st?.activated ?? 0);
  // Next flags in place: a pull writes only the owned ranges' flags, and an actor owning every
  // vertex is the only one setting any (a dense push: no id list to encode and fold).
  if (held !== undefined) active = held;
  else if (!push || dense) active = await a.syncNext(s, st?.activated ?? 0); // one call since clearNext: its fresh marks
  else if ((st?.activated ?? 0) > 0) activate = (await a.controller.compact(NX, NX, 0, a.graph.numVertices)).ids;
  for (const [n, kind] of op.state) keep(a, s, n, writes.get(n), kind, slots.get(n));
  return a.out({ sum: st?.sum ?? 0, active, merges, sync, ...(activate !== undefined ? { activate } : {}) });
}
