// node --import ./ot.mjs dist/src/cli/main.js run ...: prints to stderr the ms since the process began at which the first .tsr is opened (OPEN) and the `exit` event (EXIT); KILL=1 ends the process with SIGKILL at the exit event (what the rest of a normal exit costs).
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
const open = fsp.open;
let seen = false;
fsp.open = function (p, ...a) { if (!seen && String(p).endsWith('.tsr')) { seen = true; process.stderr.write(`OPEN ${performance.now().toFixed(1)}\n`); } return open.call(this, p, ...a); };
syncBuiltinESMExports();
process.on('exit', () => { process.stderr.write(`EXIT ${performance.now().toFixed(1)}\n`); if (process.env.KILL === '1') process.kill(process.pid, 'SIGKILL'); });
