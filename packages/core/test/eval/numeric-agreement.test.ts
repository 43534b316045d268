/**
 * One definition of a numeric string (src/lang/json-number.ts): whatever the checker says about a string value on a
 * number field — accepted as a numeric string compared as the number N, or refused — the evaluator does the
 * same, and the reverse (a log string compares with a filter number exactly when the checker would accept it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, createMatcher, isNumericString, parseExact, toNumber } from '../../src/index.js';

const FIELD = 'EdgeResponseStatus'; // int in http_requests

/** Strings near the grammar's edges, and arbitrary ones. */
const numberish = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', '-', '+', ' ', '.'),
      fc.constantFrom('0', '1', '30', '007', '1715000000000610620', '', '9'),
      fc.constantFrom('', '.', '.5', '.50', '.0'),
      fc.constantFrom('', 'e3', 'E+3', 'e-2', 'e', 'e999', 'e-999'),
      fc.constantFrom('', ' ', 'x', '\n'),
    )
    .map((p) => p.join('')),
  fc.double({ noNaN: true }).map((d) => String(d)),
  fc.integer().map((i) => String(i)),
  fc.constantFrom('0x1e', 'Infinity', '-Infinity', 'NaN', '1_000', '١٢', '30\u00a0', '\t30'),
  fc.string({ maxLength: 6 }),
);

function verdict(s: string): { numeric: boolean; refused: boolean; literal?: string } {
  const source = `dataset http_requests\n${FIELD} == ${JSON.stringify(s)}\n`;
  const c = compile(source);
  const warn = c.diagnostics.find((d) => d.code === 'numeric-string');
  const refused = c.diagnostics.some((d) => d.code === 'value-type');
  const fix = warn?.fixes?.[0]?.edits[0]?.newText;
  return { numeric: c.ok && warn !== undefined, refused, ...(fix !== undefined ? { literal: fix } : {}) };
}

const eqFilter = (value: string | number) => createMatcher({ where: { key: FIELD, operator: 'eq', value } });

describe('numeric strings: checker and evaluator agree', () => {
  it('a string the checker accepts as the number N equals N in the evaluator; one it refuses equals no number', () => {
    fc.assert(
      fc.property(numberish, (s) => {
        const v = verdict(s);
        // The checker says exactly one of the two things.
        expect(v.numeric).toBe(!v.refused);
        expect(isNumericString(s)).toBe(v.numeric);
        const m = eqFilter(s);
        if (v.numeric) {
          const n = JSON.parse(s) as number;
          expect(toNumber(s)).toBe(n);
          // the log's number read exactly (an integer beyond 2^53 keeps its digits, as in a log line)
          expect(m.test({ [FIELD]: parseExact(s) })).toBe(true);
          if (Number.isFinite(n) && Math.abs(n) < 1e15) expect(m.test({ [FIELD]: n + 1 })).toBe(false);
          // The fix writes the same number as a literal.
          if (v.literal !== undefined) {
            const again = compile(`dataset any\n${FIELD} == ${v.literal}\n`);
            expect(again.ok).toBe(true);
            expect((again.filter!.where as { value: number }).value === n).toBe(true);
          }
        } else {
          expect(Number.isNaN(toNumber(s))).toBe(true);
          for (const x of [Number(s), parseFloat(s), Number(s.trim())]) {
            if (!Number.isNaN(x)) expect(m.test({ [FIELD]: x })).toBe(false);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reverse: a log string equals a filter number exactly when the checker would accept it as that number', () => {
    fc.assert(
      fc.property(numberish, (s) => {
        const v = verdict(s);
        const candidates = [Number(s), parseFloat(s), Number(s.trim())].filter((x) => !Number.isNaN(x));
        for (const n of candidates) {
          const matches = eqFilter(n).test({ [FIELD]: s });
          // exact values: `==` between a bigint (an integer beyond 2^53) and a double compares them exactly
          const exact = v.numeric ? (parseExact(s) as number | bigint) : NaN;
          expect(matches).toBe(v.numeric && exact == n);
          // Comparisons read the log string by the same rule.
          const ge = createMatcher({ where: { key: FIELD, operator: 'geq', value: n } }).test({ [FIELD]: s });
          expect(ge).toBe(v.numeric && exact >= n);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('pins the rule on its edges', () => {
    const yes = ['0', '-0', '30', '-1.5', '1e3', '1E+3', '2.5e-3', '1715000000000610620', '1e999'];
    const no = [' 30', '30 ', '+5', '.5', '5.', '007', '0x1e', 'Infinity', 'NaN', '1e', '', '-', '1_0'];
    for (const s of yes) expect([s, verdict(s).numeric, toNumber(s)]).toEqual([s, true, JSON.parse(s)]);
    for (const s of no) expect([s, verdict(s).refused, Number.isNaN(toNumber(s))]).toEqual([s, true, true]);
  });
});
