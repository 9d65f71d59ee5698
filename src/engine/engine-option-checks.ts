/**
 * EngineOptions checked before an engine starts (run(), openSession, the harness): a value of the
 * wrong kind is one line naming the option and what it takes, never a silent default (a string
 * pullDivisor compared as NaN made every superstep push) or a TypeError from deep inside.
 */
import { TesseraError } from '../errors.js';
import type { EngineOptions } from './engine-options.js';
import { Prestart } from './prestart.js';

/** Every EngineOptions key (a Record: a new option not listed here fails to compile). */
const KEYS: Record<keyof EngineOptions, true> = {
  events: true, pullDivisor: true, forceMode: true, teams: true, gpuShare: true, steal: true, partition: true, multiGpu: true,
  partitionSeed: true, partitionPages: true, ownership: true, preload: true, runs: true, prestart: true,
};

function oneOf(key: string, v: unknown, allowed: readonly string[]): void {
  if (v !== undefined && !allowed.includes(v as string)) throw new TesseraError(`${key} ${JSON.stringify(v) ?? String(v)} is not one of ${allowed.map((a) => `'${a}'`).join(', ')}`, { key, fix: `give ${allowed.map((a) => `'${a}'`).join(' or ')}, or leave it out` });
}

/** Throws the one-line error for the first option of the wrong kind (unknown keys are the caller's: run's are program parameters). */
export function checkEngineOptions(opts: EngineOptions): void {
  if (opts === null || typeof opts !== 'object') throw new TesseraError(`the engine's options are ${String(opts)}`, { fix: 'pass an object, e.g. { topology: "configs/1S.yaml" }' });
  const o = opts as Record<keyof EngineOptions, unknown>;
  if (o.events !== undefined && typeof (o.events as { emit?: unknown } | null)?.emit !== 'function')
    throw new TesseraError('events is not an emitter', { key: 'events', fix: 'give an object with emit(name, ...args): eventemitter3, node:events, or your own' });
  if (o.pullDivisor !== undefined && !(typeof o.pullDivisor === 'number' && o.pullDivisor > 0 && Number.isFinite(o.pullDivisor)))
    throw new TesseraError(`pullDivisor ${JSON.stringify(o.pullDivisor) ?? String(o.pullDivisor)} is not a positive number`, { key: 'pullDivisor', fix: 'give e.g. 20 (pull when the frontier and its out-edges exceed |E| / 20)' });
  oneOf('forceMode', o.forceMode, ['push', 'pull']);
  if (o.teams !== undefined && typeof o.teams !== 'boolean') throw new TesseraError(`teams ${JSON.stringify(o.teams)} is not true or false`, { key: 'teams', fix: 'give true or false' });
  if (o.gpuShare !== undefined && typeof o.gpuShare !== 'number')
    throw new TesseraError(`gpuShare ${JSON.stringify(o.gpuShare) ?? String(o.gpuShare)} is not a number`, { key: 'gpuShare', fix: 'give a number from 0 (CPU sockets do everything) to 1 (GPUs do everything)' });
  oneOf('steal', o.steal, ['auto', 'off', 'always']);
  oneOf('partition', o.partition, ['high', 'low', 'rand']);
  oneOf('partitionPages', o.partitionPages, ['in', 'out']);
  oneOf('runs', o.runs, ['one', 'many']);
  if (o.partitionSeed !== undefined && !(Number.isSafeInteger(o.partitionSeed) && (o.partitionSeed as number) >= 0))
    throw new TesseraError(`partitionSeed ${JSON.stringify(o.partitionSeed) ?? String(o.partitionSeed)} is not a whole number from 0`, { key: 'partitionSeed', fix: 'give e.g. 1' });
  if (o.ownership !== undefined && !Array.isArray(o.ownership))
    throw new TesseraError('ownership is not a list per GPU of [begin, end) ranges', { key: 'ownership', fix: 'give e.g. [[[0, 1000]]] for one GPU owning ids 0..999' });
  if (o.preload !== undefined && !(Array.isArray(o.preload) && o.preload.every((p) => (p as { defined?: unknown } | null)?.defined === true)))
    throw new TesseraError('preload is not a list of programs', { key: 'preload', fix: 'give definitions from defineProgram (or PROGRAMS.bfs, ...), or leave it out' });
  if (o.prestart !== undefined && !(o.prestart instanceof Prestart)) throw new TesseraError('prestart is not a Prestart', { key: 'prestart', fix: 'give new Prestart(topology), or leave it out' });
}

/** Whether `k` is an EngineOptions key. */
export function isEngineOption(k: string): boolean {
  return k in KEYS;
}
