# Does the addon's own setenv take effect? default (the addon asks EAGER) vs explicit EAGER vs explicit LAZY, GPU first runs, interleaved.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
for rep in 1 2; do for m in default EAGER LAZY; do for p in bfs wcc; do
  if [ $m = default ]; then unset CUDA_MODULE_LOADING; else export CUDA_MODULE_LOADING=$m; fi
  echo -n "$m "; node .device/cb.mjs /tmp/g24.tsr gpu $p 2>&1 | head -1
done; done; done
