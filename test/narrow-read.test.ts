/**
 * readState of a large i32 / u32 range packs its values on the device into 1 or 2 bytes where
 * they span under 2^8 or 2^16 (bfs's depths, core numbers) and widens them on the host; any other
 * range is copied as it is. Both give back exactly the device's values, at any offset, across the
 * packed chunks (an emulated device packs 16 KiB chunks, so these ranges take many, reusing its
 * ring of buffers). Skips only where the addon could not be built for want of a toolchain.
 */
import test from 'ava';
import { nativeAvailable, type GpuController } from '../actors/gpu/native.js';
import { emu, rng } from './helpers/native-pages.js';

const avail = nativeAvailable();
const t_ = !avail.ok && avail.toolchainMissing ? test.skip : test;

// Past the real device's 1 MiB threshold too (the tests run on a device where one is built).
const N = 300_007;

async function narrowReads(c: GpuController): Promise<number> {
  return (await c.info()).totals.narrowReads;
}

/** Writes `values` to a fresh device array, reads [offset, offset + length) back; whether it was packed. */
async function roundTrip(c: GpuController, values: Int32Array | Uint32Array, offset = 0, length = values.length - offset): Promise<boolean> {
  const kind = values instanceof Int32Array ? 'i32' : 'u32';
  await c.allocState('a', kind, values.length);
  await c.writeState('a', values);
  const before = await narrowReads(c);
  const into = values instanceof Int32Array ? new Int32Array(length) : new Uint32Array(length);
  into.fill(7);
  await c.readState('a', into, offset);
  const want = values.subarray(offset, offset + length);
  let bad = -1;
  for (let i = 0; i < length && bad < 0; i++) if (into[i] !== want[i]) bad = i;
  if (bad >= 0) throw new Error(`${kind} entry ${offset + bad}: read ${into[bad]}, wrote ${want[bad]}`);
  await c.freeState('a');
  return (await narrowReads(c)) > before;
}

t_('i32 and u32 ranges come back exactly, packed where their values span under 2^16', async (t) => {
  const c = await emu();
  try {
    const r = rng(5);
    const depths = Int32Array.from({ length: N }, () => Math.floor(r() * 40) - 1); // -1 .. 38
    t.true(await roundTrip(c, depths), 'a byte a value');
    const wide16 = Int32Array.from({ length: N }, () => -30_000 + Math.floor(r() * 65_000));
    t.true(await roundTrip(c, wide16), 'two bytes a value');
    const lowest = Int32Array.from({ length: N }, () => -(2 ** 31) + Math.floor(r() * 200));
    t.true(await roundTrip(c, lowest), 'near the smallest i32');
    const highU = Uint32Array.from({ length: N }, () => 2 ** 32 - 1 - Math.floor(r() * 255));
    t.true(await roundTrip(c, highU), 'u32 near 2^32 - 1');
    const spread = Int32Array.from({ length: N }, () => Math.floor((r() - 0.5) * 2 ** 31));
    t.false(await roundTrip(c, spread), 'values spanning 2^31 are copied as they are');
    const just = Int32Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 5 : 5 + 65_536));
    t.false(await roundTrip(c, just), 'a span of exactly 2^16 needs 4 bytes');
    const edge = Uint32Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 0 : i % 3 === 1 ? 255 : 17));
    t.true(await roundTrip(c, edge), 'a span of 255: one byte');
  } finally {
    await c.close();
  }
});

t_('a packed read at an offset, of an odd length, and a short read copied as it is', async (t) => {
  const c = await emu();
  try {
    const r = rng(11);
    const v = Int32Array.from({ length: N }, () => Math.floor(r() * 12));
    t.true(await roundTrip(c, v, 1_234, 270_001));
    t.true(await roundTrip(c, v, N - 262_145));
    t.false(await roundTrip(c, v, 17, 1_000), 'under the threshold');
  } finally {
    await c.close();
  }
});
