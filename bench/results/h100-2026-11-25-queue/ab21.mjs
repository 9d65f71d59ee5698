// Session warm medians (6 runs, first excluded) of bfs, wcc, pr, sssp on 1S (every core): node ab21.mjs ROOT G.tsr LABEL
import os from 'node:os';
const [root, tsr, label] = process.argv.slice(2);
const { openSession } = await import(`${root}/dist/src/index.js`);
const { readTsr } = await import(`${root}/dist/src/graph/tsr.js`);
const g = await readTsr(tsr);
const s = await openSession(g, { topology: { name: '1S', sockets: [{ id: 0, threads: os.availableParallelism() }] } });
const out = { label };
for (const algo of ['bfs', 'wcc', 'pr', 'sssp']) {
  const ms = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    await s.run(algo, algo === 'bfs' || algo === 'sssp' ? { source: g.ids.toOriginal[0] } : algo === 'pr' ? { iterations: 10 } : {});
    ms.push(+(performance.now() - t0).toFixed(1));
  }
  const w = ms.slice(1).sort((a, b) => a - b);
  out[algo] = { first: ms[0], median: w[2], runs: ms };
}
await s.close();
console.log(JSON.stringify(out));
