// node --import ./smaps-hook.mjs ...: at the `exit` event, the process's memory from /proc/self/smaps_rollup (Rss, Anonymous,
// AnonHugePages) and the THP settings, to stderr.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) process.on('exit', () => { const s = fs.readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n').filter((l) => /^(Rss|Anonymous|AnonHugePages):/.test(l)).map((l) => l.replace(/\s+/g, ' ')).join(' | '); const thp = ['enabled', 'defrag'].map((k) => { try { return k + ' ' + fs.readFileSync(`/sys/kernel/mm/transparent_hugepage/${k}`, 'utf8').trim(); } catch { return k + ' ?'; } }).join('; '); process.stderr.write(`SMAPS ${s} || THP ${thp}\n`); });
