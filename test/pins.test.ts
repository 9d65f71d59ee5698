/** The GPU actor's host page-locks (actors/gpu/pins.ts): on a buffer's second copy, once; never where the controller stages copies. */
import test from 'ava';
import { HostPins } from '../actors/gpu/pins.js';
import type { GpuController } from '../actors/gpu/native.js';

function fakeController(emulated = true): { ctl: GpuController; pinned: number[]; unpinned: number[] } {
  const pinned: number[] = [];
  const unpinned: number[] = [];
  const ctl = {
    options: { emulated },
    pinHost: async (v: { byteLength: number }) => (pinned.push(v.byteLength), true),
    unpinHost: async (v: { byteLength: number }) => void unpinned.push(v.byteLength),
  } as unknown as GpuController;
  return { ctl, pinned, unpinned };
}

test('a buffer copied once stays pageable; its second copy locks it, and only once', async (t) => {
  const { ctl, pinned, unpinned } = fakeController();
  const pins = new HostPins();
  const big = new Float64Array(new SharedArrayBuffer(1 << 21));
  await pins.pin(ctl, big);
  t.deepEqual(pinned, [], 'first copy: pageable');
  await pins.pin(ctl, big.subarray(0, 1 << 17));
  t.deepEqual(pinned, [1 << 20], 'second copy of the same buffer: locked (the view asked for)');
  await pins.pin(ctl, big);
  t.is(pinned.length, 1, 'kept');
  const small = new Float64Array(16);
  for (let i = 0; i < 3; i++) await pins.pin(ctl, small);
  t.is(pinned.length, 1, 'buffers under 1 MiB are never locked');
  await pins.unpinAll(ctl);
  t.deepEqual(unpinned, [1 << 20]);
  await pins.pin(ctl, big);
  t.is(pinned.length, 2, 'a buffer seen before is locked again at once after unpinAll');
});

test('a real GPU stages its state copies (1 MiB and up; smaller ones are small): no buffer is ever locked', async (t) => {
  const { ctl, pinned } = fakeController(false);
  const pins = new HostPins();
  const big = new Float64Array(new SharedArrayBuffer(32 * 2 ** 20));
  for (let i = 0; i < 3; i++) await pins.pin(ctl, big);
  await pins.pin(ctl, big.subarray(0, 16));
  t.deepEqual(pinned, []);
});
