#!/bin/bash
# Session 53 device check: the build's native code on a real GPU (gpu-check every program, one GPU
# owning all and shared), tiny graphs and wcc small pages with the real GPU, a tessera run.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz
mkdir -p $OUT/r
nvidia-smi -L > $OUT/r/machine.txt; nproc >> $OUT/r/machine.txt; node --version >> $OUT/r/machine.txt
node -e "import('./dist/actors/gpu/native.js').then(m=>console.log(JSON.stringify(m.nativeAvailable())))" > $OUT/r/native.txt 2>&1
timeout 300 node scripts/gpu-check.mjs --gpu-share 1 > $OUT/r/gpu-check-1.txt 2>&1; echo "rc $?" >> $OUT/r/gpu-check-1.txt
timeout 200 node scripts/gpu-check.mjs --gpu-share 0.6 --no-bench > $OUT/r/gpu-check-06.txt 2>&1; echo "rc $?" >> $OUT/r/gpu-check-06.txt
cat > /tmp/tiny.mjs <<'JS'
import { buildGraph, PROGRAMS, run } from '/tmp/repo/dist/src/index.js';
import { prepareRun } from '/tmp/repo/dist/src/api.js';
const GPU = { name: 'g', source: 'device', sockets: [{ id: 0, threads: 4 }], gpus: [{ device: 0 }], interconnect: {}, model: {} };
const graphs = [[[13],[13],true],[[4],[9],true],[[0],[1],false],[[0,1,2],[1,2,0],true]];
let bad = 0, n = 0;
for (const [src, dst, directed] of graphs) {
  const g = buildGraph({ src, dst, directed });
  for (const p of PROGRAMS) {
    if (p.profile.weighted) continue;
    const params = {}; for (const [k, s] of Object.entries(p.params)) if (s.type === 'vertex') params[k] = g.ids.toOriginal[0];
    for (const o of [{ gpuShare: 1 }, { gpuShare: 0.6, partition: 'low' }]) {
      n++;
      try {
        const r = await run(g, p, { ...params, topology: GPU, ...o });
        const want = p.reference(g, prepareRun(g, p, params).params);
        const got = Array.from(r.values);
        if (got.some((x, i) => !(x === want[i] || Math.abs(x - want[i]) <= 1e-12 * Math.max(1, Math.abs(want[i]))))) { bad++; console.log('MISMATCH', p.name, JSON.stringify([src, dst, directed, o]), got, Array.from(want)); }
      } catch (e) { bad++; console.log('ERROR', p.name, JSON.stringify([src, dst, directed, o]), e.message); }
    }
  }
}
console.log(`tiny graphs on a real GPU: ${n - bad}/${n} equal the reference`);
JS
ln -sfn "$PWD" /tmp/repo
timeout 200 node /tmp/tiny.mjs > $OUT/r/tiny.txt 2>&1; echo "rc $?" >> $OUT/r/tiny.txt
timeout 120 node dist/test/fixtures/wcc/small-pages.js 30 > $OUT/r/wcc-small.txt 2>&1; echo "rc $?" >> $OUT/r/wcc-small.txt
node dist/src/cli/main.js generate rmat --scale 20 --weighted --out /tmp/g20.tsr > /dev/null 2>&1
for a in bfs wcc pr bc; do /usr/bin/time -f "wall %e s" node dist/src/cli/main.js run --algo $a --graph /tmp/g20.tsr >> $OUT/r/run20.txt 2>&1; done
tar czf $OUT/r.tgz -C $OUT r
