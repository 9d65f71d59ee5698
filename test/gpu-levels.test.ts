/**
 * bfs's levels on GPUs owning every vertex (native controller_levels.cpp) walk exactly the pages
 * that hold work: a push level the out-pages holding a vertex of its frontier (marked by the
 * previous level's count, level 0 the source's page), a pull level the in-pages holding a vertex
 * still unvisited. Pages of a vertex longer than a page count one by one.
 */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { generate, run } from '../src/index.js';
import { emulatedGpus } from './helpers/gpu-compare.js';
import type { Graph } from '../src/graph/types.js';

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

/** Pages of `pages` holding a vertex v with want(depth[v]). */
function holding(pages: Graph['out']['pages'], depth: ArrayLike<number>, want: (d: number) => boolean): number {
  let k = 0;
  for (const p of pages) {
    for (let v = p.vBegin; v < p.vEnd; v++)
      if (want(depth[v]!)) {
        k++;
        break;
      }
  }
  return k;
}

for (const spec of ['rmat:13', 'rmat:14:weighted']) {
  gpuTest(`bfs's levels walk exactly the pages holding a frontier vertex (push) or an unvisited one (pull): ${spec}, pages of 500 edges`, async (t) => {
    const g = generate(spec, { pageEdges: 500 });
    t.true(g.out.pages.some((p, i) => i > 0 && g.out.pages[i - 1]!.vBegin === p.vBegin), 'a vertex longer than a page');
    const source = g.ids.toOriginal[0]!;
    const r = await run(g, 'bfs', { source, topology: emulatedGpus(1), gpuShare: 1 });
    const row = r.report.steps[0]!.actors.find((a) => a.kind === 'gpu')!.gpu!;
    const dirs = row.directions!;
    t.true(dirs.includes('T') && dirs.includes('B'), dirs);
    const depth = r.values as ArrayLike<number>; // by dense id, as the pages
    let want = 0;
    for (let level = 0; level < dirs.length; level++) {
      want +=
        dirs[level] === 'T'
          ? holding(g.out.pages, depth, (d) => d === level)
          : holding(g.in.pages, depth, (d) => d === -1 || d > level);
    }
    t.is(row.pages, want);
    // Two GPUs dealing the pages (S), each marking its own push pages: the same depths.
    const two = await run(g, 'bfs', { source, topology: emulatedGpus(2), gpuShare: 1, multiGpu: 's' });
    t.deepEqual([...two.values], [...r.values]);
  });
}
