// node build2.mjs SPEC T...: generate + build time of SPEC with T threads (both phases), each once
const [spec, ...ts] = process.argv.slice(2);
const { buildGraph } = await import(`${process.cwd()}/dist/src/graph/build.js`);
const { generateEdges } = await import(`${process.cwd()}/dist/src/graph/generate/index.js`);
for (const t of ts.map(Number)) {
  const t0 = performance.now();
  const raw = generateEdges(spec, { threads: t });
  const t1 = performance.now();
  const g = buildGraph(raw, { threads: t });
  const t2 = performance.now();
  console.log(JSON.stringify({ spec, threads: t, generateMs: +(t1 - t0).toFixed(0), buildMs: +(t2 - t1).toFixed(0), totalMs: +(t2 - t0).toFixed(0), medgesPerS: +(g.numEdges / (t2 - t0) / 1000).toFixed(2), rssGiB: +(process.memoryUsage().rss / 2 ** 30).toFixed(2) }));
  if (global.gc) global.gc();
}
