// Side-by-side GPU-only speed of two builds: node speed20.mjs ROOT GRAPH.tsr LABEL -> one JSON line.
import path from 'node:path';
import os from 'node:os';
const [root, tsr, label] = process.argv.slice(2);
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { readTsr } = await dist('src/graph/tsr.js');
const idx = await dist('src/programs/index.js');
const { prepareRun } = await dist('src/api.js');
const g = await readTsr(tsr);
const threads = os.availableParallelism();
const topo = { name: '1S1G', source: 'speed', sockets: [{ id: 0, threads }], gpus: [{ device: 0, streams: 4, emulated: process.env.EMU === '1' }], interconnect: {}, model: {} };
const out = { label, vertices: g.numVertices, edges: g.numEdges, cells: {} };
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
for (const [cell, name, o, mode] of [
  ['bfs', 'bfs', { source: g.ids.toOriginal[0] }, undefined],
  ['bfs:push', 'bfs', { source: g.ids.toOriginal[0] }, 'push'],
  ['sssp', 'sssp', { source: g.ids.toOriginal[0] }, undefined],
  ['pr', 'pr', { iterations: 10, damping: 0.85 }, undefined],
]) {
  const p = idx.findProgram(name);
  const params = prepareRun(g, p, o).params;
  const e = await Engine.create(g, topo, { gpuShare: 1, steal: 'off', ...(mode ? { forceMode: mode } : {}) });
  const ms = [], up = [];
  try {
    for (let r = 0; r < 6; r++) {
      const { report } = await e.run(p, params);
      if (r > 0) ms.push(report.totalMs);
      if (r > 0) up.push(report.steps.reduce((s, st) => s + (st.actors.find((a) => a.gpu)?.gpu?.stateBytesIn ?? 0), 0) / 2 ** 20);
    }
  } finally {
    await e.close();
  }
  out.cells[cell] = { medianMs: med(ms), runs: ms.map((x) => +x.toFixed(1)), uploadMiB: +med(up).toFixed(1) };
}
console.log(JSON.stringify(out));
