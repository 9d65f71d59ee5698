set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && tar xJf .device/graphology.tar.xz -C /tmp/node_modules && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && for l in node_modules build native package.json; do ln -sfn "$PWD/$l" /tmp/before/$l; done
cp .device/lv.mjs /tmp/before/lv.mjs
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; lscpu | grep -i "model name"; } > $OUT/machine.txt 2>&1
(cd /tmp/before && LV_CONFIGS=1S,GPU-only node lv.mjs rmat:21 2) > $OUT/before21.txt 2>&1
LV_CONFIGS=1S,GPU-only node .device/lv.mjs rmat:21 2 > $OUT/after21.txt 2>&1
(cd /tmp/before && LV_CONFIGS=1S,GPU-only node lv.mjs rmat:22 1) > $OUT/before22.txt 2>&1
LV_CONFIGS=1S,GPU-only node .device/lv.mjs rmat:22 1 > $OUT/after22.txt 2>&1
timeout 240 node dist/src/cli/main.js bench --config .device/louvain9.yaml --no-progress --out-dir /tmp/lb > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/machine.txt
cp /tmp/lb/*/results.json /tmp/lb/*/results.md $OUT/ 2>/dev/null
cat $OUT/machine.txt; cut -c1-330 $OUT/before21.txt $OUT/after21.txt $OUT/before22.txt $OUT/after22.txt; grep "louvain" $OUT/results.md | grep -v "^| -" | cut -d'|' -f2,4,8 | head -12
