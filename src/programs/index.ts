/**
 * The built-in programs: one folder each (definition with its semantics, CPU kernels, serial
 * reference), listed once here. The CLI, library, demo, model and benchmark read this list;
 * adding a built-in is one folder plus one line below.
 */
import { distance } from '../graph/options.js';
import type { AnyProgram } from '../engine/define.js';
import { TesseraError } from '../errors.js';
import { bc } from './bc/index.js';
import { bfs } from './bfs/index.js';
import { cdlp } from './cdlp/index.js';
import { kcore } from './kcore/index.js';
import { lcc } from './lcc/index.js';
import { louvain } from './louvain/index.js';
import { pr } from './pr/index.js';
import { ppr } from './ppr/index.js';
import { scc } from './scc/index.js';
import { sssp } from './sssp/index.js';
import { tc } from './tc/index.js';
import { wcc } from './wcc/index.js';

export const PROGRAMS = [bfs, pr, sssp, wcc, cdlp, lcc, bc, scc, ppr, tc, kcore, louvain] as const;

type Builtin = (typeof PROGRAMS)[number];
/** A built-in program by name or alias. */
export type ProgramByName = { [P in Builtin as P['name']]: P } & { [P in Builtin as P extends { aliases?: readonly (infer A extends string)[] } ? A : never]: P };
/** Names (and aliases) of the built-in programs: `run(graph, 'pagernak')` does not compile. */
export type BuiltinName = keyof ProgramByName;

/** Every name and alias of a built-in. */
export const PROGRAM_NAMES: readonly string[] = PROGRAMS.flatMap((p) => [p.name, ...(p.aliases ?? [])]);

/** The built-ins as CLI help lists them: `bfs | pr (pagerank) | ...`. */
export function programList(): string {
  return PROGRAMS.map((p) => (p.aliases?.length ? `${p.name} (${p.aliases.join(', ')})` : p.name)).join(' | ');
}

/** The built-in program of that name or alias, if any. */
export function programNamed(name: string): AnyProgram | undefined {
  return PROGRAMS.find((x) => x.name === name || ((x.aliases ?? []) as readonly string[]).includes(name)) as AnyProgram | undefined;
}

/** The built-in program of that name or alias, or a TesseraError suggesting the nearest name. */
export function findProgram(name: string, key = '--algo'): AnyProgram {
  const p = programNamed(name);
  if (p !== undefined) return p;
  const near = PROGRAM_NAMES.map((n) => [n, distance(name, n)] as const).sort((a, b) => a[1] - b[1])[0];
  const hint = near !== undefined && near[1] <= 2 ? `did you mean '${near[0]}'? ` : '';
  throw new TesseraError(`unknown algorithm '${name}'`, { key, fix: `${hint}use one of ${PROGRAMS.map((x) => x.name).join(', ')}` });
}

export { bc, bfs, cdlp, kcore, lcc, louvain, ppr, pr, scc, sssp, tc, wcc };
