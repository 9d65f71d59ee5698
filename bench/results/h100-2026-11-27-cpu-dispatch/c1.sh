#!/bin/bash
# Session 34 call 7 (nvidia-h100-x1, 16 cores; build of ba3f... the session's CPU path as 7cece28):
# where a superstep's fixed cost goes on 16 threads: no-op vertex maps with the main thread's
# profile (nopprof.mjs, probe/k.mjs; topprof.py sums self time), tl.mjs timelines of bfs and wcc
# (30 runs), the harness RMAT 22 bfs, wcc against GAPBS (built from its source in .device/gapbs,
# not committed).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1)
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/nopprof.mjs /tmp/g.tsr 16 /tmp/nop16.cpuprofile > /tmp/o/nop16.txt 2>&1
python3 .device/topprof.py /tmp/nop16.cpuprofile 45 >> /tmp/o/nop16.txt 2>&1
node .device/nopprof.mjs /tmp/g.tsr 15 /tmp/nop15.cpuprofile > /tmp/o/nop15.txt 2>&1
for c in wcc bfs; do node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1; TL_THREADS=15 node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl15-$c.txt 2>&1; done
timeout 300 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; head -30 /tmp/o/nop16.txt; head -1 /tmp/o/nop15.txt; for f in /tmp/o/tl*.txt; do echo "== $f"; head -4 $f | cut -c1-300; done; grep -A8 "Peers on the same" /tmp/o/harness/*/results.md
