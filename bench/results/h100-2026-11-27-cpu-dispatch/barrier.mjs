// What a barrier among a socket's worker threads costs (for running a traversal's levels in one
// gang message): T worker threads meet R times at a barrier over a SharedArrayBuffer, blocking
// (Atomics.wait / notify, a generation word) or spinning first (up to SPIN loads, then waiting).
// node barrier.mjs [T] [R] -> one JSON line per variant: microseconds a barrier (median of 5 batches).
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
import os from 'node:os';

function barrier(ctl, parties, spin) {
  const gen = Atomics.load(ctl, 1);
  if (Atomics.add(ctl, 0, 1) === parties - 1) {
    Atomics.store(ctl, 0, 0);
    Atomics.add(ctl, 1, 1);
    Atomics.notify(ctl, 1);
    return;
  }
  for (let i = 0; i < spin; i++) if (Atomics.load(ctl, 1) !== gen) return;
  while (Atomics.load(ctl, 1) === gen) Atomics.wait(ctl, 1, gen);
}

if (isMainThread) {
  const T = Number(process.argv[2] ?? os.availableParallelism());
  const R = Number(process.argv[3] ?? 2000);
  for (const spin of [0, 1000, 20000]) {
    const per = [];
    for (let batch = 0; batch < 5; batch++) {
      const ctl = new Int32Array(new SharedArrayBuffer(8));
      const ws = Array.from({ length: T }, () => new Worker(new URL(import.meta.url), { workerData: { ctl, T, R, spin } }));
      const times = await Promise.all(ws.map((w) => new Promise((r) => w.once('message', r))));
      await Promise.all(ws.map((w) => w.terminate()));
      per.push(Math.max(...times) / R * 1000);
    }
    per.sort((a, b) => a - b);
    console.log(JSON.stringify({ threads: T, barriers: R, spin, usPerBarrier: +per[2].toFixed(2), all: per.map((x) => +x.toFixed(2)) }));
  }
} else {
  const { ctl, T, R, spin } = workerData;
  barrier(ctl, T, 1e6); // everyone started
  const t0 = performance.now();
  for (let i = 0; i < R; i++) barrier(ctl, T, spin);
  parentPort.postMessage(performance.now() - t0);
}
