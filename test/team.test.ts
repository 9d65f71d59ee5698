/**
 * Teams (RunContext.team, engine/team.ts): a kernel run by every thread of the socket at once.
 * bfs's levels as one team (EngineOptions.teams) give the reference's depths and the supersteps'
 * on RMAT and a directed SNAP graph, from a hub, an ordinary vertex and one without out-edges; a
 * user kernel's shared loops cover every index once, sync sums and counters start again at each
 * sync; a thread that throws or dies lets the others go and fails the run in one line; teams can
 * be turned off, and a team where there can be none is refused in one line.
 */
import test from 'ava';
import path from 'node:path';
import { Engine } from '../src/engine/coordinator.js';
import { defineProgram } from '../src/engine/define.js';
import { loadGraph } from '../src/graph/load.js';
import { bfs, wcc } from '../src/programs/index.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import type { Graph } from '../src/graph/types.js';
import { SNAP } from './helpers/paths.js';
import { topo } from './helpers/topologies.js';
import { referenceBfs, referenceWcc } from './helpers/references.js';

/** Sources: the vertex of most out-edges, an ordinary one, one without out-edges (if any). */
function sources(g: Graph): number[] {
  let hub = 0, sink = -1;
  for (let v = 0; v < g.numVertices; v++) {
    if (g.outDegree[v]! > g.outDegree[hub]!) hub = v;
    if (sink < 0 && g.outDegree[v] === 0) sink = v;
  }
  return [hub, (g.numVertices * 0.37) | 0, ...(sink >= 0 ? [sink] : [])];
}

async function bfsDepths(g: Graph, threads: number, teams: boolean, from: number[]): Promise<{ depths: number[][]; steps: string[] }> {
  const e = await Engine.create(g, topo([threads]), { teams });
  try {
    const depths: number[][] = [];
    const steps: string[] = [];
    for (const s of from) {
      const r = await e.run(bfs, { source: s });
      depths.push(Array.from(r.values as Int32Array));
      steps.push(r.report.steps.map((x) => (x.team !== undefined ? `team${x.team}` : x.mode)).join(','));
    }
    return { depths, steps };
  } finally {
    await e.close();
  }
}

for (const [name, spec, threads] of [
  ['RMAT 16', 'rmat:16', 3],
  ['soc-Epinions1 (directed)', path.join(SNAP, 'soc-Epinions1.txt.gz'), 4],
] as const) {
  test(`bfs as one team of ${threads} threads: ${name} gives the reference's depths and the supersteps'`, async (t) => {
    const { graph: g } = await loadGraph(spec);
    const from = sources(g);
    const team = await bfsDepths(g, threads, true, from);
    const steps = await bfsDepths(g, threads, false, from);
    for (let i = 0; i < from.length; i++) {
      t.is(team.steps[i], `team${threads}`, 'every level in one step of a team of the socket');
      t.not(steps.steps[i], team.steps[i]);
      const want = Array.from(referenceBfs(g, from[i]!));
      t.deepEqual(team.depths[i], want, `source ${from[i]}: team`);
      t.deepEqual(steps.depths[i], want, `source ${from[i]}: supersteps`);
    }
  });
}

test('bfs as one team of 5 threads over pages of 2048 edges (hubs split over pages), directed and undirected: the reference\'s depths', async (t) => {
  for (const undirected of [false, true]) {
    const { graph: g } = await loadGraph('rmat:16', { pageEdges: 2048, undirected });
    t.true(g.in.pages.some((p) => p.split) && g.out.pages.some((p) => p.split), 'hubs over several pages');
    const from = sources(g);
    const team = await bfsDepths(g, 5, true, from);
    for (let i = 0; i < from.length; i++) {
      t.is(team.steps[i], 'team5');
      t.deepEqual(team.depths[i], Array.from(referenceBfs(g, from[i]!)), `source ${from[i]}${undirected ? ', undirected' : ''}`);
    }
  }
});

test('wcc on one socket: Afforest as one team where the addon has it, over pages of 2048 edges, directed and undirected: the reference\'s labels', async (t) => {
  const teamed = nativeCpuKernels()?.wccTeam !== undefined;
  for (const undirected of [false, true]) {
    const { graph: g } = await loadGraph('rmat:16', { pageEdges: 2048, undirected });
    const e = await Engine.create(g, topo([5]));
    try {
      const want = Array.from(referenceWcc(g));
      for (let k = 0; k < 2; k++) {
        const r = await e.run(wcc, {});
        t.is(r.report.steps.map((x) => x.kernel).join(','), teamed ? 'wcc_team' : 'affSample,affFinal');
        t.deepEqual(Array.from(r.values), want, `run ${k + 1}${undirected ? ', undirected' : ''}`);
      }
    } finally {
      await e.close();
    }
  }
});

test('a small graph runs its team on the coordinator thread (a team of one), with the same depths', async (t) => {
  const { graph: g } = await loadGraph('rmat:12');
  const r = await bfsDepths(g, 2, true, sources(g));
  r.steps.forEach((s) => t.is(s, 'team1'));
  r.depths.forEach((d, i) => t.deepEqual(d, Array.from(referenceBfs(g, sources(g)[i]!))));
});

const KERNELS = new URL('./fixtures/team/kernels.js', import.meta.url);
const teamProgram = (kernel: string) =>
  defineProgram({
    name: `team-${kernel.toLowerCase()}`,
    summary: 'a user team kernel',
    params: {},
    state: { hits: { type: 'u32', init: 0, reduce: 'none' }, ranks: { type: 'u32', init: 0, reduce: 'none', length: () => 5 * 64 } },
    output: 'int',
    kernels: KERNELS,
    profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'run', vertexTerm: true },
    async run(ctx) {
      const r = await ctx.team(kernel, ctx.state);
      // Every round's entries: each rank once (the third test's kernels write none).
      const ranks = ctx.state.ranks;
      if (kernel === 'census')
        for (let round = 0; round < 5; round++) {
          const got = Array.from(ranks.subarray(round * r.sum, (round + 1) * r.sum)).sort((a, b) => a - b);
          if (got.some((x, i) => x !== i + 1)) throw new Error(`round ${round}: ranks ${got.join(',')}`);
        }
      ctx.note('size', r.sum);
      ctx.note('covered', r.active);
      ctx.note('edges', r.edges);
      return ctx.state.hits;
    },
  });

test("a user's team kernel: shared loops cover each index once, sums agree on every thread, counters restart at each sync", async (t) => {
  const { graph: g } = await loadGraph('rmat:15');
  for (const threads of [2, 5]) {
    const e = await Engine.create(g, topo([threads]), { teams: true });
    try {
      const r = await e.run(teamProgram('census'), {});
      t.is(r.report.notes.size, threads);
      t.is(r.report.notes.covered, g.numVertices, 'the pull tasks cover every vertex once');
      t.is(r.report.notes.edges, 3 * g.numEdges);
      t.true(Array.from(r.values as Uint32Array).every((x) => x === 6), 'each vertex hit once a round, once by forTasks and once a loop');
    } finally {
      await e.close();
    }
  }
});

test('a team thread that throws, or dies, lets the others go: the run fails in one line naming the actor, the engine closes', async (t) => {
  const { graph: g } = await loadGraph('rmat:15');
  for (const [kernel, message] of [
    ['fails', /^actor socket0 failed in superstep 0: kernel 'fails' threw in its team function: rank 1 found a bad vertex/],
    ['dies', /^actor socket0 failed in superstep 0/],
    ['failsInLoop', /^actor socket0 failed in superstep 0: kernel 'failsInLoop' threw in its team function: rank 1 failed in a loop/],
  ] as const) {
    const e = await Engine.create(g, topo([3]), { teams: true });
    try {
      const err = await t.throwsAsync(() => e.run(teamProgram(kernel), {}), { message });
      t.false(err?.message.includes('\n'), 'one line');
    } finally {
      // Threads left waiting at a barrier would keep this from returning.
      await e.close();
    }
  }
  // A fresh engine's team on the same pool size is whole again.
  const e = await Engine.create(g, topo([3]), { teams: true });
  try {
    t.is((await e.run(teamProgram('census'), {})).report.notes.size, 3);
  } finally {
    await e.close();
  }
});

test('teams: false turns teams off; a team where there can be none is refused in one line; bfs takes its supersteps there', async (t) => {
  const { graph: g } = await loadGraph('rmat:15');
  const e = await Engine.create(g, topo([1, 1]), { teams: true });
  try {
    const err = await t.throwsAsync(() => e.run(teamProgram('census'), {}), { message: /as a team, but the topology has several CPU sockets.*ctx\.teamwork/ });
    t.false(err?.message.includes('\n'));
    const r = await e.run(bfs, { source: 5 });
    t.true(r.report.steps.every((s) => s.team === undefined));
    t.deepEqual(Array.from(r.values as Int32Array), Array.from(referenceBfs(g, 5)));
  } finally {
    await e.close();
  }
  const plain = await Engine.create(g, topo([2]), { teams: false });
  try {
    await t.throwsAsync(() => plain.run(teamProgram('census'), {}), { message: /the engine was made with teams off \(EngineOptions\.teams: false, or TESSERA_TEAM=0\)/ });
    t.true((await plain.run(bfs, { source: 5 })).report.steps.every((s) => s.team === undefined));
  } finally {
    await plain.close();
  }
});
