/**
 * The WebAssembly line kernel against JSON.parse: the same verdict on every line (valid JSON object or not,
 * UTF-8 included), and for valid lines the value of each wanted key's last top-level occurrence.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { createLineKernel, NOT_OBJECT, VALID, VALID_ESCAPED_KEY } from '../../src/eval/line-kernel.js';
import { isLogObject } from '../../src/eval/matcher.js';

const enc = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });
const FIELDS = ['a', 'host', 'n', 'BotScore', 'ClientRequestHost', 'constructor', 'é'];

/** What JSON.parse says of these bytes as a log line: the object, or undefined when it is not one. */
function parsed(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(fatal.decode(bytes));
    return isLogObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

interface Outcome {
  verdict: number;
  values: Record<string, unknown>;
}

/**
 * The kernel on one line, placed after a few spaces in a block; `followed`: a `\n` and another (valid) line
 * come after it, else the line ends the loaded range.
 */
function run(bytes: Uint8Array, fields: string[] = FIELDS, followed = true): Outcome {
  const kernel = createLineKernel(fields)!;
  const at = 3;
  const next = followed ? enc.encode('\n{"a":1}') : new Uint8Array(0);
  const block = new Uint8Array(at + bytes.length + next.length).fill(32);
  block.set(bytes, at);
  block.set(next, at + bytes.length);
  kernel.load(block, followed ? 0 : at, block.length);
  const verdict = kernel.scan(at, at + bytes.length);
  const values: Record<string, unknown> = {};
  if (verdict === VALID) {
    fields.forEach((f, i) => {
      if (kernel.starts[i]! >= 0) values[f] = JSON.parse(fatal.decode(block.subarray(kernel.starts[i]!, kernel.ends[i]!)));
    });
  }
  return { verdict, values };
}

function agrees(bytes: Uint8Array, fields: string[] = FIELDS): void {
  agreesIn(bytes, fields, true);
  agreesIn(bytes, fields, false);
}

function agreesIn(bytes: Uint8Array, fields: string[], followed: boolean): void {
  const expected = parsed(bytes);
  const got = run(bytes, fields, followed);
  if (expected === undefined) {
    expect(got.verdict).toBe(NOT_OBJECT);
    return;
  }
  expect(got.verdict).not.toBe(NOT_OBJECT);
  if (got.verdict === VALID_ESCAPED_KEY) return;
  const want: Record<string, unknown> = {};
  for (const f of fields) if (Object.prototype.hasOwnProperty.call(expected, f)) want[f] = expected[f];
  expect(got.values).toEqual(want);
  // -0 survives (toEqual would not tell it from 0)
  for (const f of Object.keys(want)) if (Object.is(want[f], -0)) expect(Object.is(got.values[f], -0)).toBe(true);
}

const agreesText = (line: string) => agrees(enc.encode(line));

// ---- generators --------------------------------------------------------------------------------------------

const NUMBERS = ['0', '-0', '1', '-1', '10', '1e5', '1E+5', '1e-5', '-1.5e-3', '0.0', '1.25', '123456789012345678901234567890', '1e999', '-1e-999',
  '01', '00', '1.', '.5', '-', '+1', '1e', '1e+', '0x1', 'Infinity', 'NaN', '1.5.5', '--1', '-.5', '1.e5', '2e0', '9007199254740993', '1715000000148214959'];
const CHARS = ['a', 'b', 'é', '😀', '\u2028', '"', '\\', '/', ' ', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f', '{', '}', '[', ']', ':', ',', '\ud83d', '\udca9', 'x'.repeat(20)];
const WS = ['', '', '', ' ', '\t', '\r', '\n', ' \r\n\t '];

const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((a) => a.join(''));
type Value = { t: 'num'; v: string } | { t: 'str'; v: string } | { t: 'lit'; v: string } | { t: 'arr'; v: Value[] } | { t: 'obj'; v: Array<[string, Value]> };
const KEYS = fc.oneof(fc.constantFrom(...FIELDS, 'other', 'hos', 'hosts', 'ClientRequestHosT'), text);
const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...NUMBERS).map((v) => ({ t: 'num' as const, v })),
    text.map((v) => ({ t: 'str' as const, v })),
    fc.constantFrom('true', 'false', 'null', 'tru', 'nul', 'False', 'truee').map((v) => ({ t: 'lit' as const, v })),
    fc.array(tie('v'), { maxLength: 3 }).map((v) => ({ t: 'arr' as const, v })),
    fc.array(fc.tuple(KEYS, tie('v')), { maxLength: 3 }).map((v) => ({ t: 'obj' as const, v })),
  ),
})).v;

/** A string literal, each character randomly escaped (short escapes, \u either case), raw control characters left raw sometimes. */
function str(s: string, pick: () => number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = ch.charCodeAt(0);
    const p = pick();
    const u = '\\u' + code.toString(16).padStart(4, '0');
    if (p === 0) out += u;
    else if (p === 1) out += u.toUpperCase().replace('\\U', '\\u');
    else if (ch === '"' || ch === '\\' || code < 0x20) out += p === 2 && code < 0x20 ? ch : JSON.stringify(ch).slice(1, -1);
    else if (ch === '/' && p === 3) out += '\\/';
    else out += ch;
  }
  return out + '"';
}

function write(v: Value, pick: () => number, ws: () => string): string {
  switch (v.t) {
    case 'num':
    case 'lit':
      return v.v;
    case 'str':
      return str(v.v, pick);
    case 'arr':
      return '[' + ws() + v.v.map((x) => write(x, pick, ws)).join(ws() + ',' + ws()) + ws() + ']';
    case 'obj':
      return '{' + ws() + v.v.map(([k, x]) => str(k, pick) + ws() + ':' + ws() + write(x, pick, ws)).join(ws() + ',' + ws()) + ws() + '}';
  }
}

const line = fc
  .record({
    members: fc.array(fc.tuple(KEYS, value), { maxLength: 7 }),
    picks: fc.array(fc.nat(9), { minLength: 1, maxLength: 9 }),
    spaces: fc.array(fc.constantFrom(...WS), { minLength: 1, maxLength: 5 }),
    shape: fc.constantFrom('object', 'object', 'object', 'object', 'truncated', 'garbage', 'array', 'scalar', 'string'),
  })
  .map(({ members, picks, spaces, shape }) => {
    let k = 0;
    let w = 0;
    const pick = () => picks[k++ % picks.length]!;
    const ws = () => spaces[w++ % spaces.length]!;
    const obj = write({ t: 'obj', v: members }, pick, ws);
    switch (shape) {
      case 'truncated':
        return obj.slice(0, Math.max(0, obj.length - 1 - (picks[0]! % 4)));
      case 'garbage':
        return obj + ws() + ['x', '}', ',', '{}', '0', '"'][picks[0]! % 6];
      case 'array':
        return ws() + '[' + obj + ']';
      case 'scalar':
        return write(members[0]?.[1] ?? { t: 'num', v: '1' }, pick, ws);
      case 'string':
        return str(obj, pick);
      default:
        return ws() + obj + ws();
    }
  });

/** Lines that JSON.parse accepts, to mutate. */
const validLine = fc
  .record({ members: fc.array(fc.tuple(KEYS, value), { maxLength: 6 }), picks: fc.array(fc.nat(9), { minLength: 1, maxLength: 5 }) })
  .map(({ members, picks }) => {
    let k = 0;
    return write({ t: 'obj', v: members }, () => picks[k++ % picks.length]!, () => '');
  })
  .filter((l) => parsed(enc.encode(l)) !== undefined);

// ---- tests -------------------------------------------------------------------------------------------------

describe('line kernel', () => {
  it('is available here (Node runs WebAssembly)', () => {
    expect(createLineKernel(FIELDS)).toBeDefined();
  });

  it.each([
    ['{}', VALID],
    [' \t{ }\r', VALID],
    ['{"a":1}', VALID],
    ['{"a":1,}', NOT_OBJECT],
    ['{,"a":1}', NOT_OBJECT],
    ['{"a" 1}', NOT_OBJECT],
    ['{"a":}', NOT_OBJECT],
    ['{"a":1 "b":2}', NOT_OBJECT],
    ['{"a":[1,]}', NOT_OBJECT],
    ['{"a":[,1]}', NOT_OBJECT],
    ['{"a":[1 2]}', NOT_OBJECT],
    ['{"a":{"b":1]}', NOT_OBJECT],
    ['{"a":[1}', NOT_OBJECT],
    ['{"a":1}}', NOT_OBJECT],
    ['{"a":1} x', NOT_OBJECT],
    ['{"a":1}{}', NOT_OBJECT],
    ['[]', NOT_OBJECT],
    ['"{}"', NOT_OBJECT],
    ['1', NOT_OBJECT],
    ['null', NOT_OBJECT],
    ['', NOT_OBJECT],
    ['{', NOT_OBJECT],
    ['{"a', NOT_OBJECT],
    ['{"a\\', NOT_OBJECT],
    ['{"a":"\\u12', NOT_OBJECT],
    ['{"a":"\\x"}', NOT_OBJECT],
    ['{"a":"\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\"}', VALID],
    ['{"a":"\\ud800"}', VALID],
    ['{"a":"\\uDFFF\\uD83D\\uDE00"}', VALID],
    ['{"a":"\u0001"}', NOT_OBJECT],
    ['{"a":"\u007f"}', VALID],
    ['{"\\u0061":1}', VALID_ESCAPED_KEY],
    ['{"o":{"\\u0061":1}}', VALID],
    ['{"a":true,"b":false,"c":null}', VALID],
    ['{"a":tru}', NOT_OBJECT],
    ['{"a":nul}', NOT_OBJECT],
    ['{"a":fals}', NOT_OBJECT],
    ['{"a":True}', NOT_OBJECT],
  ])('%j', (l, verdict) => {
    expect(run(enc.encode(l)).verdict).toBe(verdict);
    agreesText(l);
  });

  it.each(NUMBERS)('the number %s, at top level and nested, as JSON.parse reads it', (n) => {
    agreesText(`{"a":${n}}`);
    agreesText(`{"a":${n} }`);
    agreesText(`{"a":[${n}]}`);
    agreesText(`{"x":{"y":${n}},"n":${n},"a":1}`);
  });

  it('keeps the last top-level occurrence of a key, never a nested one', () => {
    expect(run(enc.encode('{"a":1,"o":{"a":2},"a":"x","l":[{"a":3}]}')).values).toEqual({ a: 'x' });
    expect(run(enc.encode('{"a":{"a":5},"n":[1,{"n":2}]}')).values).toEqual({ a: { a: 5 }, n: [1, { n: 2 }] });
    expect(run(enc.encode('{"a":[1,2],"a":{"b":[]}}')).values).toEqual({ a: { b: [] } });
    expect(run(enc.encode('{"hos":1,"hosts":2,"host":3,"ClientRequestHosT":4}')).values).toEqual({ host: 3 });
    expect(run(enc.encode('{"é":"ü","constructor":null}')).values).toEqual({ é: 'ü', constructor: null });
  });

  it('tells apart many wanted keys, including those alike but for their middle bytes or length', () => {
    const fields = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? `k${i}` : i % 3 === 1 ? `abcdefgh_${i}_${'m'.repeat(i % 9)}_ijklmnop` : `${'x'.repeat(i)}`));
    fields.push('abcdefgh_middle_ijklmnop', 'abcdefgh_MIDDLE_ijklmnop', '');
    const members = fields.map((f, i) => [f, i] as const);
    // near misses of each key: one byte changed in the middle, one byte more, one byte less
    const misses = fields.filter((f) => f.length > 0).flatMap((f) => [f.slice(0, f.length >> 1) + '#' + f.slice((f.length >> 1) + 1), f + 'q', f.slice(1)]);
    const line = '{' + [...misses.map((m) => [m, -1] as const), ...members].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',') + '}';
    const expected = Object.fromEntries(fields.map((f) => [f, (JSON.parse(line) as Record<string, number>)[f]]));
    expect(run(enc.encode(line), fields).values).toEqual(expected);
    expect(run(enc.encode('{' + misses.filter((m) => !fields.includes(m)).map((m) => `${JSON.stringify(m)}:1`).join(',') + '}'), fields).values).toEqual({});
  });

  it('looks up keys of every length: those of 32 bytes and more, and beyond 63 where lengths share one bit', () => {
    const key = (n: number, c = 'k') => c.repeat(n);
    for (const wanted of [[31, 32], [63], [64], [70], [1, 31, 32, 33, 62, 63, 64, 100]]) {
      const fields = wanted.map((n) => key(n));
      const lengths = [1, 2, 30, 31, 32, 33, 62, 63, 64, 65, 70, 99, 100, 101];
      // every length present (some wanted), and keys of a wanted length that are not wanted
      const line = '{' + lengths.flatMap((n) => [`${JSON.stringify(key(n))}:${n}`, `${JSON.stringify(key(n, 'z'))}:0`]).join(',') + '}';
      expect(run(enc.encode(line), fields).values).toEqual(Object.fromEntries(fields.map((f) => [f, f.length])));
    }
  });

  it('reads empty arrays and objects as member values (taken without entering the nesting machine)', () => {
    for (const l of ['{"a":[],"b":{}}', '{"a":{},"b":[]}', '{"a":[ ],"b":{ }}', '{"o":{"a":[],"b":{}},"a":[],"l":[[],{}]}', '{"a":[]}', '{"b":{},"a":1}']) {
      expect(run(enc.encode(l)).verdict).toBe(VALID);
      agreesText(l);
    }
    for (const l of ['{"a":[}', '{"a":{]}', '{"a":[]]}', '{"a":{}}}', '{"a":[],}', '{"a":{}"b":1}', '{"a":[]1}', '{"o":{"a":{}]}']) {
      expect(run(enc.encode(l)).verdict).toBe(NOT_OBJECT);
      agreesText(l);
    }
  });

  it('looks up a wanted key whatever keys of its length and last byte (modulo 64) come first', () => {
    // 'a' (97) and '!' (33) share their last byte modulo 64; the key filter lets both through to the lookup
    const fields = ['ka', 'xyza', ''];
    const line = '{"k!":1,"ka":2,"kb":3,"xyz!":4,"xyza":5,"xyzA":6,"":7,"#":8}';
    expect(run(enc.encode(line), fields).values).toEqual({ ka: 2, xyza: 5, '': 7 });
    expect(run(enc.encode('{"k!":1,"xyz!":4,"!":0}'), fields).values).toEqual({});
  });

  it('flags string values holding escapes, and only those', () => {
    const k = createLineKernel(['a', 'b', 'c', 'd', 'e', 'f'])!;
    const long = 'x'.repeat(40);
    const b = enc.encode(`{"a":"x\\ny","b":"plain","c":["\\n"],"d":"é","e":"${long}","f":"${long}é\\t"}\n`);
    k.load(b, 0, b.length);
    expect(k.scan(0, b.length - 1)).toBe(VALID);
    expect([...k.escaped]).toEqual([1, 0, 0, 0, 0, 1]);
  });

  it('rejects bytes that are not UTF-8, as a fatal decoder does', () => {
    const cases: Array<[number[], boolean]> = [
      [[0xc3, 0xa9], true],
      [[0xe2, 0x82, 0xac], true],
      [[0xf0, 0x9f, 0x98, 0x80], true],
      [[0xf4, 0x8f, 0xbf, 0xbf], true],
      [[0xc3], false],
      [[0xc0, 0xaf], false],
      [[0xc1, 0xbf], false],
      [[0xe0, 0x80, 0xaf], false],
      [[0xed, 0xa0, 0x80], false],
      [[0xf0, 0x80, 0x80, 0xaf], false],
      [[0xf4, 0x90, 0x80, 0x80], false],
      [[0xf5, 0x80, 0x80, 0x80], false],
      [[0x80], false],
      [[0xff], false],
      [[0xe2, 0x82], false],
    ];
    for (const [seq, ok] of cases) {
      const bytes = Uint8Array.from([...enc.encode('{"a":"x'), ...seq, ...enc.encode('y"}')]);
      expect(run(bytes).verdict).toBe(ok ? VALID : NOT_OBJECT);
      agrees(bytes);
      // outside a string, non-ASCII bytes are never JSON
      expect(run(Uint8Array.from([...enc.encode('{"a":1'), ...seq, 125])).verdict).toBe(NOT_OBJECT);
    }
  });

  it('agrees with JSON.parse on random lines', () => {
    fc.assert(
      fc.property(line, (l) => agreesText(l)),
      { numRuns: 3000 },
    );
  });

  it('agrees with JSON.parse after deleting, inserting or replacing one byte of a valid line', () => {
    const INTERESTING = [0, 9, 10, 13, 32, 34, 44, 45, 46, 48, 49, 58, 69, 91, 92, 93, 101, 117, 123, 125, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xed, 0xf0, 0xff];
    fc.assert(
      fc.property(validLine, fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.oneof(fc.constantFrom(...INTERESTING), fc.nat(255)), (l, where, op, byte) => {
        const b = enc.encode(l);
        const i = where % (b.length + (op === 'insert' ? 1 : 0));
        let m: Uint8Array;
        if (op === 'delete') m = Uint8Array.from([...b.subarray(0, i), ...b.subarray(i + 1)]);
        else if (op === 'insert') m = Uint8Array.from([...b.subarray(0, i), byte, ...b.subarray(i)]);
        else m = Uint8Array.from([...b.subarray(0, i), byte, ...b.subarray(i + 1)]);
        agrees(m);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads lines longer than its initial memory, and nesting of any depth', () => {
    const long = '{"x":"' + 'é'.repeat(150_000) + '","a":' + JSON.stringify('z'.repeat(70_000)) + ',"n":-1.5e3}';
    agreesText(long);
    expect(run(enc.encode(long)).values).toEqual({ a: 'z'.repeat(70_000), n: -1500 });
    const depth = 200_000;
    const deep = '{"a":' + '['.repeat(depth) + ']'.repeat(depth) + ',"n":' + '{"n":'.repeat(depth) + '1' + '}'.repeat(depth) + '}';
    expect(run(enc.encode(deep), ['x']).verdict).toBe(VALID);
    expect(run(enc.encode(deep.slice(0, -2) + ']}'), ['x']).verdict).toBe(NOT_OBJECT);
    const mixed = '{"a":' + '[{"b":'.repeat(5000) + '0' + '}]'.repeat(5000) + '}';
    expect(run(enc.encode(mixed), ['x']).verdict).toBe(VALID);
    expect(run(enc.encode(mixed.replace('}]}', ']}}')), ['x']).verdict).toBe(NOT_OBJECT);
  });

  it('finds every occurrence of a needle as indexOf does, up to the end of the range', () => {
    const k = createLineKernel(['a'])!;
    const all = (hay: Uint8Array, needle: Uint8Array, from: number, to: number, f: (p: number) => number | undefined) => {
      const out: number[] = [];
      let p = f(from);
      while (p !== undefined && p >= 0) {
        out.push(p);
        p = f(p + 1);
      }
      return out;
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(97, 98, 34, 58, 120, 0xc3, 0xa9), { maxLength: 200 }),
        fc.array(fc.constantFrom(97, 98, 34, 58, 120, 0xc3, 0xa9), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.nat(),
        (hayBytes, needleBytes, cutA, cutB) => {
          const hay = Uint8Array.from(hayBytes);
          const needle = Uint8Array.from(needleBytes);
          const from = hay.length ? cutA % (hay.length + 1) : 0;
          const to = from + (cutB % (hay.length - from + 1));
          k.load(hay, from, to);
          const expected = all(hay, needle, from, to, (p) => {
            const i = Buffer.from(hay.buffer, hay.byteOffset + p, Math.max(0, to - p)).indexOf(needle);
            return i < 0 ? -1 : i + p;
          });
          expect(all(hay, needle, from, to, (p) => k.find(needle, p, to))).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
    // the needle changes between calls; a long needle is left to the caller
    const hay = enc.encode('{"a":"xx yy xx"}');
    k.load(hay, 0, hay.length);
    expect(k.find(enc.encode('xx'), 0, hay.length)).toBe(6);
    expect(k.find(enc.encode('yy'), 0, hay.length)).toBe(9);
    expect(k.find(enc.encode('xx'), 7, hay.length)).toBe(12);
    expect(k.find(enc.encode('xx'), 7, 13)).toBe(-1);
    expect(k.find(new Uint8Array(300).fill(120), 0, hay.length)).toBeUndefined();
    expect(k.find(new Uint8Array(0), 0, hay.length)).toBeUndefined();
  });

  it('gives its memory back once blocks are small again after a huge one', () => {
    const k = createLineKernel(['a'])!;
    const small = enc.encode('{"a":1}\n{"a":2}');
    k.load(small, 0, small.length);
    const initial = k.memoryBytes();
    const huge = new Uint8Array(80 << 20).fill(32);
    huge.set(enc.encode('{"a":"'), 0);
    huge.set(enc.encode('"}'), huge.length - 2);
    huge.fill(120, 6, huge.length - 2);
    k.load(huge, 0, huge.length);
    expect(k.scan(0, huge.length)).toBe(VALID);
    expect(k.ends[0]! - k.starts[0]!).toBe(huge.length - 6);
    expect(k.memoryBytes()).toBeGreaterThan(huge.length);
    k.load(small, 0, small.length);
    expect(k.memoryBytes()).toBe(initial);
    expect(k.scan(8, small.length)).toBe(VALID);
    expect(small[k.starts[0]!]).toBe(50);
  });

  it('scans each line of a loaded block independently, after a large block and back', () => {
    const k = createLineKernel(['a'])!;
    const lines = ['{"a":1}', '{"a":"\\u0041"} ', '{"a":', '\t{"b":[{"a":2}],"a":[3]}', '{"a":"é"}\r', '[1]', '{"a":null}'];
    const big = '{"a":"' + 'x'.repeat(3 << 20) + '"}';
    for (const set of [lines, [big, ...lines], lines]) {
      const text = set.join('\n');
      const bytes = enc.encode(text);
      k.load(bytes, 0, bytes.length);
      let p = 0;
      for (const l of set) {
        const n = enc.encode(l).length;
        const end = l.endsWith('\r') ? p + n - 1 : p + n;
        const expected = parsed(bytes.subarray(p, end));
        const verdict = k.scan(p, end);
        expect(verdict !== NOT_OBJECT).toBe(expected !== undefined);
        if (verdict === VALID && k.starts[0]! >= 0) expect(JSON.parse(fatal.decode(bytes.subarray(k.starts[0]!, k.ends[0]!)))).toEqual(expected!.a);
        p += n + 1;
      }
    }
  });

  it('scans a block read into its own region without a copy, as it scans a loaded copy', () => {
    const k = createLineKernel(['a'])!;
    const lines = ['{"a":1}', '{"a":"\\u0041"} ', '{"a":', '\t{"b":[{"a":2}],"a":[3]}', '{"a":"é"}\r', '[1]', '{"a":null}'];
    const bytes = enc.encode(lines.join('\n') + '\n');
    const verdicts = (hay: Uint8Array, from: number) => {
      k.load(hay, from, from + bytes.length);
      const out: Array<[number, number, number]> = [];
      let p = from;
      for (const l of lines) {
        const n = enc.encode(l).length;
        const end = l.endsWith('\r') ? p + n - 1 : p + n;
        const v = k.scan(p, end);
        out.push([v, k.starts[0]! - from, k.ends[0]! - from]);
        p += n + 1;
      }
      return out;
    };
    const copied = verdicts(bytes, 0);
    // The block at the start of the region, and further in (a range that starts after a partial line).
    for (const from of [0, 5]) {
      const region = k.region(from + bytes.length + 64);
      region.set(bytes, from);
      expect(verdicts(region, from)).toEqual(copied);
      // Scanned in place: the region's bytes are the block's (only the byte after the block may change).
      expect(Buffer.from(region.subarray(from, from + bytes.length)).equals(Buffer.from(bytes))).toBe(true);
    }
    // In place indeed: a byte changed after load is what the scan sees (a copy would not see it).
    const region = k.region(bytes.length + 64);
    region.set(bytes, 0);
    k.load(region, 0, bytes.length);
    region[1] = 0x5b; // '{"a":1}' → '{[a":1}'
    expect(k.scan(0, 7)).toBe(NOT_OBJECT);
  });

  it('writes after a block in its region no further than it says (overwrites), however deep the nesting', () => {
    const k = createLineKernel(['a'])!;
    for (const depth of [0, 1, 7, 8, 100, 5000]) {
      const line = enc.encode(`{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}`);
      const length = line.length;
      const room = k.overwrites(length);
      const region = k.region(length + room + 64);
      region.set(line);
      region.fill(0xa5, length);
      k.load(region, 0, length);
      expect(k.scan(0, length)).toBe(VALID);
      // past what it announced, every byte is as it was
      expect(region.subarray(length + room).every((b) => b === 0xa5)).toBe(true);
    }
  });

  it('keeps the bytes of its region when asked to grow it with keep', () => {
    const k = createLineKernel(['a'])!;
    const first = k.region(1000);
    first.fill(7);
    const grown = k.region(40 << 20, true);
    expect(grown.length).toBe(40 << 20);
    expect(grown.subarray(0, 1000).every((b) => b === 7)).toBe(true);
    // A new region without keep after a huge one gives the memory back.
    k.region(100 << 20, true);
    const big = k.memoryBytes();
    k.region(1000);
    expect(k.memoryBytes()).toBeLessThan(big);
  });
});


describe('sharing the compiled kernel with other threads', () => {
  // Module state is per module instance: fresh copies stand for a worker's own copy of the core.
  const WasmModule = (globalThis as unknown as { WebAssembly: { Module: abstract new (...args: never[]) => object } }).WebAssembly.Module;
  const fresh = async () => {
    vi.resetModules();
    return import('../../src/eval/line-kernel.js');
  };

  it('gives its compiled module, which another copy adopts instead of compiling its own', async () => {
    const main = await fresh();
    const module = main.lineKernelModule();
    expect(module).toBeInstanceOf(WasmModule);
    const worker = await fresh();
    worker.adoptLineKernelModule(module);
    expect(worker.lineKernelModule()).toBe(module);
    // and its kernels work: the value span of `a` in a loaded line
    const k = worker.createLineKernel(['a'])!;
    const line = enc.encode('{"a":"x"}');
    k.load(line, 0, line.length);
    expect(k.scan(0, line.length)).toBe(VALID);
    expect([k.starts[0], k.ends[0]]).toEqual([5, 8]);
  });

  it('ignores what is not a module, and a module offered after its own was compiled', async () => {
    const a = await fresh();
    a.adoptLineKernelModule({});
    a.adoptLineKernelModule(undefined);
    const own = a.lineKernelModule();
    expect(own).toBeInstanceOf(WasmModule);
    a.adoptLineKernelModule((await fresh()).lineKernelModule());
    expect(a.lineKernelModule()).toBe(own);
  });
});
