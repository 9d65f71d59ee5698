#!/bin/bash
# Last call: GPU-only PageRank / BFS on RMAT 24, the pre-port build (316ff71) against this one,
# alternated (no speed lost across this session's native changes); the NVRTC fallback (a
# program with operators where NVRTC does not load runs on the CPU sockets and says why).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules && mkdir -p /tmp/before/build && ln -sfn "$PWD/build/Release" /tmp/before/build/Release
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi -L; nproc; git log --oneline -1 2>/dev/null; } > $OUT/machine.txt 2>&1
cat > /tmp/fallback.mjs <<'JS'
import { generate, run } from '/work/main/dist/src/index.js';
import { hits } from '/work/main/dist/examples/hits/index.js';
import { referenceHits } from '/work/main/dist/examples/hits/reference.js';
process.on('warning', (w) => console.log('warning:', w.message));
const topo = { name: '1S1G', source: 't', sockets: [{ id: 0, threads: 4 }], gpus: [{ device: 0, emulated: false, streams: 2 }], interconnect: {}, model: {} };
const g = generate('rmat:12');
const r = await run(g, hits, { topology: topo, iterations: 5 });
const want = referenceHits(g, 5);
console.log('NVRTC', process.env.TESSERA_NVRTC ?? 'default', 'gpus used', r.report.topology.gpus.length, 'max diff', Math.max(...r.values.map((x, i) => Math.abs(x - want[i]))));
JS
sed -i "s|/work/main|$PWD|g" /tmp/fallback.mjs
TESSERA_NVRTC=/nonexistent/libnvrtc.so node /tmp/fallback.mjs > $OUT/fallback.txt 2>&1
node /tmp/fallback.mjs >> $OUT/fallback.txt 2>&1
t0=$(date +%s)
node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > $OUT/gen.txt 2>&1; echo "generate rc=$? $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
for i in 1 2 3; do
  node .device/speed.mjs /tmp/before /tmp/g24.tsr before >> $OUT/speed.jsonl 2>> $OUT/speed.err
  node .device/speed.mjs "$PWD" /tmp/g24.tsr after >> $OUT/speed.jsonl 2>> $OUT/speed.err
done
echo "speed done $(( $(date +%s) - t0 ))s" >> $OUT/machine.txt
timeout 60 python3 .device/gpu_anchors.py 24 > $OUT/anchors.txt 2>&1
cat $OUT/machine.txt $OUT/fallback.txt $OUT/speed.jsonl; tail -3 $OUT/speed.err; grep -v Warning $OUT/anchors.txt | grep -v sparse_coo
