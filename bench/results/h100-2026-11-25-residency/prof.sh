#!/bin/bash
set -u
W=$PWD/.device/wt20-residency
if [ ! -x /tmp/node ]; then xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node; fi
export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
if [ ! -d /tmp/after/dist ]; then mkdir -p /tmp/before /tmp/after && tar xJf $W/base.tar.xz -C /tmp/before && tar xJf $W/tree.tar.xz -C /tmp/after; fi
ln -sfn /tmp/node_modules /tmp/before/node_modules; ln -sfn /tmp/node_modules /tmp/after/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
[ -f /tmp/g22.tsr ] || (cd /tmp/after && node dist/src/cli/main.js generate rmat --scale 22 --out /tmp/g22.tsr > /dev/null)
echo "== after"; timeout 120 node $W/prof.mjs /tmp/after /tmp/g22.tsr 2>&1
echo "== before"; timeout 120 node $W/prof.mjs /tmp/before /tmp/g22.tsr 2>&1 | head -12
