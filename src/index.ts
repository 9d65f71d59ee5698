/** tessera — public library API. */
export {
  run,
  openSession,
  Session,
  RunResult,
  generate,
  type ProgramRef,
  type ProgramOf,
  type ResultValues,
  type RunOptions,
  type RunSetup,
  type SessionOptions,
  type PlainGraph,
  type RunResultJson,
  type GenerateOptions,
  type GenerateBuildOptions,
} from './api.js';
export {
  fromGraphology,
  isKeyedGraph,
  type KeyedGraph,
  type MaybeKeyedGraph,
  type VertexOf,
  type GraphologyLike,
  type GraphologyAttributes,
  type FromGraphologyOptions,
  type EdgeWeightGetter,
  type EdgeAttributesOf,
} from './graphology.js';
export { buildGraph, type BuildOptions, type BuiltGraph, type BuildStats, type EdgeArrays } from './graph/build.js';
export type { Graph, Page, PageSet, RawEdges } from './graph/types.js';
export { Engine, type EngineOptions, type EngineEvents } from './engine/coordinator.js';
export { Prestart } from './engine/prestart.js';
export type { RunContext, Frontier, EdgeMapOptions, StepResult } from './engine/program.js';
export {
  defineProgram,
  type Program,
  type AnyProgram,
  type ProgramSpec,
  type ProgramContext,
  type ParamSpec,
  type ParamSpecs,
  type StateSpec,
  type StateSpecs,
  type StateArrays,
  type Reduce,
  type OutputKind,
  type ModelProfile,
  type InputParams,
  type ResolvedParams,
  type GraphDefaults,
} from './engine/define.js';
export { outSlices, outSlicesBetween, undirectedNeighbours, type CpuKernel, type KernelCtx, type KernelGraph, type TaskOut, type StateArray } from './engine/kernel.js';
export { undirectedCsr, type UndirectedCsr } from './engine/undirected-csr.js';
export type { RunReport, StepReport } from './engine/report.js';
export { summarize } from './engine/report.js';
export { PROGRAMS, PROGRAM_NAMES, findProgram, type BuiltinName } from './programs/index.js';
export { loadTopology } from './topology/load.js';
export { parseTopology } from './topology/parse.js';
export { detectTopology } from './topology/detect.js';
export type { Topology } from './topology/schema.js';
export { TesseraError } from './errors.js';
export { loadGraph, type LoadOptions, type LoadedGraph } from './graph/load.js';
export { fromArrow, type ArrowEdgeOptions } from './graph/arrow.js';
