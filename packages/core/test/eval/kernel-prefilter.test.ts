/**
 * The prefilter applied in the line kernel ($walk, $candidate and $triggered in kernel.wat, `byBlock` in
 * scanner.ts): a block read by a filter that has literals to search for, when the sample shows many lines
 * holding them, goes to the kernel whole, which skips the lines that hold none of a clause's needles (checking only their outline, as the JS walk's `skipped` does) and decides the
 * rest. It must count, match and stop exactly as the reference does and read exactly the lines the JS walk
 * reads (the path taken when a caller wants every non-matching line, `onOther`): same `read`, same malformed
 * lines. Random filters over random lines (escapes of the needles' characters, needles in other fields' values,
 * duplicates, nulls, missing fields, big integers, CRLF, malformed and blank lines), cut into blocks; then the
 * edges one by one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBlockScanner } from '../../src/eval/index.js';
import { exactFilter } from '../../src/eval/exact.js';
import type { FilterDocument } from '../../src/filter/filter.js';
import { KERNEL_LAYOUT } from '../../src/eval/line-kernel.generated.js';
import { condition, filterNode, logLine } from './arbitraries.js';
import { refCounts } from './reference.js';
import { type BlockRun, nodeHooks, scanBlocks } from './harness.js';

const enc = new TextEncoder();

type Run = BlockRun;

/** One scanner over `text` cut into `blocks` blocks, on the kernel's walk whatever the sample says (it is chosen
 * for filters whose needle most lines hold); `lineByLine` asks for the other lines too (the JS walk). */
const run = (filter: FilterDocument, text: string, opts: { lineByLine?: boolean; stopAt?: number; blocks?: number } = {}): Run =>
  scanBlocks(filter, text, { ...opts, kernelWalk: !opts.lineByLine });

/** Start offsets of the given line indexes. */
function startsOf(text: string, lines: number[]): number[] {
  const starts = [0];
  for (const l of text.split('\n')) starts.push(starts[starts.length - 1]! + enc.encode(l).length + 1);
  return lines.map((i) => starts[i]!);
}

/** The kernel path against the reference and against the JS walk, on everything both count. */
function agree(filter: FilterDocument, text: string, blocks = 1): Run {
  const ref = refCounts(filter, text);
  const block = run(filter, text, { blocks });
  expect({ total: block.total, matched: block.matched, matches: block.matches }).toEqual({ total: ref.total, matched: ref.matched, matches: startsOf(text, ref.matches) });
  expect(block).toEqual(run(filter, text, { blocks, lineByLine: true }));
  return block;
}

const f = (where: unknown): FilterDocument => ({ where }) as FilterDocument;

/** Random filters, half of them with a condition that gives the prefilter a needle (`and` with a positive string test). */
const withNeedle = fc.tuple(filterNode, condition.filter((c) => ['eq', 'in', 'startsWith', 'endsWith', 'contains'].includes(c.operator)));
const where = fc.oneof(filterNode, withNeedle.map(([w, c]) => ({ and: [w, c] })));

describe('the prefilter in the line kernel', () => {
  it('agrees with the reference and reads what the JS walk reads, on random filters and lines', () => {
    let withClauses = 0;
    let skipped = 0;
    fc.assert(
      fc.property(where, fc.array(logLine, { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 2, 4), (w, lines, blocks) => {
        const got = agree(f(w), lines.join('\n'), blocks);
        if (got.clauses > 0) withClauses++;
        if (got.read < got.total) skipped++;
      }),
      { numRuns: 300 },
    );
    // the property is about the kernel's prefilter: many runs must have had one (~100 of 300), and skipped lines (~40)
    expect(withClauses).toBeGreaterThan(50);
    expect(skipped).toBeGreaterThan(15);
  }, 60_000);

  it('stops where the JS walk stops (onMalformed returning false), skipped lines with a broken outline included', () => {
    fc.assert(
      fc.property(where, fc.array(logLine, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 3 }), (w, lines, stopAt) => {
        const text = lines.join('\n');
        expect(run(f(w), text, { stopAt })).toEqual(run(f(w), text, { stopAt, lineByLine: true }));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('finds needles at line starts and ends, at block edges, with CRLF, and skips the lines without one', () => {
    const filter = f({ key: 'h', operator: 'contains', value: 'api' });
    const lines = [
      '{"h":"api"}',
      '{"x":1,"h":"v1api"}\r',
      '{"h":"no"}',
      '{"h":"api.x"}',
      '   {"h":"ap"}  ',
      '{"x":"api","h":"b"}',
      '{"h":"b","x":"api"}\r',
      '',
      ' \t\r',
      '{"h":"xapi"}',
    ];
    for (const blocks of [1, 2, 3, 5, 10]) {
      const got = agree(filter, lines.join('\n'), blocks);
      expect({ total: got.total, read: got.read, matched: got.matched }).toEqual({ total: 8, read: 6, matched: 4 });
    }
    // a block ending right after the needle, without a line feed
    const tail = agree(filter, '{"h":"no"}\n{"h":"api"}');
    expect(tail.matched).toBe(1);
    // a needle that only occurs across a line break is in neither line
    const across = agree(f({ key: 'h', operator: 'contains', value: '"}' }), '{"h":"a"}\n{"h":"b"}');
    expect(across.matched).toBe(0);
  });

  it('reads a line whose needle is hidden in an escape (a trigger) and decides it', () => {
    const filter = f({ key: 'h', operator: 'eq', value: 'api' });
    const lines = ['{"h":"\\u0061pi"}', '{"h":"a\\u0070i"}', '{"h":"\\\\u0061pi"}', '{"h":"\\u0026"}', '{"h":"\\/api"}', '{"h":"ap\\u0069","x":"\\n"}'];
    const got = agree(filter, lines.join('\n'));
    expect(got.matched).toBe(3);
    // `\\u0061` is an escaped backslash then text: no trigger; `\u0026` stands for `&` and `\/` for `/`, not
    // characters of the needle `"api"`: those lines are skipped
    expect(got.read).toBe(3);
    // a needle character written as a short escape: `\/` inside a path
    const slash = agree(f({ key: 'p', operator: 'startsWith', value: '/a' }), ['{"p":"\\/a"}', '{"p":"/a"}', '{"p":"\\u002fa"}', '{"p":"b"}'].join('\n'));
    expect(slash.matched).toBe(3);
  });

  it('counts a skipped line with a broken outline as malformed, and leaves an inner fault to the lines it reads', () => {
    const filter = f({ key: 'h', operator: 'eq', value: 'a' });
    const lines = ['{"h":"b"', '["h"]', 'x', '{"h":"b",}', '{"h":"a",}', '{"h":"a"} x', ' {"h":"b"} \r', '{"h":"a"}', '{"x":"a","h":"\u0001"}', '\u00e9{"h":"a"}'];
    const got = agree(filter, lines.join('\n'));
    // skipped: 3 with a broken outline (malformed), `{"h":"b",}` (outline fine), ` {"h":"b"} `; read: the rest
    expect({ read: got.read, matched: got.matched }).toEqual({ read: 5, matched: 1 });
    expect(got.malformedAt).toEqual([0, 1, 2, 4, 5, 8, 9]);
  });

  it('leaves a needle in another field, a missing field and a big integer to the program', () => {
    const filter = exactFilter('{"where":{"and":[{"key":"h","operator":"eq","value":"api"},{"key":"n","operator":"gt","value":9007199254740993}]}}') as FilterDocument;
    const lines = [
      '{"h":"api","n":9007199254740994}',
      '{"h":"api","n":9007199254740993}',
      '{"x":"api","n":9007199254740994}',
      '{"h":"api"}',
      '{"h":"api","n":null}',
      '{"h":"api","n":1e400}',
      '{"h":"web","n":9007199254740994}',
    ];
    const got = agree(filter, lines.join('\n'));
    // 1e400 is Infinity to JSON.parse, above any integer
    expect({ read: got.read, matched: got.matched }).toEqual({ read: 6, matched: 2 });
  });

  it('applies calibrated clauses (reordered, the common ones dropped) as the JS walk does, over blocks', () => {
    // 600 lines: `b` in every line (dropped by the sample), `c` in one line in ten, `d` in one in three
    const lines = Array.from({ length: 600 }, (_, i) => `{"b":"b${i % 10 === 0 ? 'c' : ''}","d":"${i % 3 === 0 ? 'd' : 'e'}","n":${i}}`);
    const filter = f({ and: [{ key: 'b', operator: 'startsWith', value: 'b' }, { key: 'd', operator: 'eq', value: 'd' }, { key: 'b', operator: 'contains', value: 'c' }] });
    expect(agree(filter, lines.join('\n'))).toMatchObject({ matched: 20, read: 60 });
    // in blocks of ~86 lines, the first two are read whole (the sample is not complete yet: the first clause, `"b`, holds everywhere)
    expect(agree(filter, lines.join('\n'), 7)).toMatchObject({ matched: 20, read: 89 + 86 + 42 });
  });

  it('is chosen when the sample shows a quarter of the lines or more holding the first clause, and handed on with the calibration', () => {
    const lines = (share: number) => Array.from({ length: 400 }, (_, i) => `{"h":"${i % 100 < share ? 'api' : 'web'}","n":${i}}`).join('\n');
    const filter = f({ key: 'h', operator: 'eq', value: 'api' });
    for (const [share, walks] of [[10, false], [24, false], [25, true], [45, true]] as const) {
      const bytes = enc.encode(lines(share));
      const first = createBlockScanner(filter, nodeHooks);
      const counts = first.scan(bytes, 0, bytes.length);
      expect(counts.matched).toBe(4 * share);
      const calibration = first.calibration()!;
      expect(calibration[calibration.length - 1] === -1).toBe(walks);
      // another thread's scanner takes the same walk, and reads the same lines
      const second = createBlockScanner(filter, nodeHooks, calibration);
      expect(second.calibration()).toEqual(calibration);
      expect(second.scan(bytes, 0, bytes.length)).toEqual(counts);
    }
  });

  it('reports every line of a block with more of them to report than one kernel call holds', () => {
    // (most lines without the needle, or the sample would drop the clause)
    const kinds = ['{"h":"a","n":3}', '{"h":"a",', '{"h":"\\u0061"}', '', '{"h":"b"}\r', '  \t', '{"h":"a"}\r', '{"h":"b"', ...Array(9).fill('{"h":"c"}')];
    const text = Array.from({ length: KERNEL_LAYOUT.REC_MAX * 12 + 3 }, (_, i) => kinds[i % kinds.length]!).join('\n');
    const got = agree(f({ key: 'h', operator: 'eq', value: 'a' }), text);
    expect(got.matched).toBeGreaterThan(KERNEL_LAYOUT.REC_MAX);
    expect(got.read).toBeLessThan(got.total);
  }, 30_000);
});
