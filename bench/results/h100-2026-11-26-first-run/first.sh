#!/bin/bash
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
nproc > $OUT/log.txt
for a in bfs wcc; do
  node --cpu-prof --cpu-prof-dir=/tmp/prof-$a .device/first.mjs rmat:22:weighted $a >> $OUT/log.txt 2>&1
  tar czf $OUT/prof-$a.tgz -C /tmp prof-$a
done
node .device/first.mjs rmat:22:weighted bfs >> $OUT/log.txt 2>&1
cat $OUT/log.txt; ls -la $OUT
