/**
 * Tests name built-ins by string: the definition and its parameters resolved the way `run` does
 * (original ids in, internal ids out; Graphalytics defaults by .properties key).
 */
import { prepareRun } from '../../src/api.js';
import type { AnyProgram, GraphDefaults } from '../../src/engine/define.js';
import type { Graph } from '../../src/graph/types.js';
import { findProgram } from '../../src/programs/index.js';

export function algorithm(name: string): { program: AnyProgram; params(g: Graph, o: Record<string, unknown>, d?: GraphDefaults): unknown } {
  const program = findProgram(name);
  return { program, params: (g, o, d) => prepareRun(g, program, o, d).params };
}

/** Only the options the program takes (a test that sets one bag for every program). */
export function takes(name: string, o: Record<string, unknown>): Record<string, unknown> {
  const p = findProgram(name);
  return Object.fromEntries(Object.entries(o).filter(([k]) => k in p.params));
}
