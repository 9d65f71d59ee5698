# The final native build (the copy pool's copy through each()): gpu-check at shares 1 and 0.6, and GPU first runs.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH; [ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp; ln -sfn /tmp/node_modules node_modules
nproc; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench 2>&1 | tail -1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench 2>&1 | tail -1
