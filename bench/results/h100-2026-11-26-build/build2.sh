#!/bin/bash
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
for t in 4 8 16; do node --expose-gc .device/build2.mjs rmat:24:weighted $t >> $OUT/build2.txt 2>&1; done
for t in 16 4; do node --expose-gc .device/build2.mjs rmat:24:weighted $t >> $OUT/build2.txt 2>&1; done
cat $OUT/build2.txt
