#!/usr/bin/env node
/**
 * Transfers of the GPU operator path against a precompiled handler: runs the test program `hops`
 * (BFS as a GPU operator: test/fixtures/operators) and the built-in `bfs` from the same source on
 * a topology whose one GPU owns every vertex (gpuShare 1, no stealing), and prints per program the
 * median wall time of a run, its supersteps and the bytes moved between host and device (state
 * up, state down, pages), each the median over the timed runs.
 *
 *   node scripts/operator-transfers.mjs [GRAPH] [--emulated] [--runs 5] [--mode push|pull]
 *        [--device 0] [--memory-limit 8GiB] [--root DIR] [--json]
 *
 * GRAPH: any loadGraph spec (default rmat:20). --emulated runs the GPU on the host (its times say
 * nothing about a GPU; the bytes are the same). --root runs another checkout's build (dist/ and
 * its addon), e.g. the commit before, on the same machine. --json prints one JSON line instead.
 * Needs `npm run build` (dist/) and the addon.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const valued = new Set(['--runs', '--mode', '--device', '--memory-limit', '--root']);
const root = path.resolve(opt('root', path.join(path.dirname(fileURLToPath(import.meta.url)), '..')));
const dist = (p) => import(path.join(root, 'dist', p));
const { openSession } = await dist('src/index.js');
const { loadGraph } = await dist('src/graph/load.js');
const { hops } = await dist('test/fixtures/operators/programs.js');
const { parseSize } = await dist('src/topology/schema.js');
const spec = args.find((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? '')) ?? 'rmat:20';
const runs = Number(opt('runs', 5));
const mode = opt('mode');
const emulated = args.includes('--emulated');
const limit = opt('memory-limit');

const { graph } = await loadGraph(spec);
const topology = {
  name: emulated ? '1S1G-emulated' : '1S1G',
  source: 'operator-transfers',
  sockets: [{ id: 0, threads: 1 }],
  gpus: [{ device: Number(opt('device', 0)), emulated, streams: 4, ...(limit ? { memoryLimit: parseSize(limit) } : {}) }],
  interconnect: {},
  model: {},
};
const source = graph.ids.toOriginal[0];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

const s = await openSession(graph, { topology, gpuShare: 1, steal: 'off', ...(mode ? { forceMode: mode } : {}) });
const rows = [];
try {
  for (const [label, program] of [['hops (operator)', hops], ['bfs (built-in)', 'bfs']]) {
    let want;
    const ms = [];
    const bytes = { in: [], out: [], pages: [] };
    let steps = 0;
    // The first run compiles/loads the operator module and warms the page cache: not timed.
    for (let r = 0; r <= runs; r++) {
      const t0 = performance.now();
      const res = await s.run(program, { source });
      const wall = performance.now() - t0;
      const values = Array.from(res.values, Number);
      if (want === undefined) want = values;
      else if (values.some((v, i) => v !== want[i])) throw new Error(`${label}: run ${r} differs from run 0`);
      if (r === 0) continue;
      ms.push(wall);
      let i = 0, o = 0, p = 0;
      for (const st of res.report.steps)
        for (const a of st.actors) if (a.gpu) (i += a.gpu.stateBytesIn), (o += a.gpu.stateBytesOut), (p += a.gpu.pageBytes);
      bytes.in.push(i);
      bytes.out.push(o);
      bytes.pages.push(p);
      steps = res.report.supersteps;
    }
    rows.push({ label, want, ms: median(ms), steps, in: median(bytes.in), out: median(bytes.out), pages: median(bytes.pages) });
  }
} finally {
  await s.close();
}
const same = rows[0].want.every((v, i) => v === rows[1].want[i]);
if (args.includes('--json')) {
  const cells = Object.fromEntries(rows.map((r) => [r.label.split(' ')[0], { ms: r.ms, supersteps: r.steps, stateIn: r.in, stateOut: r.out, pages: r.pages }]));
  console.log(JSON.stringify({ graph: spec, root, emulated, mode: mode ?? 'switch', runs, same, ...cells }));
  process.exit(same ? 0 : 1);
}
console.log(`${spec}: ${graph.numVertices} vertices, ${graph.numEdges} edges; ${emulated ? 'EMULATED GPU' : 'GPU'} owning every vertex; median of ${runs} runs${mode ? `, ${mode} only` : ''}`);
for (const r of rows)
  console.log(`  ${r.label.padEnd(16)} ${r.ms.toFixed(1).padStart(9)} ms  ${String(r.steps).padStart(3)} supersteps  state in ${mib(r.in).padStart(12)}  state out ${mib(r.out).padStart(12)}  pages ${mib(r.pages).padStart(12)}`);
console.log(`  hops / bfs: ${(rows[0].ms / rows[1].ms).toFixed(2)}x time; depths ${same ? 'equal' : 'DIFFER'}`);
if (!same) process.exit(1);
