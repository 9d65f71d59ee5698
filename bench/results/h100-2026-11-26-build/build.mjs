// node build.mjs ROOT SPEC [TSR]: generate+build time of SPEC, and with TSR the load time of that .tsr
const [root, spec, tsr] = process.argv.slice(2);
const api = await import(`${root}/dist/src/index.js`);
const t0 = performance.now();
const { graph } = await api.loadGraph(spec);
const ms = performance.now() - t0;
const out = { root, spec, buildMs: +ms.toFixed(0), edges: graph.numEdges, medgesPerS: +(graph.numEdges / ms / 1000).toFixed(2) };
if (tsr) {
  const t1 = performance.now();
  const { graph: g2 } = await api.loadGraph(tsr);
  const lm = performance.now() - t1;
  const { statSync } = await import('node:fs');
  const bytes = statSync(tsr).size;
  Object.assign(out, { loadMs: +lm.toFixed(0), tsrBytes: bytes, gbPerS: +(bytes / lm / 1e6).toFixed(2), sameEdges: g2.numEdges === graph.numEdges });
}
console.log(JSON.stringify(out));
