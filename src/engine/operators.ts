/**
 * GPU operators of a program (defineProgram's `gpu: { source, kernels }`): per CPU kernel, the
 * CUDA C++ struct of the same name whose device functions the generic native push (TWC) and
 * vertex-group pull kernels call (Gunrock's advance/filter functors, Ligra's edgeMap functors;
 * native/src/kernels_user.h says what each function is). The GPU actor compiles the source at run
 * time (NVRTC on a GPU, the host C++ compiler on the emulated GPU: actors/gpu/operators.ts) and
 * folds what it wrote back by each array's reduce. This file checks a definition's operators.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TesseraError } from '../errors.js';
import type { Mode, StateKind } from '../wire/frames.js';
import type { Reduce, StateSpecs } from './define.js';

export type OperatorArgType = 'f64' | 'i32' | 'u32';
/** An operator's modes: an edgeMap's push or pull, or a vertexMap / vertexFilter pass (`vertex`). */
export type OperatorMode = Mode | 'vertex';

export interface GpuOperator {
  /**
   * What the struct implements: push (`push`), pull (`identity`, `gather`, `combine`, `apply`),
   * vertex (`vertex`: a vertexMap / vertexFilter pass, run on the GPUs where they own every vertex).
   */
  modes: ReadonlyArray<OperatorMode>;
  /**
   * The state arrays the kernel's calls pass, by the names the calls give them (edgeMap's state
   * record), with their types: Env's pointer fields, in this order.
   */
  state: Readonly<Record<string, StateKind>>;
  /** The calls' numeric arguments the operator reads (Env fields of these types). */
  args?: Readonly<Record<string, OperatorArgType>>;
  /** Arrays it only reads: not read back after the step. */
  reads?: ReadonlyArray<string>;
  /**
   * Arrays it writes at every owned vertex (pull: `apply` each, so no `want`; vertex: `vertex`
   * each) and reads nowhere before (no neighbour's entry either): not copied to the device before
   * the step. Reduce 'owner' or 'none' only; not with push.
   */
  fills?: ReadonlyArray<string>;
  /**
   * How its writes to an array combine with other actors' (default: the reduce of the program's
   * state of the same name). 'owner'/'none': each vertex is written by its owner (pull); the
   * device's values of the owned ranges are copied back. Otherwise the device's changes (against
   * what it started from) fold into the host array: 'sum' adds the differences, 'min'/'max'/'or'
   * combine, 'claim' fills entries still -1.
   */
  reduce?: Readonly<Record<string, Reduce>>;
  /**
   * Whose lists the kernel walks. 'graph' (default): out-lists for push, the call's pullPages for
   * pull, as on the CPU. 'undirected': N_in(v) ∪ N_out(v), each neighbour once (a CPU kernel that
   * dedups the undirected view walks the same).
   */
  view?: 'graph' | 'undirected';
  /**
   * With view 'undirected': the names of the call's state arrays that hold that view as a CSR
   * (`undirectedCsr`'s off, f64, and adj, u32; not operator state: they stay on the host). A GPU
   * actor then cuts its union pages from them, a copy, instead of merging its in- and out-pages
   * on the coordinator's thread (~10 ns an entry: seconds at RMAT 22). A call that passes
   * neither (kcore on a graph read from disk) gets the merged pages.
   */
  viewCsr?: { off: string; adj: string };
}

export interface GpuOperators {
  /** The CUDA C++ source: a file URL (`new URL('./gpu.cu', import.meta.url)`) or the text itself. */
  source: URL | string;
  /** One operator per CPU kernel that runs on GPUs, by the kernel's name. */
  kernels: Readonly<Record<string, GpuOperator>>;
}

/** An operator as the GPU actor receives it (the superstep frame's `ops`). */
export interface OperatorSpec {
  modes: OperatorMode[];
  state: Array<[string, StateKind]>;
  args: Array<[string, OperatorArgType]>;
  /** The written arrays and their reduce. */
  writes: Array<[string, Reduce]>;
  /** GpuOperator.fills. */
  fills: string[];
  view: 'graph' | 'undirected';
  /** GpuOperator.viewCsr: the call's state arrays off and adj. */
  viewCsr?: [string, string];
}

export interface ProgramOperators {
  program: string;
  /** Where the source came from (compiler messages name it). */
  file: string;
  source: string;
  kernels: Record<string, OperatorSpec>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The state types and reduces a definition may declare (defineProgram checks its state with them too). */
export const STATE_KINDS: ReadonlySet<string> = new Set<StateKind>(['f64', 'f32', 'i32', 'u32', 'u8']);
const ARG_TYPES = new Set(['f64', 'i32', 'u32']);
export const REDUCES: ReadonlySet<string> = new Set<Reduce>(['min', 'max', 'sum', 'or', 'claim', 'owner', 'none']);
const SLOTS = 8;

/** Checks a definition's GPU operators (names, types, reduces) and reads the source file. */
export function checkOperators(program: string, ops: GpuOperators, state: StateSpecs): ProgramOperators {
  const bad = (what: string, fix: string): never => {
    throw new TesseraError(`program '${program}': gpu ${what}`, { fix });
  };
  let file = 'operators.cu';
  let source: string;
  if (ops.source instanceof URL || /^file:/.test(String(ops.source))) {
    const url = ops.source instanceof URL ? ops.source : new URL(String(ops.source));
    if (url.protocol !== 'file:') bad(`source '${url.href}' is not a file URL`, "give new URL('./gpu.cu', import.meta.url) or the source text");
    file = fileURLToPath(url);
    try {
      source = readFileSync(file, 'utf8');
    } catch (e) {
      return bad(`source ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`, 'ship the .cu file beside the program module');
    }
  } else if (typeof ops.source === 'string') source = ops.source;
  else return bad('source is missing', "give gpu.source: new URL('./gpu.cu', import.meta.url)");
  const kernels: Record<string, OperatorSpec> = {};
  for (const [k, op] of Object.entries(ops.kernels ?? {})) {
    if (!IDENT.test(k)) bad(`kernel '${k}' is not a C++ identifier`, 'name the kernel with letters, digits and _');
    const modes = [...(op.modes ?? [])];
    if (modes.length === 0 || modes.some((m) => m !== 'push' && m !== 'pull' && m !== 'vertex')) bad(`kernel '${k}' needs modes: ['push'], ['pull'] and/or ['vertex']`, 'list the modes its struct implements');
    const st = Object.entries(op.state ?? {});
    const args = Object.entries(op.args ?? {});
    if (st.length > SLOTS || args.length > SLOTS) bad(`kernel '${k}' has more than ${SLOTS} state arrays or arguments`, 'pass fewer');
    for (const [n, t] of st) {
      if (!IDENT.test(n)) bad(`kernel '${k}': state '${n}' is not a C++ identifier`, 'rename it in the kernel calls');
      if (!STATE_KINDS.has(t)) bad(`kernel '${k}': state '${n}' has type '${String(t)}'`, 'use f64, f32, i32, u32 or u8');
    }
    for (const [n, t] of args) {
      if (!IDENT.test(n)) bad(`kernel '${k}': argument '${n}' is not a C++ identifier`, 'rename it in the kernel calls');
      if (!ARG_TYPES.has(t)) bad(`kernel '${k}': argument '${n}' has type '${String(t)}'`, 'use f64, i32 or u32');
    }
    const reads = new Set(op.reads ?? []);
    for (const r of reads) if (!(r in (op.state ?? {}))) bad(`kernel '${k}': reads names '${r}', which is not in its state`, 'list only its state arrays');
    const writes: Array<[string, Reduce]> = [];
    for (const [n] of st) {
      if (reads.has(n)) continue;
      const r = op.reduce?.[n] ?? state[n]?.reduce;
      if (r === undefined)
        bad(`kernel '${k}' writes '${n}', which is no state of the program, and declares no reduce for it`, `add reduce: { ${n}: 'owner' | 'sum' | 'min' | ... } or list it in reads`);
      if (!REDUCES.has(r)) bad(`kernel '${k}': reduce '${String(r)}' for '${n}'`, `use one of ${[...REDUCES].join(', ')}`);
      writes.push([n, r]);
    }
    for (const r of Object.keys(op.reduce ?? {})) if (!(r in (op.state ?? {}))) bad(`kernel '${k}': reduce names '${r}', which is not in its state`, 'list only its state arrays');
    const fills = [...(op.fills ?? [])];
    for (const f of fills) {
      const w = writes.find(([n]) => n === f);
      if (w === undefined) bad(`kernel '${k}': fills names '${f}', which it does not write`, 'list only state arrays it writes (not in reads)');
      if (w![1] !== 'owner' && w![1] !== 'none') bad(`kernel '${k}': fills '${f}', whose reduce is '${w![1]}'`, "fill only arrays each vertex's owner writes (reduce 'owner' or 'none')");
    }
    if (fills.length > 0 && modes.includes('push')) bad(`kernel '${k}' fills arrays and pushes`, 'give fills to pull and vertex operators only');
    const view = op.view ?? 'graph';
    if (view !== 'graph' && view !== 'undirected') bad(`kernel '${k}': view '${String(view)}'`, "use 'graph' or 'undirected'");
    const csr = op.viewCsr;
    if (csr !== undefined) {
      if (view !== 'undirected') bad(`kernel '${k}' gives viewCsr with view '${view}'`, "give viewCsr with view: 'undirected' only");
      for (const n of [csr.off, csr.adj]) {
        if (typeof n !== 'string' || !IDENT.test(n)) bad(`kernel '${k}': viewCsr names '${String(n)}'`, 'name the state arrays the calls pass the CSR as');
        if (n in (op.state ?? {})) bad(`kernel '${k}': viewCsr names '${n}', which is in its state`, 'keep the CSR out of the operator state (it stays on the host)');
      }
    }
    kernels[k] = { modes, state: st, args, writes, fills, view, ...(csr !== undefined ? { viewCsr: [csr.off, csr.adj] as [string, string] } : {}) };
  }
  if (Object.keys(kernels).length === 0) bad('names no kernel', 'give gpu.kernels: { <kernel>: { modes, state } }');
  return { program, file, source, kernels };
}
