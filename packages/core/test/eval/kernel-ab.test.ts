/**
 * scripts/kernel-ab.mjs, the A/B of two line kernels over NDJSON files: it gives each line the verdict the
 * kernel's $scan gives, refuses to time kernels that disagree on any line (naming the first such line), and
 * answers bad arguments with exit code 2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';

const script = path.join(REPO, 'scripts/kernel-ab.mjs');
const kernel = path.join(REPO, 'packages/core/src/eval/kernel.wat');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-ab-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// lines of every verdict: valid objects (one nested, one with CRLF), an object key spelled with an escape,
// malformed lines and a non-object; blank lines are not scanned; the last line has no line feed
const lines = [
  '{"a":1,"b":"x","c":{"d":[1,2,{"e":null}]},"f":true}',
  '',
  '   ',
  '{"a":',
  '[1]',
  '{"\\u0061":2}',
  '{"s":"' + 'y'.repeat(40) + '\\n"}\r',
  '{"a":1}}',
  '{"b":"x"}',
];
const file = path.join(dir, 'lines.ndjson');
fs.writeFileSync(file, lines.join('\n'));

const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('kernel-ab', () => {
  it('gives every non-blank line its verdict and times both kernels', () => {
    const r = run('--a', kernel, '--b', kernel, '--rounds', '2', '--json', file);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.lines).toBe(7);
    expect(out.verdicts).toEqual({ notObject: 3, valid: 3, escapedKey: 1 });
    expect(out.rounds).toBe(2);
    expect(out.a.medianMs).toBeGreaterThanOrEqual(0);
    expect(out.b.fastestMs).toBeGreaterThanOrEqual(0);
  });

  it('exits 1 naming the first line on which the kernels disagree', () => {
    // a kernel that takes `[` for the line's opening brace: line 1 is then not an object
    const text = fs.readFileSync(kernel, 'utf8');
    const opening = '(if (i32.ne (i32.load8_u (local.get $p)) (i32.const 123)) (then (return (i32.const 0))))';
    expect(text.split(opening).length).toBeGreaterThan(1);
    const broken = path.join(dir, 'broken.wat');
    fs.writeFileSync(broken, text.replace(opening, opening.replace('123', '91')));
    const r = run('--a', kernel, '--b', broken, '--rounds', '1', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${file}:1 `);
    expect(r.stdout).toBe('');
  });

  it('answers bad arguments and a kernel that does not assemble with exit code 2', () => {
    const bad = path.join(dir, 'bad.wat');
    fs.writeFileSync(bad, '(module (func $f (result i32)))');
    for (const args of [[], ['--rounds', '0', file], ['--bogus', file], ['--a'], [path.join(dir, 'missing.ndjson')], ['--a', bad, '--b', kernel, file]]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^kernel-ab: /);
      expect(r.stdout).toBe('');
    }
  });
});
