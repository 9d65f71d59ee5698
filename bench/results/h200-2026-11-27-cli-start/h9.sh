# First GPU runs with this build; CUDA lazy (default) vs eager module loading, interleaved. cb.mjs: create and runs 1-5 of a fresh engine.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
[ -f /tmp/g24.tsr ] || node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24.tsr 2>&1 | tail -1
for rep in 1 2; do for m in LAZY EAGER; do for p in bfs wcc pr; do
  echo -n "$m "; CUDA_MODULE_LOADING=$m node .device/cb.mjs /tmp/g24.tsr gpu $p 2>&1 | head -1
done; done; done
for p in bfs wcc pr; do echo -n "cpu "; node .device/cb.mjs /tmp/g24.tsr cpu $p 2>&1 | head -1; done
