/**
 * The filter decided in the line kernel (kernel-program.ts, $scanBlock and $eval in kernel.wat): a block read
 * that way counts, matches and stops exactly as the reference does and as the same scanner line by line (the
 * path taken when a caller wants every non-matching line, `onOther`), on random filters over random lines
 * (escapes, duplicates, nulls, missing fields, big integers, malformed and blank lines), on blocks with more
 * lines to report than one kernel call holds, and on the edge cases of each leaf.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evalPlan } from '../../src/eval/plan.js';
import { kernelProgram } from '../../src/eval/kernel-program.js';
import { KERNEL_LAYOUT } from '../../src/eval/line-kernel.generated.js';
import { createLineKernel, REC_UNDECIDED } from '../../src/eval/line-kernel.js';
import { exactFilter } from '../../src/eval/exact.js';
import type { FilterDocument } from '../../src/filter/filter.js';
import { condition, logLine } from './arbitraries.js';
import { refCounts } from './reference.js';
import { type BlockRun, scanBlocks } from './harness.js';

const enc = new TextEncoder();

/** The lines of `text` (by index) that the kernel's program leaves undecided (handed to the JS side). */
function undecided(filter: FilterDocument, text: string): number[] {
  const plan = evalPlan(filter);
  const kernel = createLineKernel(plan.fields, kernelProgram(plan.root))!;
  const bytes = enc.encode(text);
  kernel.load(bytes, 0, bytes.length);
  const out: number[] = [];
  let from = 0;
  let fresh = true;
  while (from < bytes.length) {
    const n = kernel.scanBlock!(from, bytes.length, fresh, false);
    for (let i = 0; i < n; i++) if (kernel.block!.code[i] === REC_UNDECIDED) out.push(kernel.block!.line[i]!);
    fresh = false;
    if (n < KERNEL_LAYOUT.REC_MAX) break;
    from = kernel.block!.next;
  }
  return out;
}

/** Every JSON escape, and surrogate pairs (one code point), lone surrogates (no UTF-8) and NUL among them. */
const ESCAPES = ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u0062', '\\u00e9', '\\u00E9', '\\u20ac', '\\u0000', '\\ud83d\\ude00', '\\uD83D\\uDE00'];
const LONE = ['\\ud83d', '\\ude00', '\\ud83dx', '\\ud83d\\u0041', '\\ud83d\\ud83d'];

/** `n < "x"` never holds and gives the prefilter no needle: `or` with it reads every line, so the kernel decides. */
const NO_PREFILTER = { key: 'n', operator: 'lt', value: 'x' };
const readAll = (where: unknown): FilterDocument => ({ where: { or: [where, NO_PREFILTER] } }) as FilterDocument;

type Run = BlockRun;

/** One scanner over `text` cut into `blocks` blocks; `lineByLine` asks for the other lines too (no block read). */
const run = (filter: FilterDocument, text: string, opts: { lineByLine?: boolean; stopAt?: number; blocks?: number } = {}): Run => scanBlocks(filter, text, opts);

/** Start offsets of the given line indexes. */
function startsOf(text: string, lines: number[]): number[] {
  const starts = [0];
  for (const l of text.split('\n')) starts.push(starts[starts.length - 1]! + enc.encode(l).length + 1);
  return lines.map((i) => starts[i]!);
}

const where = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition.filter((c) => c.key !== 'constructor' && c.key !== '__proto__'),
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 4 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 4 }) }),
  ),
})).node;

describe('the filter decided in the line kernel', () => {
  it('compiles the bench filters, and leaves a filter it cannot decide at all to the JS side', () => {
    const plan = evalPlan({ where: { and: [{ key: 'a', operator: 'in', value: ['x', 'y'] }, { key: 'b', operator: 'leq', value: 95 }] } } as FilterDocument);
    const program = kernelProgram(plan.root)!;
    const view = new DataView(program.buffer);
    expect(view.getInt32(KERNEL_LAYOUT.NODE_KIND, true)).toBe(KERNEL_LAYOUT.NODE_AND);
    expect(view.getInt32(KERNEL_LAYOUT.NODE_BYTES + KERNEL_LAYOUT.NODE_KIND, true)).toBe(KERNEL_LAYOUT.NODE_EQUALS);
    expect(view.getInt32(2 * KERNEL_LAYOUT.NODE_BYTES + KERNEL_LAYOUT.NODE_KIND, true)).toBe(KERNEL_LAYOUT.NODE_LEQ);
    expect(view.getFloat64(2 * KERNEL_LAYOUT.NODE_BYTES + KERNEL_LAYOUT.NODE_NUM, true)).toBe(95);
    // `eq "5"` (a numeric string) equals a log number, which must be decoded, and `<` with an integer beyond 2^53
    // compares a bigint: nothing left to decide
    expect(kernelProgram(evalPlan(exactFilter('{"where":{"or":[{"key":"a","operator":"eq","value":"5"},{"key":"b","operator":"lt","value":9007199254740993}]}}') as FilterDocument).root)).toBeUndefined();
  });

  it('agrees with the reference and with the line-by-line path on random filters and lines', () => {
    fc.assert(
      fc.property(where, fc.array(logLine, { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 3), (w, lines, blocks) => {
        const filter = readAll(w);
        const text = lines.join('\n');
        const ref = refCounts(filter, text);
        const block = run(filter, text, { blocks });
        const byLine = run(filter, text, { blocks, lineByLine: true });
        expect({ total: block.total, matched: block.matched, malformed: block.malformed }).toEqual({ total: ref.total, matched: ref.matched, malformed: ref.malformed });
        expect(block.matches).toEqual(startsOf(text, ref.matches));
        expect(block).toEqual(byLine);
      }),
      { numRuns: 400 },
    );
  });

  it('stops where the line-by-line path stops (onMalformed returning false)', () => {
    fc.assert(
      fc.property(where, fc.array(logLine, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 3 }), (w, lines, stopAt) => {
        const filter = readAll(w);
        const text = lines.join('\n');
        expect(run(filter, text, { stopAt })).toEqual(run(filter, text, { stopAt, lineByLine: true }));
      }),
      { numRuns: 200 },
    );
  });

  it('reports every line of a block with more of them to report than one kernel call holds', () => {
    // matches, malformed lines and undecided ones (an escaped value) well past REC_MAX, blank and CRLF lines between
    const kinds = ['{"h":"a","n":3}', '{"h":"a",', '{"h":"\\u0061"}', '', '{"h":"b"}\r', '  \t', '{"h":"a"}\r'];
    const text = Array.from({ length: KERNEL_LAYOUT.REC_MAX * 5 + 3 }, (_, i) => kinds[i % kinds.length]!).join('\n');
    const filter = readAll({ key: 'h', operator: 'eq', value: 'a' });
    const ref = refCounts(filter, text);
    const got = run(filter, text);
    expect({ total: got.total, matched: got.matched, malformed: got.malformed }).toEqual({ total: ref.total, matched: ref.matched, malformed: ref.malformed });
    expect(got.matches).toEqual(startsOf(text, ref.matches));
    expect(got).toEqual(run(filter, text, { lineByLine: true }));
    expect(got.matched).toBeGreaterThan(KERNEL_LAYOUT.REC_MAX);
  });

  it('decides each leaf as the reference does on its edge values', () => {
    const values = [
      '"a"', '"ab"', '"ba"', '"aba"', '""', '"\\u0061"', '"a\\"b"', '"é"', '"😀a"', 'null', 'true', 'false', '[]', '["a"]', '{"a":1}',
      '0', '-0', '5', '-5', '95', '96', '95.0', '9.5e1', '999999999999999', '-999999999999999', '1000000000000000', '9007199254740993',
      '1700000000123456789', '"95"', '"x"', '[95]', '[true,1]', '[]', '{}', '1e2', '-5',
    ];
    const lines: string[] = [];
    for (const v of values) lines.push(`{"k":${v}}`, `{"k":${v},"k":"a"}`, `{"k":"a","k":${v}}`, `{"o":{"k":"a"},"k":${v}}`);
    lines.push('{}', '{"j":1}', '{"k":"a"', '{"k":"a"} x', '{"k":"\u0001"}', '[1]');
    const text = lines.join('\n');
    const leaves = [
      ...['eq', '!eq'].flatMap((operator) => ['a', '', 'é', '😀a'].map((value) => ({ operator, value }))),
      ...['in', '!in'].map((operator) => ({ operator, value: ['a', 'ab', 'x'] })),
      ...['startsWith', '!startsWith', 'endsWith', '!endsWith', 'contains', '!contains'].flatMap((operator) => ['a', 'b', '', 'ab', 'é', '9'].map((value) => ({ operator, value }))),
      ...['lt', 'leq', 'gt', 'geq'].flatMap((operator) => [95, 0, -5, 1e15, 9007199254740993n, 0.5, '95', 'x'].map((value) => ({ operator, value }))),
      ...['eq', '!eq'].flatMap((operator) => [95, 0, -5, 0.5, 1e15, 9007199254740993n, true, false].map((value) => ({ operator, value }))),
      ...['in', '!in'].flatMap((operator) => [[95, 5], [0, 96, -5], [true], [false, true], [1, 'a'], [9007199254740993n, 95]].map((value) => ({ operator, value }))),
    ];
    for (const leaf of leaves) {
      const filter = readAll({ key: 'k', ...leaf });
      const ref = refCounts(filter, text);
      const got = run(filter, text);
      expect({ leaf, total: got.total, matched: got.matched, malformed: got.malformed, matches: got.matches }).toEqual({
        leaf,
        total: ref.total,
        matched: ref.matched,
        malformed: ref.malformed,
        matches: startsOf(text, ref.matches),
      });
    }
    // an unknown operator (the checker refuses it) never holds
    const unknown = run(readAll({ key: 'k', operator: 'nope', value: 'a' }), text);
    expect(unknown.matched).toBe(0);
    expect(unknown).toEqual(run(readAll({ key: 'k', operator: 'nope', value: 'a' }), text, { lineByLine: true }));
  });

  it('decides string leaves on values with escapes itself (decoded in the kernel), except lone surrogates and over-long values', () => {
    // an escape at every offset from a 16-byte vector boundary (the value starts at offset 6), the needle across it
    const lines: string[] = [];
    const lone: number[] = [];
    for (const e of [...ESCAPES, ...LONE]) {
      for (let i = 0; i <= 34; i++) {
        if (LONE.includes(e)) lone.push(lines.length);
        lines.push(`{"k":"${'x'.repeat(i)}${e}bot${'é'.repeat(i % 3)}","j":1}`);
      }
    }
    // a value longer than the kernel decodes goes to the JS side too; one just short of it does not
    const long = lines.length;
    lines.push(`{"k":"${'b'.repeat(KERNEL_LAYOUT.UNESCAPE_BYTES)}\\n"}`, `{"k":"${'b'.repeat(KERNEL_LAYOUT.UNESCAPE_BYTES - 2)}\\n"}`);
    const text = lines.join('\n');
    const decoded = lines.map((l) => (JSON.parse(l) as { k: string }).k);
    const leaves = [
      { operator: 'contains', value: 'bot' },
      { operator: '!contains', value: 'curl' },
      { operator: 'contains', value: '\n' },
      { operator: 'contains', value: '😀b' },
      { operator: 'contains', value: '\u0000bo' },
      { operator: 'startsWith', value: 'xxx"' },
      { operator: '!endsWith', value: 'boté' },
      { operator: 'eq', value: decoded[40]! },
      { operator: 'in', value: [decoded[3]!, decoded[200]!, 'x'] },
      { operator: '!in', value: [decoded[100]!] },
    ];
    for (const leaf of leaves) {
      const filter = readAll({ key: 'k', ...leaf });
      const ref = refCounts(filter, text);
      const got = run(filter, text, { blocks: 3 });
      expect({ leaf, matched: got.matched, malformed: got.malformed, matches: got.matches }).toEqual({ leaf, matched: ref.matched, malformed: 0, matches: startsOf(text, ref.matches) });
      expect({ leaf, undecided: undecided(filter, text) }).toEqual({ leaf, undecided: [...lone, long] });
    }
  });

  it('agrees with the reference on random strings with escapes', () => {
    const piece = fc.constantFrom('a', 'b', 'o', 't', 'é', '😀', '€', ...ESCAPES, '\\ud83d', '\\ude00');
    const body = fc.array(piece, { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 8 }), fc.constantFrom('eq', '!eq', 'startsWith', '!startsWith', 'endsWith', '!endsWith', 'contains', '!contains', 'in'), fc.nat(), fc.nat(), fc.nat(), (bodies, operator, pick, a, b) => {
        const lines = bodies.map((x) => `{"k":"${x}"}`);
        const text = lines.join('\n');
        // the filter's value: a piece of one line's text (a lone surrogate when the cut splits a pair)
        const t = (JSON.parse(lines[pick % lines.length]!) as { k: string }).k;
        const cut = t.slice(Math.min(a, b) % (t.length + 1), Math.max(a, b) % (t.length + 1));
        const value = operator === 'in' ? [cut, 'x'] : operator.endsWith('eq') ? t : cut;
        const filter = readAll({ key: 'k', operator, value });
        const ref = refCounts(filter, text);
        const got = run(filter, text);
        expect({ matched: got.matched, malformed: got.malformed, matches: got.matches }).toEqual({ matched: ref.matched, malformed: 0, matches: startsOf(text, ref.matches) });
      }),
      { numRuns: 400 },
    );
  });
});

