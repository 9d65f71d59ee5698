/**
 * A builder (and generator) helper thread (see team.ts): runs the same kernels as the main thread
 * on its share of the work. It keeps the raw chunks it was given until it has scattered them.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { createGenerator, type EdgeGenerator, type GeneratorSpec } from '../generate/index.js';
import type { WeightArray, WeightType } from '../types.js';
import { outPagesTaken, type PlanRows } from './assemble.js';
import { transposeStep, type TransposeShared, type TransposeStep } from './transpose.js';
import { collectGarbage } from './gc.js';
import { countChunks, cursorsRange, degreesRange, idMapsRange, placeRange, scanChunks, type CountTables, type DegreeTables } from './ids.js';
import { scatterShare, type RawShare, type Staging } from './scatter.js';

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };

let share: RawShare | undefined;
let generator: { key: string; g: EdgeGenerator } | undefined;
/** The arrays of the transpose under way (transpose.ts). */
let transposed: TransposeShared | undefined;

type Msg =
  | { kind: 'adopt'; share: RawShare }
  | { kind: 'scan'; src: Uint32Array[]; dst: Uint32Array[]; w: WeightArray[] | undefined; lens: number[]; base: number }
  | { kind: 'count'; counts: CountTables }
  | { kind: 'degrees'; counts: CountTables[]; dt: DegreeTables; direct: boolean; directed: boolean; k0: number; k1: number; hist: Uint32Array | undefined }
  | { kind: 'place'; dt: DegreeTables; layoutDeg: Uint32Array; rawIn: Uint32Array | undefined; next: Float64Array; byDegree: boolean; k0: number; k1: number }
  | { kind: 'cursors'; newId: Uint32Array; start: Float64Array; counts: CountTables[]; curs: (Uint32Array | Float64Array)[]; k0: number; k1: number }
  | { kind: 'idmaps'; newId: Uint32Array; toOriginal: Uint32Array; byOriginal: Uint32Array; k0: number; k1: number; r0: number }
  | { kind: 'scatter'; cur: Uint32Array | Float64Array; newId: Uint32Array; directed: boolean; st: Staging }
  | { kind: 'out'; st: Staging; plan: PlanRows; units: { at: number[]; pos: number[] }; next: Int32Array; layoutDeg: Uint32Array; wt: WeightType | undefined; outDegree: Uint32Array; inDeg: Uint32Array | undefined }
  | { kind: 'transpose-share'; sh: TransposeShared | undefined }
  | { kind: 'transpose'; s: TransposeStep }
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
      return degreesRange(m.counts, m.dt, m.direct, m.directed, m.k0, m.k1, m.hist);
    case 'place':
      return placeRange(m.dt, m.layoutDeg, m.rawIn, m.next, m.byDegree, m.k0, m.k1);
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
      return outPagesTaken(m.st, m.plan, m.units, m.next, m.layoutDeg, m.wt, m.outDegree, m.inDeg);
    case 'transpose-share':
      transposed = m.sh;
      return undefined;
    case 'transpose':
      return transposeStep(transposed!, m.s);
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
