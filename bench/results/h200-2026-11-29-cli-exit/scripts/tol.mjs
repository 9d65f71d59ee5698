// node tol.mjs GRAPH REPS VARIANTS_JSON: the addon's louvainRounds (louvain's sequential path whole) on a graph's undirected view with opts varied; median ms and Q of each.
// louvainRounds on RMAT 16's view with varied opts: time (median of reps) and Q.
const R = process.env.ROOT ?? process.cwd();
const { nativeCpuKernels } = await import(R + '/dist/actors/gpu/native-host.js');
const { loadGraph } = await import(R + '/dist/src/graph/load.js');
const { undirectedView } = await import(R + '/dist/src/programs/louvain/serial.js');
const cpu = nativeCpuKernels();
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const g = undirectedView(graph);
let m2 = 0; for (let v = 0; v < g.n; v++) m2 += g.k[v];
const cores = (await import('node:os')).availableParallelism();
const base = { classes: 2, maxSweeps: 200, tol: 1e-7, roundTol: 1e-4, maxRounds: 4, batchVertices: cores >= 8 ? 512 : 0, batchEntries: 16384, moveBatches: 1 << 16, block: 1 << 14, compact: true };
const Q = (comm) => { let inside = 0; for (let v = 0; v < g.n; v++) for (let e = g.off[v]; e < g.off[v + 1]; e++) if (comm[g.adj[e]] === comm[v]) inside += g.wt ? g.wt[e] : 1; const t = new Float64Array(g.n); for (let v = 0; v < g.n; v++) t[comm[v]] += g.k[v]; let sq = 0; for (const x of t) sq += x * x; return inside / m2 - sq / (m2 * m2); };
const reps = Number(process.argv[3] ?? 7);
const variants = JSON.parse(process.argv[4] ?? '[{}]');
for (const v of variants) {
  const opts = { ...base, ...v };
  const ts = []; let r;
  for (let i = 0; i < reps; i++) { const t0 = performance.now(); r = cpu.louvainRounds(g.off, g.adj, g.wt ?? null, g.k, g.loop, 1, m2, opts); ts.push(performance.now() - t0); }
  ts.sort((a, b) => a - b);
  console.log(JSON.stringify(v), 'median', ts[reps >> 1].toFixed(1), 'min', ts[0].toFixed(1), 'Q', Q(r.comm).toFixed(5), 'levels', r.levels, 'rounds', r.rounds, 'sweeps', r.sweeps);
}
