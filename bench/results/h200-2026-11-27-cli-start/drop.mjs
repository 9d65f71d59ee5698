// node drop.mjs FILE: asks the kernel to drop FILE's page cache (posix_fadvise DONTNEED through the addon)
import { openSync, closeSync, fstatSync } from 'node:fs';
const { nativeDropFileCache } = await import(process.cwd() + '/dist/actors/gpu/native-host.js');
const fd = openSync(process.argv[2], 'r');
nativeDropFileCache()(fd, 0, fstatSync(fd).size);
closeSync(fd);
