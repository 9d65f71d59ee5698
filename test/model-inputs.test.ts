/**
 * The model's refusals of bad input: a damaged calibration cache entry (refused, the file kept
 * whole).
 */
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTesseraError } from '../src/errors.js';
import { readCache, writeCacheEntry } from '../src/model/index.js';

test('calibration cache: a damaged entry is refused in one line naming it; the other entries stay', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cache-'));
  const file = path.join(dir, 'cal.json');
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < 7; i++) entries[`t#${i}|bfs|pull`] = { rGpu: 1e9, rCpu: 1e8 };
  (entries['t#3|bfs|pull'] as { rGpu: number }).rGpu = -1;
  const text = JSON.stringify({ version: 3, entries });
  writeFileSync(file, text);
  const e = await t.throwsAsync(readCache(file));
  t.true(isTesseraError(e));
  t.regex(e!.message, /cal\.json: calibration cache entry 't#3\|bfs\|pull' is damaged \(rGpu: .*\) \(at entries\.t#3\|bfs\|pull\.rGpu\)\. Fix: remove that entry/);
  t.false(e!.message.includes('\n'));
  await t.throwsAsync(writeCacheEntry(file, 't#9|bfs|pull', { rGpu: 2e9 }));
  t.is(readFileSync(file, 'utf8'), text, 'the file is kept as it was');
});
