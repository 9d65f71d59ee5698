/**
 * Piscina's entry for warmTwoSideCounts' workers: CommonJS, so piscina's require() loads it
 * plainly (see actors/cpu/worker-entry.cts), and the pass itself (ESM) is imported once per thread.
 */
import type { TwoSideTask, HolderSums } from './two-side.js' with { 'resolution-mode': 'import' };

type Run = (t: TwoSideTask) => HolderSums[];
let run: Promise<Run> | undefined;

export = async function task(t: TwoSideTask): Promise<HolderSums[]> {
  run ??= import('./two-side.js').then((m) => m.runTwoSideTask);
  return (await run)(t);
};
