// node lv.mjs GRAPH CONFIGS_JSON REPS: louvain's rounds in JS over the addon's passes (louvainMoveOrdered, louvainAggregate) with the sweep tolerance per level (tol0: level 0 of the first round, tolR0: of later rounds, tolC / tolCR: coarse levels) and sweep caps (max0, maxC); each pass timed, Q of the result.
const R = process.env.ROOT ?? process.cwd();
const { nativeCpuKernels } = await import(R + '/dist/actors/gpu/native-host.js');
const { loadGraph } = await import(R + '/dist/src/graph/load.js');
const S = await import(R + '/dist/src/programs/louvain/serial.js');
const cpu = nativeCpuKernels();
const { graph } = await loadGraph(process.argv[2] ?? 'rmat:16:weighted', {});
const g0 = S.undirectedView(graph);
let m2 = 0; for (let v = 0; v < g0.n; v++) m2 += g0.k[v];
const cores = (await import('node:os')).availableParallelism();
const Q = (g, comm) => { let inside = 0; for (let v = 0; v < g.n; v++) for (let e = g.off[v]; e < g.off[v + 1]; e++) if (comm[g.adj[e]] === comm[v]) inside += g.wt ? g.wt[e] : 1; const t = new Float64Array(g.n); for (let v = 0; v < g.n; v++) t[comm[v]] += g.k[v]; let sq = 0; for (const x of t) sq += x * x; return inside / m2 - sq / (m2 * m2); };
// compact
const n0 = g0.n; const to = new Int32Array(n0).fill(-1); let kept = 0; for (let v = 0; v < n0; v++) if (g0.off[v + 1] > g0.off[v]) to[v] = kept++;
const off = new Float64Array(kept + 1), k = new Float64Array(kept), loop = new Float64Array(kept);
for (let v = 0, i = 0; v < n0; v++) { if (to[v] < 0) continue; k[i] = g0.k[v]; off[i + 1] = off[i] + g0.off[v + 1] - g0.off[v]; i++; }
const adj = new Uint32Array(g0.adj.length); for (let e = 0; e < adj.length; e++) adj[e] = to[g0.adj[e]];
const g = { n: kept, off, adj, wt: g0.wt, k, loop };
const order0 = S.classOrder(n0); const order = new Uint32Array(kept); for (let i = 0, j = 0; i < n0; i++) if (to[order0[i]] >= 0) order[j++] = to[order0[i]];
const pick = (t, lev) => (Array.isArray(t) ? t[Math.min(lev - 1, t.length - 1)] : t);
const batchOf = (gg) => (gg.adj.length >= (1 << 16) && cores >= 8 && process.env.NOBATCH !== '1' ? 512 : 0);
const move = (gg, comm, tot, size, ord, tol, maxSweeps = 200) => cpu.louvainMoveOrdered(gg.off, gg.adj, gg.wt ?? null, gg.k, comm, tot, size, ord, 1, m2, maxSweeps, tol, batchOf(gg), 16384);
const agg = (gg, comm, C) => ({ n: C, ...cpu.louvainAggregate(gg.off, gg.adj, gg.wt ?? null, gg.k, gg.loop, comm, C, 1 << 14) });
const ident = (n) => { const a = new Uint32Array(n); for (let i = 0; i < n; i++) a[i] = i; return a; };
function run(cfg, log) {
  const n = g.n; const comm = ident(n); const tot = new Float64Array(n), size = new Uint32Array(n);
  let rounds = 0;
  while (rounds < (cfg.maxRounds ?? 4)) {
    tot.fill(0); size.fill(0); for (let v = 0; v < n; v++) (tot[comm[v]] += g.k[v]), size[comm[v]]++;
    let t0 = performance.now();
    const mv = move(g, comm, tot, size, order, rounds === 0 ? cfg.tol0 : cfg.tolR0 ?? cfg.tol0, cfg.max0);
    log.push(`r${rounds} L0 ${(performance.now() - t0).toFixed(1)} sweeps ${mv.sweeps}`);
    if (rounds > 0 && mv.gain < (cfg.roundTol ?? 1e-4)) break;
    const C = S.relabel(comm);
    let merged = 0;
    if (C < n) {
      let gg = agg(g, comm, C); const top = ident(C); let lev = 1;
      for (;;) {
        const c = ident(gg.n); const tt = gg.k.slice();
        t0 = performance.now();
        const m = move(gg, c, tt, new Uint32Array(gg.n).fill(1), ident(gg.n), pick(rounds === 0 ? cfg.tolC : cfg.tolCR ?? cfg.tolC, lev), cfg.maxC);
        log.push(`r${rounds} L${lev} n ${gg.n} e ${gg.adj.length} ${(performance.now() - t0).toFixed(1)} sweeps ${m.sweeps}`);
        const CC = S.relabel(c); if (CC === gg.n) break;
        lev++; merged++;
        for (let v = 0; v < C; v++) top[v] = c[top[v]];
        gg = agg(gg, c, CC);
      }
      merged += 1;
      for (let v = 0; v < n; v++) comm[v] = top[comm[v]];
    }
    rounds++;
    if (merged <= 1) break;
  }
  return { comm, rounds };
}
const cfgs = JSON.parse(process.argv[3] ?? '[{}]'); const reps = Number(process.argv[4] ?? 5);
for (const c of cfgs) {
  const cfg = { tol0: 1e-7, tolC: 1e-7, ...c };
  const ts = []; let r, log;
  for (let i = 0; i < reps; i++) { log = []; const t0 = performance.now(); r = run(cfg, log); ts.push(performance.now() - t0); }
  ts.sort((a, b) => a - b);
  console.log(JSON.stringify(c), 'median', ts[reps >> 1].toFixed(1), 'Q', Q(g, r.comm).toFixed(5), 'rounds', r.rounds, '|', log.join('; '));
}
