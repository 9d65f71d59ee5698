set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && tar xJf .device/graphology.tar.xz -C /tmp/node_modules && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
{ nvidia-smi --query-gpu=name,memory.total --format=csv; nproc; lscpu | grep -i "model name"; } > $OUT/machine.txt 2>&1
node scripts/gpu-check.mjs --scale 20 --no-bench --no-snap --json $OUT/gpu-check.json > $OUT/gpu-check.txt 2>&1; echo "gpu-check rc=$?" >> $OUT/machine.txt
timeout 300 node dist/src/cli/main.js bench --config .device/louvain9.yaml --no-progress --out-dir /tmp/lb > $OUT/bench.log 2>&1; echo "bench rc=$?" >> $OUT/machine.txt
cp /tmp/lb/*/results.json /tmp/lb/*/results.md $OUT/ 2>/dev/null
cat $OUT/machine.txt; tail -18 $OUT/gpu-check.txt; grep "louvain" $OUT/results.md | grep -v "^| -" | cut -d'|' -f2,4,8 | head -12; grep -A 14 -i "## Modularity" $OUT/results.md | tail -11
