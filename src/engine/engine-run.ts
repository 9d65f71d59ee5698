/**
 * Engine.run: a program run to completion on an engine (Run is the context its driver sees) and
 * its report.
 */
import { TesseraError } from '../errors.js';
import { allocState, type AnyProgram } from './define.js';
import { loadKernels } from './kernel-modules.js';
import { runPhases, type RunReport, type StepReport } from './report.js';
import { Run } from './run.js';
import { checkOutput, UNREAD_OUTPUT } from './call-checks.js';
import type { RunCheckpointing } from './engine-options.js';
import type { Engine } from './coordinator.js';

/** Engine.run: `partition` is the report's partition section, for engines with GPU actors. */
export async function runProgram(
  engine: Engine,
  program: AnyProgram,
  params: unknown,
  ckpt: RunCheckpointing,
  partition: () => NonNullable<RunReport['partition']>,
): Promise<{ values: Float64Array | Int32Array | Uint32Array; report: RunReport }> {
  const steps: StepReport[] = [];
  const notes: Record<string, string | number | boolean> = {};
  if (program?.defined !== true) throw new TesseraError('Engine.run takes a program from defineProgram', { fix: 'wrap the definition in defineProgram({ ... })' });
  const handed = program.delegate?.(params, engine.graph);
  if (handed !== undefined) {
    const r = await engine.run(handed.program, handed.params, ckpt);
    r.report.notes.ranAs = handed.program.name;
    return r;
  }
  if ((ckpt.writer !== undefined || ckpt.resume !== undefined) && program.resumable !== true) throw notResumable(program.name, ckpt.resume !== undefined);
  const kernels = await loadKernels(program.kernels, program.name);
  if (engine.hasGpus && program.gpu === undefined && program.operators === undefined) {
    // Refused before any work where an edge kernel has no GPU side; vertex maps alone run on the
    // CPU sockets over every vertex (docs/PROGRAMS.md), so such a program runs with the GPUs idle.
    const edgeKernels = Object.entries(kernels.table).filter(([, k]) => k.push !== undefined || k.pull !== undefined || k.team !== undefined).map(([name]) => name);
    if (edgeKernels.length > 0)
      throw new TesseraError(`program '${program.name}' cannot run on topology '${engine.topology.name}': its kernel${edgeKernels.length > 1 ? 's' : ''} ${edgeKernels.map((k) => `'${k}'`).join(', ')} ${edgeKernels.length > 1 ? 'have' : 'has'} no GPU implementation`, {
        file: engine.topology.source,
        key: 'gpus',
        fix: 'give the program GPU operators (gpu: { source, kernels }, docs/PROGRAMS.md), or run it on a CPU-only topology such as configs/1S.yaml',
      });
  }
  const gpu = engine.hasGpus && program.gpu !== undefined ? await (await import('../../actors/gpu/handler.js')).loadGpuHandlers(program.gpu) : undefined;
  const t0 = performance.now();
  const ctx = new Run(engine, steps, notes, program, kernels, gpu);
  engine.progress.emit('run-start', { program: program.name, vertices: engine.graph.numVertices, edges: engine.graph.numEdges });
  ctx.state = allocState(program.state, ctx);
  const allocMs = performance.now() - t0;
  if (ckpt.resume !== undefined) {
    await ctx.restore(ckpt.resume);
    notes.resumedAt = ctx.nextStep;
  }
  ctx.writer = ckpt.writer;
  const values = await program.run(ctx, params);
  if (!UNREAD_OUTPUT.has(program)) checkOutput(program.name, program.output, values, engine.graph.numVertices);
  await ctx.settleAll();
  if (ckpt.writer !== undefined) {
    notes.checkpoints = ckpt.writer.written;
    notes.checkpointMs = Math.round(ckpt.writer.writeMs);
  }
  // The pools' share of the run's end (a handed output's replacement, maps still held) is on the caller's time too.
  ctx.finish(values);
  const totalMs = performance.now() - t0;
  const edges = steps.reduce((a, s) => a + s.edges, 0);
  const report: RunReport = {
    program: program.name,
    graph: { source: engine.graph.source, vertices: engine.graph.numVertices, edges: engine.graph.numEdges, directed: engine.graph.directed },
    topology: { name: engine.topology.name, source: engine.topology.source, sockets: engine.topology.sockets, gpus: engine.topology.gpus },
    supersteps: steps.length,
    steps,
    totalMs,
    edgesProcessed: edges,
    teps: totalMs > 0 ? edges / (totalMs / 1000) : 0,
    phases: { ...runPhases(totalMs, allocMs, ctx.vertexMapMs, steps), ...(ctx.settleMs > 0 ? { settleMs: ctx.settleMs } : {}) },
    notes,
    ...(engine.hasGpus ? { partition: partition() } : {}),
    steal: {
      policy: engine.stealPolicy,
      tasks: steps.reduce((a, s) => a + s.actors.reduce((b, x) => b + x.stolen, 0), 0),
      edges: steps.reduce((a, s) => a + s.actors.reduce((b, x) => b + x.stolenEdges, 0), 0),
    },
  };
  engine.progress.emit('run-end', report);
  return { values, report };
}

/** A run asked to checkpoint a program whose driver has no safe points: refused before any work. */
export function notResumable(program: string, resume: boolean): TesseraError {
  return new TesseraError(`program '${program}' does not support checkpoints (its definition does not set resumable)`, {
    key: resume ? '--resume' : '--checkpoint',
    fix: 'run it without --checkpoint, or make its driver resumable (docs/PROGRAMS.md, Checkpoints)',
  });
}
