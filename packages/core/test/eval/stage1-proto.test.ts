/**
 * scripts/stage1-proto.mjs, the prototype of a two-stage scan (packages/core/README.md gives its figures): its stage 1 writes exactly the structural
 * offsets a byte-at-a-time reference finds (every quote, opening quotes only, or none) with every token at every
 * position relative to the 16- and 64-byte words, refuses control bytes in strings, bad escapes and open strings;
 * its stage 2 sketches (offsets in memory, and fused) give JSON.parse's verdict on compact lines or say "slow
 * path" (-2); the script answers bad arguments with exit code 2. Its figures are only worth what this proves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';
import { assemble } from '../../../../scripts/gen-line-kernel.mjs';
import { fusedWat, referenceStage1, stage1Wat } from '../../../../scripts/stage1-proto.mjs';

// (the tests' TypeScript settings carry no WebAssembly types)
type Wasm = { Module: new (bytes: Uint8Array) => object; Instance: new (m: object, imports: object) => { exports: unknown } };
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

type Exports = {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  stage1(p: number, end: number, out: number): number;
  stage2(p: number, end: number, i: number, stack: number, filter: number): number;
  fused(p: number, end: number, stack: number, filter: number): number;
};

const AT = 4096;
const OUT = 65536;
const STACK = 2048;
const FILTER = 0;
const MODES = ['all', 'open', 'none'] as const;
let stage1: Record<(typeof MODES)[number], Exports>;
let shufti: Exports;
let fused: Exports;

const instance = async (text: string) => {
  const ex = new wasm.Instance(new wasm.Module(await assemble(text)), {}).exports as Exports;
  ex.memory.grow(4);
  return ex;
};

beforeAll(async () => {
  stage1 = {
    all: await instance(stage1Wat({ consts: true, minCtl: true, escapes: true })),
    open: await instance(stage1Wat({ consts: true, minCtl: true, escapes: true, quotes: 'open' })),
    none: await instance(stage1Wat({ escapes: true, quotes: 'none' })),
  };
  shufti = await instance(stage1Wat({ consts: true, minCtl: true, escapes: true, quotes: 'open', shufti: true }));
  fused = await instance(fusedWat());
});

/** The line in the module's memory at AT, ended by a line feed and followed by other bytes (not zeros). */
const put = (ex: Exports, line: Uint8Array) => {
  const u8 = new Uint8Array(ex.memory.buffer);
  u8.fill(0x22, AT - 64, AT + line.length + 200);
  u8.set(line, AT);
  u8[AT + line.length] = 10;
};

const offsets = (ex: Exports, line: Uint8Array) => {
  put(ex, line);
  const n = ex.stage1(AT, AT + line.length, OUT);
  return n < 0 ? -1 : Array.from(new Int32Array(ex.memory.buffer, OUT, n), (x) => x - AT);
};

/** JSON.parse's verdict on a line: 1 an object, 0 anything else. */
const verdict = (line: Uint8Array) => {
  try {
    const v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(line));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? 1 : 0;
  } catch {
    return 0;
  }
};

const sketches = (line: Uint8Array) => {
  put(shufti, line);
  let two = shufti.stage1(AT, AT + line.length, OUT);
  two = two < 0 ? 0 : shufti.stage2(AT, AT + line.length, OUT, STACK, FILTER);
  put(fused, line);
  return [two, fused.fused(AT, AT + line.length, STACK, FILTER)];
};

const enc = (s: string) => new TextEncoder().encode(s);

// what stage 1 must get right wherever it falls in a word: escaped quotes after backslash runs of odd and even
// length, structurals inside strings, every escape, control bytes and a string left open
const PAYLOADS = [
  '\\\\', '\\"', '\\\\\\"', '\\\\\\\\', '\\\\\\\\\\"x', '{}[]:,', '\\u0041\\u00e9', '\\/\\b\\f\\n\\r\\t', 'é€𝄞',
  '\\q', '\\u00zz', '\\u12', '\x01', '\x1f', '"', '\\',
];

describe('stage1-proto: stage 1', () => {
  it('writes the reference offsets with every payload at every offset of a 64-byte word, in every mode', () => {
    let checked = 0;
    for (const payload of PAYLOADS)
      for (let k = 0; k < 140; k++) {
        const line = enc(`{"${'a'.repeat(k)}":"${payload}","b":[1,{"c":"${payload}"}]}`);
        for (const mode of MODES) {
          expect(offsets(stage1[mode], line), `${mode} ${k} ${payload}`).toEqual(referenceStage1(line, 0, line.length, mode));
          checked++;
        }
        expect(offsets(shufti, line)).toEqual(referenceStage1(line, 0, line.length, 'open'));
      }
    expect(checked).toBe(PAYLOADS.length * 140 * 3);
  });

  it('carries a backslash run and an open string across a word boundary', () => {
    for (let run = 1; run <= 6; run++)
      for (let k = 40; k < 70; k++) {
        // the run ends at byte k + run + 7, before or after the quote that it may escape
        const line = enc(`{"x":"${'y'.repeat(k)}${'\\'.repeat(run)}"${run % 2 ? '"' : ''}}`);
        const ref = referenceStage1(line, 0, line.length, 'all');
        expect(offsets(stage1.all, line), `${run} ${k}`).toEqual(ref);
        expect(ref).not.toBe(-1);
      }
  });

  it('refuses a control byte in a string, a bad escape and a string left open, but not control bytes outside strings', () => {
    expect(offsets(stage1.all, enc('{"a":"x\ty"}'))).toBe(-1);
    expect(offsets(stage1.all, enc('{"a":"\\x"}'))).toBe(-1);
    expect(offsets(stage1.all, enc('{"a":"\\u004g"}'))).toBe(-1);
    expect(offsets(stage1.all, enc('{"a":"x}'))).toBe(-1);
    // a backslash outside strings (the quote it escapes once passed for a key's closing quote)
    expect(offsets(stage1.all, enc('{"a"\\":1}'))).toBe(-1);
    expect(offsets(stage1.none, enc('{"a":1\\}'))).toBe(-1);
    expect(offsets(stage1.all, enc('{"a":\t1}'))).toEqual([0, 1, 3, 4, 7]);
  });
});

describe('stage1-proto: the stage 2 sketches', () => {
  it('agree with JSON.parse on these lines or take the slow path', () => {
    const cases: [string, number][] = [
      ['{}', 1], ['{"a":1}', 1], ['{"a":[1,2,{"b":"c"}],"d":{}}', 1], ['{"a":[[]],"b":[{}]}', 1],
      ['{"a":-1.5e+3,"b":true,"c":null,"d":false}', 1], ['{"a":1,}', 0], ['{"a" "b":1}', 0], ['{"a":"x\\q"}', 0],
      ['{"a":[1,2}', 0], ['{"a":1}}', 0], ['{"a":1}x', 0], ['{"a":"\x01"}', 0], ['{,"a":1}', 0], ['[1]', 0], ['{"a":}', 0],
      ['{"aa\\"aa"\\":"x"}', 0], ['{"a":"\\\\"}', 1],
    ];
    for (const [line, expected] of cases) {
      expect(verdict(enc(line))).toBe(expected);
      for (const got of sketches(enc(line))) expect([expected, -2], line).toContain(got);
    }
    // the slow path: whitespace between tokens
    expect(sketches(enc('{"a": 1}'))).toEqual([-2, -2]);
  });

  it('agree with JSON.parse on generated compact objects and their one-byte mutations', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'ab"\\:,{}[] \x01\u00e9u0'.split('')), maxLength: 6 });
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(true, false, null, 0, -1, 12345678901234, 1.5e-7),
        ascii,
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(ascii, tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.dictionary(ascii, value, { maxKeys: 5 }), fc.nat(), fc.constantFrom('', 'x', '"', ',', '}', '\\', '1'), fc.nat(70), (obj, at, ins, pad) => {
        const compact = JSON.stringify({ ['p'.repeat(pad)]: 0, ...obj });
        for (const line of [compact, compact.slice(0, at % compact.length) + ins + compact.slice((at % compact.length) + 1)]) {
          const bytes = enc(line);
          const expected = verdict(bytes);
          for (const got of sketches(bytes)) expect([expected, -2], line).toContain(got);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('stage1-proto: the script', () => {
  const script = path.join(REPO, 'scripts/stage1-proto.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage1-proto-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

  it('times every variant against $scan after checking them on every line', () => {
    const file = path.join(dir, 'lines.ndjson');
    fs.writeFileSync(file, ['{"a":1,"b":"x\\u0026y","c":{"d":[1,2,{"e":null}]},"f":true}', '', '{"g":"' + 'z'.repeat(100) + '"}'].join('\n'));
    const r = run('--kernel', path.join(REPO, 'packages/core/src/eval/kernel.wat'), '--rounds', '1', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^2 lines, /m);
    expect(r.stdout).toMatch(/^slow path .*: two-stage 0, fused 0 of 2$/m);
  });

  it('answers bad arguments with exit code 2', () => {
    for (const args of [[], ['--rounds', '0', 'x'], ['--bogus', 'x'], [path.join(dir, 'missing.ndjson')], ['--kernel']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^stage1-proto: /);
    }
  });
});
