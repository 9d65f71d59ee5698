/**
 * BFS — Graphalytics semantics: depth (number of edges) of every vertex from the source along
 * out-edges (both directions on undirected graphs); the source has depth 0; unreachable vertices
 * are written as 9223372036854775807 (Long.MAX_VALUE); internally -1. Direction-optimising
 * (Beamer; Ligra's switch in the engine): sparse supersteps push, dense ones pull (kernels.ts).
 */
import { defineProgram } from '../../engine/define.js';
import type { Frontier } from '../../engine/program.js';
import { peers } from './peers.js';
import { referenceBfs } from './reference.js';

/** The team's words in the addon (team.ts BfsTeamState.ctl: 32 and a short level's prefix of SMALL + 1). */
const TEAM_CTL = 32 + 4096 + 1;

export const bfs = defineProgram({
  name: 'bfs',
  summary: 'depth in edges from a source; unreachable 9223372036854775807',
  graphalytics: 'bfs',
  params: { source: { type: 'vertex', required: true, property: 'source-vertex', description: 'source vertex' } },
  state: {
    // 'device': the driver reads depth only once the run is over (a GPU owning every vertex keeps it).
    // -1 where unreached: filled by the driver where a path needs it (one GPU writes it whole).
    depth: { type: 'i32', init: 'unset', reduce: 'claim', resident: 'device' },
    // A hint bit per claimed vertex (kernels.ts); never read across memories. Zeroed by the CPU
    // paths that use it: the GPUs' levels never do (its 4 MB at RMAT 25 were ~0.3 ms of each run).
    seen: { type: 'i32', init: 'unset', reduce: 'none', length: (g) => (g.numVertices + 31) >>> 5 },
  },
  // The team's (team.ts): two queues of n ids, three bitmaps of n bits.
  scratch: {
    queue: { type: 'u32', length: (g) => 2 * g.numVertices, team: true },
    maps: { type: 'u32', length: (g) => 3 * ((g.numVertices + 31) >>> 5), team: true },
    ctl: { type: 'f64', length: () => TEAM_CTL, team: true },
  },
  output: 'depth',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // depth i32 + frontier u8 + next u8; most edges go through dense (pull) levels.
  profile: { mode: 'pull', stateBytesPerVertex: 6, passes: 1, unit: 'run', vertexTerm: false, levels: true },
  reference: (g, { source }) => referenceBfs(g, source),
  demoParams: (g) => ({ source: g.ids.toOriginal[0]! }),
  resumable: true,
  readsWeights: false,
  async run(ctx, { source }) {
    const { depth, seen } = ctx.state;
    let c = ctx.resume<{ level: number; frontier: Frontier }>();
    if (c === undefined && ctx.gpusOwnAll && ctx.forcedMode === undefined && !ctx.checkpointing) {
      // GPUs owning every vertex (one, or several exchanging their flags each level) run every
      // level in one call (gpu.ts bfs_levels): no superstep's host round trip per level; the same
      // switch as edgeMap's. They set every entry of depth on the devices and copy their owned
      // ranges back: no -1 fill here (~3 ms at RMAT 24).
      depth[source] = 0;
      const from = ctx.frontierOf([source]);
      const { sum, next } = await ctx.edgeMap('bfs_levels', from, { depth }, { source, pullAbove: ctx.graph.numEdges / ctx.pullDivisor }, { modes: ['push'], gpuOnly: true });
      // Both maps back now, cleared by their list or left as the device left them: the driver
      // holds no frontier past its last superstep.
      ctx.release(next);
      ctx.release(from);
      ctx.note('levels', sum);
      return depth;
    }
    if (c === undefined && ctx.teamwork) {
      // One CPU socket alone, teams on (EngineOptions.teams): every level in one team (team.ts), its
      // threads meeting at a barrier a level instead of a superstep a level (GAPBS's loop).
      const n = ctx.graph.numVertices;
      ctx.fill(depth, -1);
      ctx.fill(seen, 0);
      depth[source] = 0;
      seen[source >>> 5] = 1 << (source & 31);
      const queue = ctx.alloc('u32', 'unset', 2 * n), maps = ctx.alloc('u32', 0, 3 * ((n + 31) >>> 5)), ctl = ctx.alloc('f64', 0, TEAM_CTL);
      queue[0] = source;
      maps[source >>> 5] = 1 << (source & 31);
      const { sum } = await ctx.team('bfs_team', { depth, seen, queue, maps, ctl }, { source }, { skipEmpty: true });
      ctx.note('levels', sum);
      return depth;
    }
    // A fresh run's first level names the source (args.seed): depth is -1 everywhere else, so a GPU
    // sets its copy on the device (gpu.ts) instead of uploading the whole array.
    const seed = c === undefined ? source : undefined;
    if (c === undefined) {
      ctx.fill(depth, -1);
      ctx.fill(seen, 0);
      depth[source] = 0;
      seen[source >>> 5] = 1 << (source & 31);
      c = { level: 0, frontier: ctx.frontierOf([source]) };
    }
    let { level, frontier } = c;
    // The first frontier was made here (or restored): edgeMap takes back only the maps it made, so
    // it goes back after its level (a map fewer held for the rest of the run), and the last
    // (empty) one after the loop.
    let first: Frontier | undefined = frontier;
    for (; frontier.size > 0; level++) {
      await ctx.checkpoint({ level, frontier });
      ({ next: frontier } = await ctx.edgeMap('bfs', frontier, { depth, seen }, level === 0 && seed !== undefined ? { level, seed } : { level }, { readsFrontier: true, direction: { beta: 18 }, pullIf: { state: 'depth', value: -1 }, skipEmpty: true, deviceNext: true }));
      if (first !== undefined) (ctx.release(first), (first = undefined));
    }
    ctx.release(frontier);
    return depth;
  },
});
