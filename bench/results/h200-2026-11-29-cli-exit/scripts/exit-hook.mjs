// node --import ./exit-hook.mjs ...: prints the `exit` event's wall time (epoch ms) to stderr, so the caller can time what
// follows it (node's and the kernel's teardown). EXIT_KILL=1: SIGKILL at the event instead (the kernel's teardown alone).
import { isMainThread } from 'node:worker_threads';
if (isMainThread) process.on('exit', () => { process.stderr.write(`EXITEV ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`); if (process.env.EXIT_KILL === '1') process.kill(process.pid, 'SIGKILL'); });
