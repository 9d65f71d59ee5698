/** The socket actor's shared task queue: every task is taken by one thread or released to a thief, never both, never lost. */
import test from 'ava';
import fc from 'fast-check';
import { Worker } from 'node:worker_threads';
import { TaskQueue, TaskTaker } from '../actors/cpu/task-queue.js';
import type { Task } from '../src/wire/frames.js';

const tasks = (n: number): Task[] => Array.from({ length: n }, (_, i) => ({ page: i, count: 1, lo: i, hi: i + 1, edges: i + 1, ...(i % 5 === 0 ? { edgeLo: 0, edgeHi: 3 } : {}) }));

test('interleaved takes and releases: each task once, fields as queued', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 60 }), fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 10 })), { maxLength: 80 }), (n, ops) => {
      const all = tasks(n);
      const q = new TaskQueue(all);
      const taker = new TaskTaker(q.buffer);
      const seen: number[] = [];
      const take = (): boolean => {
        if (!taker.take()) return false;
        const x = taker.task;
        const want = all[x.page]!;
        t.deepEqual({ ...x, edgeLo: x.edgeLo, edgeHi: x.edgeHi }, { ...want, edgeLo: want.edgeLo, edgeHi: want.edgeHi });
        seen.push(x.page);
        return true;
      };
      for (const op of ops) {
        if (op < 0) take();
        else for (const x of q.release(() => op)) seen.push(x.page);
      }
      while (take());
      t.deepEqual([...seen].sort((a, b) => a - b), all.map((x) => x.page));
      t.is(q.queued, 0);
    }),
    { numRuns: 300 },
  );
});

test('two worker threads take while this thread releases: each task once', async (t) => {
  const n = 200_000;
  const q = new TaskQueue(tasks(n));
  // The workers run the real TaskTaker (the compiled module beside this test's).
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.module).then(({ TaskTaker }) => {
      const taker = new TaskTaker(workerData.buffer);
      const taken = [];
      while (taker.take()) taken.push(taker.task.page);
      parentPort.postMessage(taken);
    });`;
  const module = new URL('../actors/cpu/task-queue.js', import.meta.url).href;
  const run = (): Promise<number[]> =>
    new Promise((resolve, reject) => {
      const w = new Worker(code, { eval: true, workerData: { buffer: q.buffer, module } });
      w.once('message', resolve);
      w.once('error', reject);
    });
  const workers = [run(), run()];
  const released: number[] = [];
  for (let i = 0; i < 200 && q.queued > 0; i++) for (const x of q.release((queued) => Math.min(queued.length, 50))) released.push(x.page);
  const taken = (await Promise.all(workers)).flat();
  const all = [...taken, ...released].sort((a, b) => a - b);
  t.is(all.length, n);
  t.true(all.every((v, i) => v === i), 'every task once');
  t.true(released.length > 0 && taken.length > 0, `released ${released.length}, taken ${taken.length}`);
});
