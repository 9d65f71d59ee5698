/**
 * What the model needs to know about each program besides rates: the profile its definition
 * declares (define.ts ModelProfile: the mode its bulk of edges runs in, GPU state bytes per
 * vertex, passes, unit, vertex term), plus the bytes of one aggregated message on the link.
 */
import type { ModelProfile } from '../engine/define.js';
import { findProgram } from '../programs/index.js';

/** One aggregated message: u32 destination id + f64 value (src/wire/frames.ts StateMerge). */
export const MESSAGE_BYTES = 12;

/** Device memory the native controller uses by default for an emulated GPU (native/README.md). */
export const EMULATED_GPU_MEMORY = 2 * 1024 ** 3;

export interface ProgramProfile extends ModelProfile {
  /** The program's name (an alias resolved). */
  algo: string;
  messageBytes: number;
  /** ProgramSpec.readsWeights (default true). */
  readsWeights: boolean;
}

export function programProfile(name: string): ProgramProfile {
  const p = findProgram(name);
  return { ...p.profile, algo: p.name, messageBytes: MESSAGE_BYTES, readsWeights: p.readsWeights !== false };
}
