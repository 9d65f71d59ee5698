// On the real GPU: hops rounds (vertexMap reset, resident; driver reset, not resident) on a GPU
// owning every vertex and on a split, against the serial BFS from the last source.
const root = process.cwd();
const { run, generate } = await import(`${root}/dist/src/index.js`);
const { hopsRoundsMapped, hopsRoundsDriver } = await import(`${root}/dist/test/fixtures/operators/rounds.js`);
const { referenceBfs } = await import(`${root}/dist/src/programs/bfs/reference.js`);
const g = generate('rmat:18:ef=16');
const internal = [0, 1, 2];
const sources = internal.map((v) => g.ids.toOriginal[v]);
const want = referenceBfs(g, 2);
const topology = { name: '1S1G', source: 'probe', sockets: [{ id: 0, threads: 4 }], gpus: [{ device: 0, emulated: false, streams: 4 }], interconnect: {}, model: {} };
let bad = 0;
for (const p of [hopsRoundsMapped, hopsRoundsDriver])
  for (const gpuShare of [1, 0.5])
    for (const forceMode of ['push', 'pull', undefined]) {
      const r = await run(g, p, { topology, gpuShare, steal: 'off', sources, ...(forceMode ? { forceMode } : {}) });
      const ok = r.values.every((x, v) => x === want[v]);
      const up = r.report.steps.map((s) => s.actors.find((a) => a.kind === 'gpu')?.gpu?.stateBytesIn ?? 0);
      if (!ok) bad++;
      console.log(`${p.name} gpuShare ${gpuShare} ${forceMode ?? 'switch'}: ${ok ? 'equal' : 'DIFFERENT'}; state in per step ${up.join(',')}`);
    }
process.exit(bad ? 1 : 0);
