/** What the checkpoint tests share: a crash after a superstep, and a typed array's bytes. */
import { EventEmitter } from 'eventemitter3';
import type { EngineEvents } from '../../src/engine/coordinator.js';

/** Events that stop the run (as a crash would) once superstep `at` has finished. */
export function stopAfter(at: number): EventEmitter<EngineEvents> {
  const e = new EventEmitter<EngineEvents>();
  e.on('superstep', (s) => {
    if (s.step === at) throw new Error(`stopped after superstep ${at}`);
  });
  return e;
}

export const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
