/** tessera — public library API. */
export {
  run,
  RunResult,
  generate,
  ALGO_NAMES,
  type AlgoName,
  type RunOptions,
  type KeyedRunOptions,
  type PlainGraph,
  type GenerateOptions,
  type GenerateBuildOptions,
} from './api.js';
export {
  fromGraphology,
  isKeyedGraph,
  type KeyedGraph,
  type GraphologyLike,
  type GraphologyAttributes,
  type FromGraphologyOptions,
  type EdgeWeightGetter,
  type EdgeAttributesOf,
} from './graphology.js';
export { buildGraph, type BuildOptions, type BuiltGraph, type BuildStats } from './graph/build.js';
export type { Graph, Page, PageSet, RawEdges } from './graph/types.js';
export { Engine, type EngineOptions, type EngineEvents } from './engine/coordinator.js';
export type { Program, RunContext, Frontier } from './engine/program.js';
export type { CpuKernel, KernelCtx } from './engine/kernel.js';
export type { RunReport, StepReport } from './engine/report.js';
export { summarize } from './engine/report.js';
export { ALGORITHMS } from './programs/index.js';
export { loadTopology, parseTopology } from './topology/load.js';
export { detectTopology } from './topology/detect.js';
export type { Topology } from './topology/schema.js';
export { TesseraError } from './errors.js';
export { loadGraph, type LoadOptions, type LoadedGraph } from './graph/load.js';
export type { AlgoOptions, AlgoDefaults } from './programs/index.js';
