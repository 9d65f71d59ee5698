/**
 * A session's first run pays for JavaScript no thread has run yet: the run's setup, a team's
 * dispatch through the gang, the workers' step, the votes and the report each start in V8's
 * interpreter and are compiled as they warm up. An engine told which programs it will run
 * (EngineOptions.preload) runs this program once while it starts, one team step of a kernel that
 * only meets its team, so that a session's first run takes those paths warm (issue 21: a first run
 * within 1.5x of the warm median). It writes no state, and no progress event leaves the engine.
 */
import { defineProgram } from './define.js';
import { EventEmitter } from 'eventemitter3';
import type { Engine } from './coordinator.js';
import type { EngineEvents } from './engine-options.js';

export const warmUp = defineProgram({
  name: 'warm-up',
  summary: "one team step of a kernel that only meets its team (Engine.create's warm-up)",
  params: {},
  state: {},
  output: 'int',
  kernels: new URL('./warm-up-kernels.js', import.meta.url),
  profile: { mode: 'pull', stateBytesPerVertex: 0, passes: 1, unit: 'run', vertexTerm: false },
  async run(ctx) {
    await ctx.team('meet', {});
    return new Int32Array(0);
  },
});

/** Runs warmUp on `e`, whose runs may run teams (Engine.create asks noTeamwork first); what it costs is the engine's start. */
export async function warmEngine(e: Engine): Promise<void> {
  e.progress = new EventEmitter<EngineEvents>();
  try {
    await e.run(warmUp, {});
  } finally {
    e.progress = e.events;
  }
}
