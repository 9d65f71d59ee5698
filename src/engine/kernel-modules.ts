/**
 * Kernel modules by URL: a program's CPU kernels are the named exports of one ES module, which
 * the coordinator and every socket actor's workers import by URL (a program in the user's own
 * file runs with no change to the package). Loaded once per process (thread) and kept.
 */
import { TesseraError } from '../errors.js';
import type { CpuKernel } from './kernel.js';

export interface KernelTable {
  url: string;
  table: Readonly<Record<string, CpuKernel>>;
}

const loaded = new Map<string, KernelTable>();
const loading = new Map<string, Promise<KernelTable>>();

function isKernel(x: unknown): x is CpuKernel {
  if (x === null || typeof x !== 'object') return false;
  const k = x as Record<string, unknown>;
  return typeof k.pull === 'function' || typeof k.push === 'function' || typeof k.vertex === 'function';
}

/** The kernels of the module at `url`, imported on first use. */
export function loadKernels(url: string, program = 'program'): Promise<KernelTable> {
  const done = loaded.get(url);
  if (done !== undefined) return Promise.resolve(done);
  let p = loading.get(url);
  if (p === undefined) {
    p = import(url).then(
      (mod: Record<string, unknown>) => {
        const table: Record<string, CpuKernel> = {};
        for (const [k, v] of Object.entries(mod)) if (isKernel(v)) table[k] = v;
        const t = { url, table };
        loaded.set(url, t);
        loading.delete(url);
        return t;
      },
      (e: Error) => {
        loading.delete(url);
        throw new TesseraError(`cannot load the kernels of program '${program}': ${e.message.split('\n')[0]}`, {
          file: url,
          fix: 'check the kernels URL of the definition (new URL("./kernels.js", import.meta.url)) names a built module',
        });
      },
    );
    loading.set(url, p);
  }
  return p;
}

/** The kernels of a module already loaded in this thread (undefined before loadKernels resolved). */
export function loadedKernels(url: string): KernelTable | undefined {
  return loaded.get(url);
}
