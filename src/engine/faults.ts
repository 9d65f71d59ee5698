/**
 * Fault injection for tests of crash handling and checkpoints: TESSERA_FAULT names faults to
 * inject at a superstep (the report's step numbers, from 0), comma separated:
 *
 *   worker-exit@K    a CPU worker thread of every socket actor calls process.exit(1) in its first task of superstep K
 *   worker-throw@K   ... throws an uncaught exception instead (the thread dies with its task pending)
 *   gpu-fail@K       every GPU actor's superstep K fails as a CUDA error would (native call throws);
 *                    gpu-fail@K:D only the actor of device D (its peers then wait for it)
 *   gpu-oom@K        ... as an out-of-memory error would (code TS_OOM; also @K:D)
 *   gpu-gone         GPU actors cannot open their device (a GPU that is no longer there)
 *   disk-full@K      writes fail with ENOSPC after part of the file is written: the first checkpoint
 *                    written at superstep K or later, and the --out file of a run that reached K
 *
 * Worker threads and GPU actors read the same variable (workers inherit the environment). An
 * unknown fault is a TesseraError: a test that misspells one must not pass without its fault.
 */
import { TesseraError } from '../errors.js';

export type FaultKind = 'worker-exit' | 'worker-throw' | 'gpu-fail' | 'gpu-oom' | 'gpu-gone' | 'disk-full';
const AT_STEP: ReadonlySet<string> = new Set(['worker-exit', 'worker-throw', 'gpu-fail', 'gpu-oom', 'disk-full']);

export interface Fault {
  kind: FaultKind;
  /** The superstep (unused for gpu-gone). */
  step: number;
  /** gpu-fail / gpu-oom: only this GPU device's actor (undefined: every one). */
  device?: number;
}

let parsedFrom: string | undefined;
let parsed: Fault[] = [];

/** The faults TESSERA_FAULT asks for (parsed once per value). */
export function faults(env: string | undefined = process.env.TESSERA_FAULT): Fault[] {
  if (env === undefined || env.trim() === '') return [];
  if (env === parsedFrom) return parsed;
  const out: Fault[] = [];
  for (const part of env.split(',').map((p) => p.trim())) {
    const m = /^([a-z-]+)(?:@(\d+))?(?::(\d+))?$/.exec(part);
    const kind = m?.[1];
    const ok = m !== null && kind !== undefined && (kind === 'gpu-gone' ? m[2] === undefined && m[3] === undefined : AT_STEP.has(kind) && m[2] !== undefined && (m[3] === undefined || kind.startsWith('gpu-')));
    if (!ok) {
      throw new TesseraError(`TESSERA_FAULT: '${part}' is not a fault`, {
        key: 'TESSERA_FAULT',
        fix: 'use worker-exit@K, worker-throw@K, gpu-fail@K, gpu-oom@K, disk-full@K or gpu-gone, comma separated (K: a superstep; gpu-fail@K:D one GPU device), or unset it',
      });
    }
    out.push({ kind: kind as FaultKind, step: m[2] === undefined ? 0 : Number(m[2]), ...(m[3] !== undefined ? { device: Number(m[3]) } : {}) });
  }
  parsedFrom = env;
  parsed = out;
  return out;
}

/** Whether `kind` is injected at superstep `step` (or at all, for gpu-gone), for GPU `device` where given. */
export function faultAt(kind: FaultKind, step = 0, device?: number): boolean {
  return faults().some((f) => f.kind === kind && (kind === 'gpu-gone' || f.step === step) && (f.device === undefined || f.device === device));
}

/** GPU actors: throws the device error gpu-fail@K / gpu-oom@K injects at superstep `step` (on `device`), as the native call would. */
export function injectGpuFault(step: number, device?: number): void {
  if (faultAt('gpu-fail', step, device)) throw Object.assign(new Error(`CUDA error 700: an illegal memory access was encountered (TESSERA_FAULT gpu-fail@${step})`), { code: 'TS_CUDA' });
  if (faultAt('gpu-oom', step, device)) throw Object.assign(new Error(`out of memory allocating device state (TESSERA_FAULT gpu-oom@${step})`), { code: 'TS_OOM' });
}

/** The highest superstep a run of this process has started (disk-full arms from its K on). */
let reached = -1;

export function reachedStep(step: number): void {
  if (step > reached) reached = step;
}

/** Whether a write now must fail as a full disk would (disk-full@K with K reached; a fault fires once). */
export function diskFullNow(): boolean {
  const f = faults().find((x) => x.kind === 'disk-full' && x.step <= reached);
  if (f === undefined || fired.has(f)) return false;
  fired.add(f);
  return true;
}
const fired = new WeakSet<Fault>();

/** The error a full disk gives (what fs reports: code ENOSPC). */
export function enospc(syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} '${file}' (TESSERA_FAULT)`), { code: 'ENOSPC', errno: -28, syscall, path: file });
}
