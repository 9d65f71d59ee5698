// node bpa.mjs SPEC REPS: tessera's generate(SPEC) (the library's generate + build, default threads), wall time
const [spec, reps] = process.argv.slice(2);
const { generate } = await import(`${process.cwd()}/dist/src/index.js`);
for (let r = 0; r < Number(reps ?? 1); r++) {
  const t0 = performance.now();
  const g = generate(spec);
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ spec, totalMs: +ms.toFixed(0), edges: g.numEdges, medgesPerS: +(g.numEdges / ms / 1000).toFixed(2), rssGiB: +(process.memoryUsage().rss / 2 ** 30).toFixed(2) }));
  if (global.gc) global.gc();
}
