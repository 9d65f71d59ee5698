/**
 * Every figure in the README's Status section is backed: each paragraph or bullet with numbers
 * names the result folder(s) that hold them (`bench/results/...`), and every number in it appears
 * (as a whole number, not inside another) in a text file of a folder it names.
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';

function textOf(dir: string): string {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const f = path.join(dir, e);
    if (statSync(f).isDirectory()) out.push(textOf(f));
    else if (/\.(txt|md|json|jsonl|csv)$/.test(e)) out.push(readFileSync(f, 'utf8'));
  }
  return out.join('\n');
}

test("the README's Status figures are in the result folders each names", (t) => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const status = readme.slice(readme.indexOf('## Status'), readme.indexOf('## Layout'));
  t.true(status.length > 200, 'a Status section');
  let checked = 0;
  for (const block of status.split(/\n\s*\n|\n- /)) {
    const cites = [...block.matchAll(/bench\/results\/[\w.-]+/g)].map((m) => m[0]);
    const prose = block.replace(/`?bench\/results\/[\w.-]+`?/g, '').replace(/`[^`]*`/g, (c) => (/^`--/.test(c) ? '' : c));
    const numbers = [...prose.matchAll(/(?<![\w.])\d+(?:\.\d+)?/g)].map((m) => m[0]);
    if (numbers.length === 0) continue;
    t.true(cites.length > 0, `figures without a result folder: "${block.slice(0, 60)}..."`);
    const text = cites.map((c) => textOf(path.join(REPO_ROOT, c))).join('\n');
    for (const n of numbers) {
      const found = new RegExp(`(?<![\\d.])${n.replace('.', '\\.')}(?![\\d])`).test(text);
      t.true(found, `${n} ("${block.slice(0, 50)}...") is not in ${cites.join(', ')}`);
      checked++;
    }
  }
  t.true(checked > 20, `${checked} figures checked`);
});
