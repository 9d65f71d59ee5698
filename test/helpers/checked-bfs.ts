/**
 * Top-down BFS as src/programs/bfs.ts drives it, calling `check` with every frontier edgeMap
 * returns (tests of the engine's frontier lists look at each level as it comes).
 */
import type { Frontier, Program } from '../../src/engine/program.js';
import { bfsState } from '../../src/programs/bfs.js';

export function checkedBfs(check: (frontier: Frontier, level: number) => void): Program<{ source: number }> {
  return {
    name: 'bfs-checked',
    output: 'int',
    async run(ctx, { source }) {
      const state = bfsState(ctx, source);
      let frontier = ctx.frontierOf([source]);
      for (let level = 0; frontier.size > 0; level++) {
        ({ next: frontier } = await ctx.edgeMap('bfs', frontier, state, { level }, { readsFrontier: true }));
        check(frontier, level + 1);
      }
      return state.depth;
    },
  };
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
