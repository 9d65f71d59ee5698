// Minimal stand-in for ava (sequential tests, the assertions native.test.ts uses) for running the
// native tests on a machine without node_modules, e.g. a GPU box: copy this folder to
// node_modules/ava, then `node dist/test/native.test.js` (SHIM_MATCH=regex picks tests).
import assert from 'node:assert/strict';
const tests = [];
const only = process.env.SHIM_MATCH ? new RegExp(process.env.SHIM_MATCH) : undefined;
function test(title, fn) { tests.push({ title, fn, skip: false }); }
test.skip = (title, fn) => tests.push({ title, fn, skip: true });
class T {
  constructor(title) { this.title = title; this.logs = []; this.failures = []; this.count = 0; }
  log(...a) { this.logs.push(a.join(' ')); }
  pass() { this.count++; }
  fail(m) { this.failures.push(m ?? 'fail'); }
  _c(f, m) { this.count++; try { f(); } catch (e) { this.failures.push(`${m ?? ''} ${e.message}`.slice(0, 2000)); } }
  true(x, m) { this._c(() => assert.equal(x, true), m); }
  truthy(x, m) { this._c(() => assert.ok(x), m); }
  is(a, b, m) { this._c(() => assert.ok(Object.is(a, b), `${a} !== ${b}`), m); }
  deepEqual(a, b, m) { this._c(() => assert.deepStrictEqual(a, b), m); }
  regex(s, r, m) { this._c(() => assert.match(s, r), m); }
  async throwsAsync(p, exp = {}, m) {
    this.count++;
    try { await (typeof p === 'function' ? p() : p); this.failures.push(`${m ?? ''} did not throw`); return; }
    catch (e) {
      if (exp.code !== undefined && e.code !== exp.code) this.failures.push(`${m ?? ''} code ${e.code} != ${exp.code} (${e.message})`);
      if (exp.message instanceof RegExp && !exp.message.test(e.message)) this.failures.push(`${m ?? ''} message ${e.message} !~ ${exp.message}`);
      return e;
    }
  }
}
setImmediate(async () => {
  let pass = 0, fail = 0, skip = 0;
  for (const { title, fn, skip: s } of tests) {
    if (only && !only.test(title)) continue;
    if (s) { skip++; console.log(`  - ${title} (skipped)`); continue; }
    const t = new T(title);
    const t0 = performance.now();
    try { await fn(t); } catch (e) { t.failures.push(`threw: ${e.stack ?? e}`); }
    const ms = (performance.now() - t0).toFixed(0);
    if (t.failures.length) { fail++; console.log(`  ✘ ${title} (${ms} ms)`); for (const f of t.failures) console.log(`      ${f}`); }
    else { pass++; console.log(`  ✔ ${title} (${ms} ms)`); }
    for (const l of t.logs) console.log(`      ℹ ${l}`);
  }
  console.log(`${pass} passed, ${fail} failed, ${skip} skipped`);
  process.exitCode = fail ? 1 : 0;
});
export default test;
