/**
 * Kernel modules by URL: a program's CPU kernels are the named exports of one ES module, which
 * the coordinator and every socket actor's workers import by URL (a program in the user's own
 * file runs with no change to the package). Loaded once per process (thread) and kept.
 */
import { TesseraError } from '../errors.js';
import type { CpuKernel } from './kernel.js';

/** The named exports of one module that a loader accepted (kernels, GPU handlers). */
export interface ExportTable<T> {
  url: string;
  table: Readonly<Record<string, T>>;
}
export type KernelTable = ExportTable<CpuKernel>;

/** Per kind of table and URL: the table once imported (read synchronously), and the import in flight. */
const loaded = new Map<string, ExportTable<unknown>>();
const loading = new Map<string, Promise<ExportTable<unknown>>>();

/**
 * The named exports of the module at `url` that `is` accepts, imported once per thread and kind
 * (a failed import is tried again next time; `fail` turns its error into the one to throw).
 */
export function loadExports<T>(kind: string, url: string, is: (x: unknown) => x is T, fail: (e: Error) => Error): Promise<ExportTable<T>> {
  const key = `${kind} ${url}`;
  const done = loaded.get(key);
  if (done !== undefined) return Promise.resolve(done as ExportTable<T>);
  let p = loading.get(key);
  if (p === undefined) {
    p = import(url).then(
      (mod: Record<string, unknown>) => {
        const table: Record<string, T> = {};
        for (const [k, v] of Object.entries(mod)) if (is(v)) table[k] = v;
        const t = { url, table };
        loaded.set(key, t);
        loading.delete(key);
        return t;
      },
      (e: Error) => {
        loading.delete(key);
        throw fail(e);
      },
    );
    loading.set(key, p);
  }
  return p as Promise<ExportTable<T>>;
}

function isKernel(x: unknown): x is CpuKernel {
  if (x === null || typeof x !== 'object') return false;
  const k = x as Record<string, unknown>;
  return typeof k.pull === 'function' || typeof k.push === 'function' || typeof k.vertex === 'function' || typeof k.team === 'function';
}

/** The kernels of the module at `url`, imported on first use. */
export function loadKernels(url: string, program = 'program'): Promise<KernelTable> {
  return loadExports('kernels', url, isKernel, (e) =>
    new TesseraError(`cannot load the kernels of program '${program}': ${e.message.split('\n')[0]}`, {
      file: url,
      fix: 'check the kernels URL of the definition (new URL("./kernels.js", import.meta.url)) names a built module',
    }),
  );
}

/** The kernels of a module already loaded in this thread (undefined before loadKernels resolved). */
export function loadedKernels(url: string): KernelTable | undefined {
  return loaded.get(`kernels ${url}`) as KernelTable | undefined;
}
