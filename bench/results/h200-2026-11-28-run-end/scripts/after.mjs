// node after.mjs PROGRAM GRAPH.tsr RUNS: ft.mjs's runs, each with Engine.run's wall time beside the report's totalMs (what the caller waits for after it: Run.finish, the report) and Run.finish's time; with a build whose finish records its parts in globalThis.__fin (replenish, each bitmap's fill), those too. ROOT: the build.
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const { Run } = await import(path.join(root, 'dist/src/engine/run.js'));
const { Engine } = await import(path.join(root, 'dist/src/engine/coordinator.js'));
globalThis.__fin = [];
const f = Run.prototype.finish;
Run.prototype.finish = function (v) { const s = performance.now(); const r = f.call(this, v); globalThis.__fin.push(`finish ${(performance.now() - s).toFixed(2)}`); return r; };
const run0 = Engine.prototype.run;
Engine.prototype.run = async function (...a) {
  const s = performance.now();
  const r = await run0.apply(this, a);
  const wall = performance.now() - s;
  console.log(`wall ${wall.toFixed(2)} total ${r.report.totalMs.toFixed(2)} after ${(wall - r.report.totalMs).toFixed(2)} | ${globalThis.__fin.join(' ')}`);
  globalThis.__fin = [];
  return r;
};
await import(path.join(process.cwd(), 'bench/results/h200-2026-11-28-wcc-first/scripts/ft.mjs'));
