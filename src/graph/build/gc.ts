/**
 * A full garbage collection between build phases, so that what a phase released (raw chunks,
 * staging chunks, tables) is returned before the next phase allocates: V8 frees array buffers
 * only when it collects, and a long synchronous build allocates too little on the JS heap for its
 * own heuristics to run in time (peak memory would then hold two phases' worth of buffers).
 * `gc` is taken from the global (node --expose-gc) or, as Jest does for --logHeapUsage, from a
 * fresh context created while --expose-gc is briefly on. A full collection costs milliseconds
 * here: the JS heap is small, the big data are leaves.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gcFn: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (gcFn === undefined) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === 'function') gcFn = g;
    else {
      try {
        v8.setFlagsFromString('--expose-gc');
        gcFn = vm.runInNewContext('gc') as () => void;
        v8.setFlagsFromString('--no-expose-gc');
      } catch {
        gcFn = null;
      }
    }
  }
  gcFn?.();
}
