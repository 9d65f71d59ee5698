#!/bin/bash
# Graph build and .tsr load, this build against the one before the merge of build-speed (before/), one call.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/before && mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for x in node_modules build native package.json; do ln -sfn $PWD/$x /tmp/before/$x; done
mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt
t0=$(date +%s%N); node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr > /tmp/o/gen.txt 2>&1; echo "generate --out tsr (this build): $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> /tmp/o/machine.txt
for r in 1 2; do
  node .device/build.mjs /tmp/before rmat:24:weighted /tmp/g24.tsr >> /tmp/o/build.txt 2>&1
  node .device/build.mjs $PWD rmat:24:weighted /tmp/g24.tsr >> /tmp/o/build.txt 2>&1
done
cp /tmp/o/* $OUT/
cat /tmp/o/machine.txt /tmp/o/build.txt
