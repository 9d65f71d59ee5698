// After tsc: makes the CLI entry executable (npm links it as `tessera`), and copies the GPU
// operator sources (*.cu) of programs and examples beside their compiled modules, where
// `new URL('./gpu.cu', import.meta.url)` finds them.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'dist/src/cli/main.js');
if (existsSync(bin)) chmodSync(bin, 0o755);

function copyCu(dir) {
  if (!existsSync(path.join(root, dir))) return;
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) copyCu(rel);
    else if (e.name.endsWith('.cu')) {
      mkdirSync(path.join(root, 'dist', dir), { recursive: true });
      copyFileSync(path.join(root, rel), path.join(root, 'dist', rel));
    }
  }
}
for (const d of ['src', 'examples', 'test']) copyCu(d);
