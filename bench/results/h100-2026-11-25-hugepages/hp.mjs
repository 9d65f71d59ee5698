import { openSession } from '../dist/src/index.js';
import { readTsr } from '../dist/src/graph/tsr.js';
import os from 'node:os';
import fs from 'node:fs';
const g = await readTsr(process.argv[2]);
const s = await openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
const out = {};
for (const algo of process.argv[3].split(',')) {
  const ms = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : algo === 'pr' ? { iterations: 10 } : {});
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  out[algo] = +ms[2].toFixed(1);
}
const huge = fs.readFileSync('/proc/self/smaps_rollup', 'utf8').match(/AnonHugePages:\s+(\d+)/)?.[1];
console.log(JSON.stringify({ env: process.env.TESSERA_NO_HUGEPAGES ? 'off' : 'on', hugeKiB: +huge, ...out }));
await s.close();
