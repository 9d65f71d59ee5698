// Side-by-side GPU speed of two builds: node speed.mjs ROOT GRAPH.tsr LABEL -> one JSON line.
import path from 'node:path';
import os from 'node:os';
const [root, tsr, label] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const idx = await dist('src/programs/index.js');
let lookup;
if (idx.findProgram) {
  const { prepareRun } = await dist('src/api.js');
  lookup = (g, name, o) => { const p = idx.findProgram(name); return { program: p, params: prepareRun(g, p, o).params }; };
} else {
  lookup = (g, name, o) => { const e = idx.algorithm(name); return { program: e.program, params: e.params(g, o, {}) }; };
}
const g = await readTsr(tsr);
const threads = os.availableParallelism();
const topo = { name: '1S1G', source: 'speed', sockets: [{ id: 0, threads }], gpus: [{ device: 0, streams: 4, emulated: process.env.EMU === '1' }], interconnect: {}, model: {} };
const out = { label, root, vertices: g.numVertices, edges: g.numEdges, cells: {} };
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
for (const [cell, name, o, mode] of [
  ['pr', 'pr', { iterations: 10, damping: 0.85 }, undefined],
  ['bfs', 'bfs', { source: g.ids.toOriginal[0] }, undefined],
  ['bfs:push', 'bfs', { source: g.ids.toOriginal[0] }, 'push'],
].filter(([c]) => (process.env.CELLS ?? 'pr,bfs,bfs:push').split(',').includes(c))) {
  const { program, params } = lookup(g, name, o);
  const e = await Engine.create(g, topo, { gpuShare: 1, steal: 'off', ...(mode ? { forceMode: mode } : {}) });
  const ms = [];
  try {
    for (let r = 0; r < Number(process.env.RUNS ?? 6); r++) {
      const { report } = await e.run(program, params);
      if (r > 0) ms.push(report.totalMs);
    }
  } finally {
    await e.close();
  }
  out.cells[cell] = { medianMs: med(ms), runs: ms.map((x) => +x.toFixed(1)) };
}
console.log(JSON.stringify(out));
