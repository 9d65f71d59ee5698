/**
 * The small topologies the program tests share: one socket of two threads, two sockets of one
 * (tasks split between actors), and an emulated GPU beside a socket; and whether GPU tests run
 * (only a machine without a toolchain for the native controller may skip them).
 */
import { nativeAvailable } from '../../actors/gpu/native.js';
import type { Topology } from '../../src/topology/schema.js';

export const topo = (threads: number[], gpus: Topology['gpus'] = []): Topology => ({ name: `${threads.length}S${gpus.length}G`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus, interconnect: {}, model: {} });
export const ONE = topo([2]);
export const TWO = topo([1, 1]);
export const GPU = topo([2], [{ device: 0, emulated: true, streams: 2 }]);
const avail = nativeAvailable();
export const withGpu = avail.ok || !avail.toolchainMissing;
