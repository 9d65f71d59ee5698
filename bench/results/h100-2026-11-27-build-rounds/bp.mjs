// node bp.mjs SPEC T REPS: generate + build of SPEC with T threads, the build's phases (onPhase, GC included)
const [spec, ts, reps] = process.argv.slice(2);
const { buildGraph } = await import(`${process.cwd()}/dist/src/graph/build.js`);
const { generateEdges } = await import(`${process.cwd()}/dist/src/graph/generate/index.js`);
const t = Number(ts);
for (let r = 0; r < Number(reps ?? 1); r++) {
  const t0 = performance.now();
  const raw = generateEdges(spec, { threads: t });
  const t1 = performance.now();
  const phases = {};
  const g = buildGraph(raw, { threads: t, onPhase: (p, ms) => { phases[p] = +ms.toFixed(0); } });
  const t2 = performance.now();
  console.log(JSON.stringify({ spec, threads: t, generateMs: +(t1 - t0).toFixed(0), buildMs: +(t2 - t1).toFixed(0), phases, totalMs: +(t2 - t0).toFixed(0), medgesPerS: +(g.numEdges / (t2 - t0) / 1000).toFixed(2), rssGiB: +(process.memoryUsage().rss / 2 ** 30).toFixed(2) }));
  if (global.gc) global.gc();
}
