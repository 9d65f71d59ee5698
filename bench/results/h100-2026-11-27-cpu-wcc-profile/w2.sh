#!/bin/bash
# Session 32 call 6 (x1, CPU only): WCC's labels started in affFinal (no copy of the original ids before
# the run) and Run.all()'s byte map the engine's (filled once): tl medians of 30 warm runs, before
# (bf39532) / after, two rounds interleaved; a main-thread profile of 40 warm runs after.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before32.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; uptime; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  for c in wcc pr; do ROOT=$R node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c-$b-$round.txt 2>&1; done
done; done
ROOT=$PWD node .device/mainprof.mjs wcc /tmp/g.tsr 16 40 /tmp/wcc.cpuprofile > /tmp/o/mainprof-wcc.txt 2>&1
python3 .device/incl.py /tmp/wcc.cpuprofile >> /tmp/o/mainprof-wcc.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; for f in tl-*.txt; do echo "$f $(sed -n 2,3p $f | tr '\n' ' ' | cut -c1-250)"; done; head -1 mainprof-wcc.txt; sed -n '/--- inclusive/,$p' mainprof-wcc.txt | head -40
