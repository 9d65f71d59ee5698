/**
 * Piscina's entry for CPU socket workers. Piscina loads a worker file with `require()` first; on
 * Node 20 that sends an ES module through require(esm), which can abort the whole process under
 * load (V8 fatal "IsGraphAsync must be used on an instantiated module", seen in CI-like runs).
 * This file is CommonJS, so require() loads it plainly; the kernels stay in worker.js (ESM),
 * imported once per thread.
 */
import type { TaskMessage, TaskResult } from './worker.js' with { 'resolution-mode': 'import' };
import type { GangStart } from './gang.js' with { 'resolution-mode': 'import' };

type Message = TaskMessage | { gang: GangStart };
type RunTask = (m: Message) => TaskResult | Promise<TaskResult | void>;
let runTask: Promise<RunTask> | undefined;

export = async function task(m: Message): Promise<TaskResult | void> {
  runTask ??= import('./worker.js').then((w) => w.default);
  return (await runTask)(m);
};
