/**
 * Running a superstep's tasks with a CPU kernel: what a socket actor's worker thread does with each
 * task it takes, and what the coordinator does itself with a superstep too small to be worth a
 * round trip to the workers (Run.edgeMap). One code path, so both give the same values and sums.
 */
import { IdList, type CpuKernel, type KernelCtx, type KernelGraph, type TaskOut } from './kernel.js';
import type { Mode, Task, VoteFrame } from '../wire/frames.js';
import type { Page, PageSet } from '../graph/types.js';
import { nativeCpuKernels, type NativeCpuKernels } from '../../actors/gpu/native-host.js';
import { isTesseraError, TesseraError } from '../errors.js';

// The degree sums below on the addon where it loads: as TypeScript they ran cold (interpreted)
// in a session's first supersteps, on every thread. Looked up at the first count, not when this
// module is imported (the coordinator imports it at the CLI's start).
let degreeSum: { fn: NativeCpuKernels['degreeSum'] } | undefined;
const nativeDegreeSum = (): NativeCpuKernels['degreeSum'] => (degreeSum ??= { fn: nativeCpuKernels()?.degreeSum }).fn;

/** What a task needs to know of its superstep besides its context. */
export interface StepKind {
  kernel: string;
  mode: Mode;
  pullPages: 'in' | 'out';
  /** A vertex map: each task is a range of vertex ids for the kernel's `vertex`. */
  vertex: boolean;
}

/** One task: its kernel call, adding to `out`. */
export function runOne(kernel: CpuKernel, ctx: KernelCtx, m: StepKind, task: Task, out: TaskOut): void {
  const fn = m.vertex ? 'vertex' : m.mode;
  if (kernel[fn] === undefined)
    throw new TesseraError(`kernel '${m.kernel}' has no ${fn} function, and the program runs it as ${m.vertex ? 'a vertex map' : `a ${fn} superstep`}`, {
      fix: m.vertex ? 'give the kernel vertex(ctx, lo, hi, out)' : `give the kernel ${fn}(...), or pass edgeMap the modes it has (modes: ['${fn === 'push' ? 'pull' : 'push'}'])`,
    });
  if (!m.vertex && m.mode === 'push' && task.edgeHi !== undefined && !kernel.splitPush) throw new Error(`kernel '${m.kernel}' cannot push part of a vertex's edges`);
  try {
    if (m.vertex) kernel.vertex!(ctx, task.lo, task.hi, out);
    else if (m.mode === 'pull') kernel.pull!(ctx, taskPages(m.pullPages === 'out' ? ctx.graph.out : ctx.graph.in, task), task.lo, task.hi, out);
    else {
      // Set for every task (the cached context keeps one shape): whole vertices unless edgeHi.
      ctx.edgeLo = task.edgeLo;
      ctx.edgeHi = task.edgeHi;
      kernel.push!(ctx, task.lo, task.hi, out);
    }
  } catch (e) {
    throw kernelThrew(m.kernel, fn, e);
  }
}

/** How kernelThrew's messages begin (actor-errors.ts adds where the run was). */
export const KERNEL_THREW = /^kernel '[^']+' threw in its \w+ function: /;

/**
 * What a kernel's function threw, as the one line a program's author needs: the kernel, the
 * function, the message and where it was thrown (the stack's first frame). A TesseraError (an
 * input error the kernel found) passes as it is.
 */
export function kernelThrew(kernel: string, fn: string, e: unknown): unknown {
  if (isTesseraError(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  const frame = e instanceof Error ? /\n\s+at (?:.*? \()?(.*?:\d+:\d+)\)?/.exec(e.stack ?? '')?.[1] : undefined;
  return new TesseraError(`kernel '${kernel}' threw in its ${fn} function: ${message.split('\n')[0]}${frame !== undefined ? ` (thrown at ${frame})` : ''}`, {
    fix: "correct the kernel (if it is a built-in program's, report it with this line)",
  });
}

/** A pull task's pages: one, or the split pages of one vertex. */
export function taskPages(set: PageSet, task: Task): Page[] {
  return task.count === 1 ? [set.pages[task.page]!] : set.pages.slice(task.page, task.page + task.count);
}

/** The out-degrees of ids[0, k) summed (on the addon where it loads). */
export function idsDegreeSum(deg: Uint32Array, ids: Uint32Array, k: number): number {
  const sum = nativeDegreeSum();
  if (sum !== undefined) return sum(deg, ids, k, null, 0, 0);
  let edges = 0;
  for (let i = 0; i < k; i++) edges += deg[ids[i]!]!;
  return edges;
}

/** A pull task's activated vertices (its own range: a pull writes only the vertices it computes), their out-degrees summed. */
export function activatedEdges(graph: KernelGraph, next: Uint8Array, pullPages: 'in' | 'out', task: Task): number {
  const p = (pullPages === 'out' ? graph.out : graph.in).pages[task.page]!;
  const deg = graph.outDegree;
  const sum = nativeDegreeSum();
  if (sum !== undefined) return sum(deg, null, 0, next, p.vBegin + task.lo, p.vBegin + task.hi);
  let edges = 0;
  for (let v = p.vBegin + task.lo, end = p.vBegin + task.hi; v < end; v++) if (next[v] !== 0) edges += deg[v]!;
  return edges;
}

/**
 * A push's activations' out-degrees summed from the vertices its kernel listed, or NaN when the
 * kernel activated vertices it did not list (the coordinator then reads them off the byte map).
 */
export function discoveredEdges(graph: KernelGraph, out: TaskOut): number {
  const d = out.discovered;
  if (d === undefined || d.length !== out.active) return NaN;
  return idsDegreeSum(graph.outDegree, d.ids, d.length);
}

/** A CPU actor's share of a superstep run on the coordinator's thread, voted as its threads would. */
export function runShareInline(kernel: CpuKernel, ctx: KernelCtx, m: StepKind & { wantList: boolean; listCap: number; countNext: boolean }, actor: string, step: number, tasks: Task[]): VoteFrame {
  const t0 = performance.now();
  const out: TaskOut = { active: 0, sum: 0, edges: 0, discovered: m.wantList ? new IdList() : undefined };
  const sums: number[] = [];
  let nextEdges = 0;
  for (const task of tasks) {
    out.sum = 0;
    runOne(kernel, ctx, m, task, out);
    if (out.sum !== 0) sums.push(out.sum);
    if (m.countNext && m.mode === 'pull') nextEdges += activatedEdges(ctx.graph, ctx.next, m.pullPages, task);
  }
  if (m.countNext && m.mode === 'push') nextEdges = discoveredEdges(ctx.graph, out);
  const discovered = out.discovered !== undefined && out.discovered.length <= m.listCap ? out.discovered.copy() : undefined;
  const ms = performance.now() - t0;
  return {
    type: 'vote',
    actor,
    step,
    active: out.active,
    sum: sums.reduce((a, b) => a + b, 0),
    ...(sums.length > 0 ? { sums: Float64Array.from(sums) } : {}),
    edges: out.edges,
    tasks: tasks.length,
    stolen: 0,
    stolenEdges: 0,
    computeMs: ms,
    busyMs: ms,
    discovered,
    ...(m.countNext ? { nextEdges } : {}),
  };
}
