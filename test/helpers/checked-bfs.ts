/**
 * Top-down BFS as src/programs/bfs drives it, calling `check` with every frontier edgeMap
 * returns (tests of the engine's frontier lists look at each level as it comes). It is a program
 * of its own over the built-in BFS's kernels module: a definition may reuse another's kernels.
 */
import { defineProgram } from '../../src/engine/define.js';
import type { Frontier } from '../../src/engine/program.js';
import { bfs } from '../../src/programs/index.js';

export function checkedBfs(check: (frontier: Frontier, level: number) => void) {
  return defineProgram({
    ...bfs,
    name: 'bfs-checked',
    async run(ctx, { source }) {
      const { depth, seen } = ctx.state;
      ctx.fill(depth, -1); // bfs declares depth unset (its own driver fills it)
      depth[source] = 0;
      seen[source >>> 5] = 1 << (source & 31);
      let frontier = ctx.frontierOf([source]);
      for (let level = 0; frontier.size > 0; level++) {
        ({ next: frontier } = await ctx.edgeMap('bfs', frontier, { depth, seen }, { level }, { readsFrontier: true }));
        check(frontier, level + 1);
      }
      return depth;
    },
  });
}

/** Whether `f.list` lists exactly the set flags of `f.bitmap`, ascending. */
export function listMatchesBitmap(f: Frontier, numVertices: number): boolean {
  const list = f.list!;
  let ok = list.length === f.size;
  for (let i = 0; ok && i < list.length; i++) ok = f.bitmap[list[i]!] === 1 && (i === 0 || list[i - 1]! < list[i]!);
  let flags = 0;
  for (let v = 0; v < numVertices; v++) flags += f.bitmap[v]!;
  return ok && flags === list.length;
}
