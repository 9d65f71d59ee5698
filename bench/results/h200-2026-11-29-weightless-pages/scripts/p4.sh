#!/bin/bash
# Call 4: where a GPU's page copies go (B = HEAD): the link's pinned and pageable rates (gpu_anchors.py, RMAT 22 for its cuSPARSE line);
# PageRank (10 iterations) on RMAT 24 weighted with the GPU capped at 2 GiB, each superstep's copies (misses, MiB, copy, pin, kernel ms);
# a GPU-only wcc engine's create with 4, 8 (the default on 16 cores) and 16 staging threads (TESSERA_STAGING_THREADS), the preload's span from tl.mjs.
set -u
. bench/results/h200-2026-11-29-warm-reps/scripts/setup.sh
T=bench/results/h200-2026-11-29-cli-timeline/scripts
python3 .device/gpu_anchors.py 22 > /tmp/o/anchors.txt 2>&1
sed "s/    streams: 4/    streams: 4\n    memoryLimit: 2GiB/" configs/1S1G-pcie5.yaml > /tmp/o/t-2GiB.yaml
for i in 1 2; do
  node dist/src/cli/main.js run --graph /tmp/g24.tsr --algo pr --iterations 10 --topology /tmp/o/t-2GiB.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>&1
  python3 -c "
import json;r=json.load(open('/tmp/o/r.json'))
print('== pr 2GiB total',round(r['totalMs'],2))
for s in r['steps']:
  for a in s['actors']:
    g=a.get('gpu')
    if g and g.get('pages',0)>0: print('  step',s.get('step'),'misses',g.get('misses'),'MiB',round(g.get('pageBytes',0)/2**20),'copyMs',round(g.get('copyMs',0),2),'pinMs',round(g.get('pinMs',0) or 0,2),'kernelMs',round(g.get('kernelMs',0),2),'runMs',round(g.get('runMs',0) or 0,2))
"
done > /tmp/o/stream-steps.txt 2>&1
for th in 4 8 16 4 8 16; do
  export TESSERA_STAGING_THREADS=$th
  node --import ./$T/tl.mjs dist/src/cli/main.js run --graph /tmp/g24.tsr --algo wcc --topology configs/1S1G-pcie5.yaml --alpha 0 -q --report /tmp/o/r.json > /dev/null 2>/tmp/o/err.txt
  echo "== staging threads $th start $(python3 -c "import json;print(round(json.load(open('/tmp/o/r.json'))['startMs']))") $(grep -E 'gpu.preload|gpu.registerPageSet|gpu.allocState' /tmp/o/err.txt | tr -s ' ' | tr '\n' ';')"
done > /tmp/o/staging.txt 2>&1
unset TESSERA_STAGING_THREADS
tar cJf $OUT/call4.tar.xz -C /tmp/o .
cat /tmp/o/anchors.txt /tmp/o/stream-steps.txt /tmp/o/staging.txt
