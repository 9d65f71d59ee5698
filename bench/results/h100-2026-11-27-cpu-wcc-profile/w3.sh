#!/bin/bash
# Session 32 call 11 (x1, CPU only): wcc's labelling (compress + roots' smallest ids, then spread) as one
# native pass on the coordinator's and the addon's threads instead of two vertex maps on the workers.
# tl medians of 30 warm runs, RMAT 22, 16 threads, before (97db7b5) / after, three rounds interleaved.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before33.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp package.json /tmp/B/
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; uptime; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2 3; do for b in before after; do
  R=$PWD; [ $b = before ] && R=/tmp/B
  ROOT=$R node .device/tl.mjs wcc /tmp/g.tsr 30 > /tmp/o/tl-wcc-$b-$round.txt 2>&1
done; done
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt; for f in tl-*.txt; do echo "$f $(sed -n 2,3p $f | tr '\n' ' ' | cut -c1-250)"; done
