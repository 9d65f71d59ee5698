// node wcheck2.mjs FILE : wcc on one socket of every core (the team) against the serial reference, 3 runs.
import path from 'node:path';
import os from 'node:os';
const root = process.env.ROOT ?? '/work/main';
const dist = (p) => import(path.join(root, 'dist', p));
const { Engine } = await dist('src/engine/coordinator.js');
const { wcc } = await dist('src/programs/index.js');
const { referenceWcc } = await dist('src/programs/wcc/reference.js');
const g0 = await (await dist('src/graph/tsr.js')).readTsr(process.argv[2]); const g = g0.graph ?? g0;
const e = await Engine.create(g, { name: '1S', source: 'w', sockets: [{ id: 0, threads: os.availableParallelism() }], gpus: [], interconnect: {}, model: {} }, {});
const ref = referenceWcc(g);
for (let r = 0; r < 3; r++) {
  const res = await e.run(wcc, {});
  let bad = 0;
  for (let v = 0; v < ref.length; v++) if (res.values[v] !== ref[v]) bad++;
  console.log('run', r, res.report.steps.map((s) => `${s.kernel}/${s.team ?? ''}`).join(' '), 'bad', bad, 'ms', res.report.totalMs.toFixed(1));
}
await e.close();
