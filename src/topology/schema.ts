/**
 * Topology files (YAML): which processing elements a run uses. Validated with zod; every error
 * names the file, the key and a fix.
 */
import { z } from 'zod';

import { exactSize, parseSize } from './size.js';

// A size or bandwidth must come to at least one whole byte: 0GiB or 0.1B would pass here and fail
// later (a GPU opened with no memory; a link of 0 B/s gives the model Infinity).
const wholeBytes = (v: string): boolean => {
  const n = parseSize(v);
  return Number.isFinite(n) && n >= 1 && Math.abs(exactSize(v) - n) < 1e-6;
};

const size = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*(B|KB|KiB|MB|MiB|GB|GiB|TB|TiB)?\s*$/i, 'must be a size such as 8GiB or 512MiB')
    .refine(wholeBytes, 'must be a whole number of bytes, at least 1 (such as 8GiB or 512MiB)'),
]);
const bandwidth = z.union([
  z.number().positive(),
  z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)\/s\s*$/i, 'must be a bandwidth such as 25GB/s')
    .refine((v) => parseSize(v) >= 1, 'must be at least 1 B/s (such as 25GB/s)'),
]);

export const socketSchema = z
  .object({
    id: z.number().int().nonnegative().optional(),
    threads: z.union([z.number().int().positive(), z.literal('auto')]).default('auto'),
  })
  .strict();

export const gpuSchema = z
  .object({
    device: z.number().int().nonnegative(),
    emulated: z.boolean().default(false),
    memoryLimit: size.optional(),
    streams: z.number().int().min(1).max(64).default(4),
  })
  .strict();

export const topologySchema = z
  .object({
    name: z.string().optional(),
    sockets: z.array(socketSchema).min(1, 'needs at least one socket'),
    gpus: z.array(gpuSchema).default([]),
    interconnect: z.object({ bandwidth: bandwidth.optional() }).strict().optional(),
    /** Host memory a graph's edge pages may take; a .tsr whose pages take more is read from disk page by page. */
    hostMemoryLimit: size.optional(),
    model: z
      .object({
        rCpu: z.number().positive().optional(),
        rGpu: z.number().positive().optional(),
        c: z.number().positive().optional(),
        /** Fraction of the edges the GPUs own (0..1); the engine's default when absent. */
        gpuShare: z.number().min(0).max(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type TopologyInput = z.input<typeof topologySchema>;

export interface Topology {
  name: string;
  /** Where it came from: a file path or 'detected'. */
  source: string;
  sockets: Array<{ id: number; threads: number }>;
  gpus: Array<{ device: number; emulated: boolean; memoryLimit?: number; streams: number }>;
  interconnect: { bandwidth?: number };
  /** Bytes of host memory a graph's edge pages may take (graph/store.ts); absent: no limit. */
  hostMemoryLimit?: number;
  model: { rCpu?: number; rGpu?: number; c?: number; gpuShare?: number };
}

export { parseSize };
