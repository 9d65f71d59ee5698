/**
 * A builder (and generator) helper thread (see team.ts): runs the same kernels as the main thread
 * on its share of the work. It keeps the raw chunks it was given until it has scattered them.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { createGenerator, type EdgeGenerator, type GeneratorSpec } from '../generate/index.js';
import type { WeightArray, WeightType } from '../types.js';
import { outPagesRange, type PlanRows } from './assemble.js';
import { inPagesRange, type TransposeMode } from './transpose.js';
import { collectGarbage } from './gc.js';
import { countChunks, cursorsRange, degreesRange, idMapsRange, scanChunks, type CountTables, type DegreeTables } from './ids.js';
import { scatterShare, type RawShare, type Staging } from './scatter.js';
import type { Page, PageSet } from '../types.js';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };

let share: RawShare | undefined;
let generator: { key: string; g: EdgeGenerator } | undefined;

type Msg =
  | { kind: 'adopt'; share: RawShare }
  | { kind: 'scan'; src: Uint32Array[]; dst: Uint32Array[]; w: WeightArray[] | undefined; lens: number[]; base: number }
  | { kind: 'count'; counts: CountTables }
  | { kind: 'degrees'; counts: CountTables[]; dt: DegreeTables; direct: boolean; directed: boolean; k0: number; k1: number }
  | { kind: 'cursors'; newId: Uint32Array; start: Float64Array; counts: CountTables[]; curs: (Uint32Array | Float64Array)[]; k0: number; k1: number }
  | { kind: 'idmaps'; newId: Uint32Array; toOriginal: Uint32Array; byOriginal: Uint32Array; k0: number; k1: number; r0: number }
  | { kind: 'scatter'; cur: Uint32Array | Float64Array; newId: Uint32Array; directed: boolean; st: Staging }
  | {
      kind: 'out';
      st: Staging;
      plan: PlanRows;
      i0: number;
      i1: number;
      pos0: number;
      layoutDeg: Uint32Array;
      wt: WeightType | undefined;
      outDegree: Uint32Array;
      inDeg: Uint32Array | undefined;
    }
  | { kind: 'in'; outs: Page[]; set: PageSet; p0: number; p1: number; pageEdges: number; mode: TransposeMode | undefined }
  | { kind: 'generate'; spec: GeneratorSpec; b: number; src: Uint32Array; dst: Uint32Array; w: Float32Array | undefined }
  | { kind: 'gc' };

function handle(m: Msg): unknown {
  switch (m.kind) {
    case 'adopt':
      share = m.share;
      return undefined;
    case 'scan':
      return scanChunks(m.src, m.dst, m.w, m.lens, m.base);
    case 'count':
      countChunks(share!.src as Uint32Array[], share!.dst as Uint32Array[], share!.lens, m.counts);
      return undefined;
    case 'degrees':
      return degreesRange(m.counts, m.dt, m.direct, m.directed, m.k0, m.k1);
    case 'cursors':
      cursorsRange(m.newId, m.start, m.counts, m.curs, m.k0, m.k1);
      return undefined;
    case 'idmaps':
      idMapsRange(m.newId, undefined, m.toOriginal, m.byOriginal, m.k0, m.k1, m.r0);
      return undefined;
    case 'scatter':
      scatterShare(share!, m.cur, m.newId, m.directed, m.st);
      share = undefined;
      collectGarbage();
      return undefined;
    case 'out':
      return outPagesRange(m.st, m.plan, m.i0, m.i1, m.pos0, m.layoutDeg, m.wt, m.outDegree, m.inDeg);
    case 'in':
      inPagesRange(m.outs, m.set, m.p0, m.p1, m.pageEdges, m.mode);
      return undefined;
    case 'generate': {
      const key = JSON.stringify(m.spec);
      if (generator?.key !== key) generator = { key, g: createGenerator(m.spec) };
      return generator.g.fill(m.b, m.src, m.dst, m.w);
    }
    case 'gc':
      collectGarbage();
      return undefined;
  }
}

port.on('message', (m: Msg) => {
  let reply: { ok?: unknown; error?: string };
  try {
    reply = { ok: handle(m) };
  } catch (e) {
    reply = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);
