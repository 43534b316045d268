/**
 * Properties: the formatter is idempotent and keeps the meaning (the reparsed tree is the same, spelling
 * aside); parse and check never throw on any input; hostile inputs end in diagnostics, not crashes.
 * Chevrotain's grammar validations run here (they are skipped at start-up).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRule, formatRule, parseRule, type RuleExpr, type RuleIndexExpr, type RuleRhs } from '@logfilter/core';
import { createValidatedRuleLexer } from '../../src/rules/tokens.js';
import { RuleParser } from '../../src/rules/parser.js';
import { COMPARISON_BY_SPELLING, LOGICAL_BY_SPELLING } from '../../src/rules/operators.js';

describe('grammar', () => {
  it("passes Chevrotain's validations", () => {
    expect(() => createValidatedRuleLexer()).not.toThrow();
    expect(() => new RuleParser(true)).not.toThrow();
  });
});

/** The meaning of a tree: structure, fields, canonical operators and literal images; no offsets or spellings. */
function meaning(e: RuleExpr | undefined): unknown {
  if (!e) return null;
  switch (e.kind) {
    case 'logical':
      return [e.op, e.operands.map(meaning)];
    case 'not':
      return ['not', meaning(e.operand)];
    case 'group':
      return ['group', meaning(e.inner)];
    case 'quantifier':
      return [e.name.image, meaning(e.arg)];
    case 'literal':
      return ['lit', e.literal.image];
    case 'comparison':
      return ['cmp', index(e.lhs), e.op ? COMPARISON_BY_SPELLING.get(e.op.image)?.word : null, e.rhs ? rhs(e.rhs) : null];
  }
}
function index(x: RuleIndexExpr): unknown {
  const b = x.base.kind === 'ident' ? x.base.name : [x.base.name, x.base.args.map(meaning)];
  return [b, x.indexes.map((i) => (i.each ? '*' : i.literal?.image))];
}
function rhs(r: RuleRhs): unknown {
  return r.kind === 'literal' ? r.literal.image : r.kind === 'named-list' ? `$${r.name}` : r.items.map((i) => i.image);
}

const sp = fc.constantFrom(' ', '  ', '\n', ' \n ');
const opt = fc.constantFrom('', ' ', '\n');
const stringLit = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s.replace(/[\\"]/g, '')).replace(/\\[a-z0-9]+/g, '')),
  fc.constantFrom('r"a\\b"', 'r#"x"y"#', '"\\x41"', '"\\101"'),
);
const comparison = fc.oneof(
  fc.tuple(fc.constantFrom('http.host', 'http.request.uri.path', 'lower(http.host)', 'http.request.headers["x"][0]'), fc.constantFrom('eq', '==', 'ne', '!=', 'contains', 'lt', 'ge'), stringLit, sp).map(([f, o, v, s]) => `${f}${s}${o}${s}${v}`),
  fc.tuple(fc.constantFrom('ip.src.asnum', 'cf.waf.score', 'len(http.host)'), fc.constantFrom('eq', 'lt', '<=', '>', '&'), fc.constantFrom('1', '-5', '0x1f', '017', '13335')).map(([f, o, v]) => `${f} ${o} ${v}`),
  fc.tuple(fc.constantFrom('ip.src', 'cf.edge.server_ip'), fc.constantFrom('192.0.2.1', '::1', '{192.0.2.0/24 2001:db8::/32}', '$cf.vpn')).map(([f, v]) => `${f} ${v.startsWith('{') || v.startsWith('$') ? 'in' : 'eq'} ${v}`),
  fc.constantFrom('ssl', 'cf.client.bot', 'true', 'starts_with(http.host, "a")', 'any(http.request.headers.names[*] eq "a")', 'http.request.uri.path matches r"^/a\\d+$"', 'http.host strict wildcard "*.x"'),
);
const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(tie('e'), fc.constantFrom('and', 'or', 'xor', '&&', '||', '^^'), tie('e'), sp).map(([a, o, b, s]) => `${a}${s}${o}${s}${b}`),
    fc.tuple(fc.constantFrom('not ', '!', 'not'), tie('e'), opt).map(([n, e, s]) => `${n}${n === 'not' ? ' ' : s}(${s}${e}${s})`),
    tie('e').map((e) => `(${e})`),
  ),
})).e as fc.Arbitrary<string>;

describe('formatter', () => {
  it('keeps the meaning and is idempotent', () => {
    fc.assert(
      fc.property(expr, (text) => {
        expect(checkRule(text).ok).toBe(true);
        const once = formatRule(text, { lineWidth: 40 });
        expect(once.ok).toBe(true);
        expect(meaning(parseRule(once.text).expr)).toEqual(meaning(parseRule(text).expr));
        expect(checkRule(once.text).ok).toBe(true);
        expect(formatRule(once.text, { lineWidth: 40 }).text).toBe(once.text);
        expect(once.text).not.toMatch(/\t/);
      }),
      { numRuns: 300 },
    );
  });

  it('writes English operators and canonical spacing', () => {
    expect(formatRule('(http.host=="a"||http.host == "b")&&!ssl').text).toBe('(http.host eq "a" or http.host eq "b") and not ssl');
    expect(formatRule('ip.src  in{ 1.2.3.4   5.6.7.8 }').text).toBe('ip.src in {1.2.3.4 5.6.7.8}');
    expect(formatRule('lower( http.host )=="a"').text).toBe('lower(http.host) eq "a"');
    expect(formatRule('ssl\tand ssl').text).toBe('ssl and ssl');
    expect(Object.keys(Object.fromEntries(LOGICAL_BY_SPELLING))).toContain('^^');
  });

  it('breaks a long expression before each logical operator', () => {
    const text = `http.host eq "${'a'.repeat(50)}" and (ip.src in {192.0.2.0/24} or http.request.uri.path contains "${'b'.repeat(60)}")`;
    expect(formatRule(text).text).toBe(
      `http.host eq "${'a'.repeat(50)}"\nand (\n  ip.src in {192.0.2.0/24}\n  or http.request.uri.path contains "${'b'.repeat(60)}"\n)`,
    );
  });

  it('leaves text with syntax errors alone', () => {
    const r = formatRule('ssl and (ssl');
    expect([r.ok, r.changed, r.text]).toEqual([false, false, 'ssl and (ssl']);
    expect(formatRule('ip.src in {1.2.3.4, 5.6.7.8}').ok).toBe(false);
  });
});

describe('never throws', () => {
  it('on any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        for (const kind of ['filter', 'value'] as const) {
          const r = checkRule(s, { kind });
          for (const d of r.diagnostics) {
            expect(d.start).toBeGreaterThanOrEqual(0);
            expect(d.end).toBeLessThanOrEqual(s.length);
            expect(d.end).toBeGreaterThanOrEqual(d.start);
          }
          formatRule(s, { kind });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('on strings made of the language\'s own pieces (recovery holes included)', () => {
    const unit = fc.constantFrom('[', ']', '*', '(', ')', 'ssl', ' ', '"', '$', '{', '}', ',', '.', '1', 'not', 'and', 'eq', 'any', 'r#', 'http.host', '\n');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 25 }).map((a) => a.join('')), (s) => {
        for (const kind of ['filter', 'value'] as const) {
          for (const d of checkRule(s, { kind }).diagnostics) {
            expect(d.start).toBeGreaterThanOrEqual(0);
            expect(d.end).toBeGreaterThanOrEqual(d.start);
            expect(d.end).toBeLessThanOrEqual(s.length);
            if (d.api) expect(Number.isFinite(d.api.start) && Number.isFinite(d.api.end)).toBe(true);
          }
          formatRule(s, { kind });
        }
      }),
      { numRuns: 1000 },
    );
    for (const s of ['[*]', '[', '(', '[0]', '["a"]', ')[*]', 'x[', '($', '{']) {
      for (const kind of ['filter', 'value'] as const) expect(checkRule(s, { kind }).diagnostics.every((d) => Number.isFinite(d.start) && Number.isFinite(d.end))).toBe(true);
    }
  });

  it('on mangled valid expressions', () => {
    const pieces = fc.constantFrom('(', ')', '[', ']', '{', '}', '"', "'", 'r#"', ',', '$', '*', 'not ', ' and ', ' in ', '==', 'any(', '\t', '\\', 'ssl', 'http.host', '1..', '::');
    fc.assert(
      fc.property(expr, fc.array(fc.tuple(fc.nat(), pieces), { maxLength: 5 }), (text, edits) => {
        let t = text;
        for (const [at, piece] of edits) t = t.slice(0, at % (t.length + 1)) + piece + t.slice(at % (t.length + 1));
        checkRule(t);
        checkRule(t, { kind: 'value', phase: 'http_request_transform' });
        formatRule(t);
      }),
      { numRuns: 300 },
    );
  });
});

describe('hostile input', () => {
  it('1 MB of conditions: too long, diagnosed, not crashed', () => {
    const text = 'http.host eq "example.com" or '.repeat(35_000) + 'ssl';
    const r = checkRule(text);
    expect(r.diagnostics.map((d) => d.code)).toContain('rule-too-long');
  });

  it('100,000 parentheses or nots: too deep', () => {
    expect(checkRule('('.repeat(100_000)).diagnostics.map((d) => d.code)).toContain('rule-too-deep');
    expect(checkRule('not '.repeat(100_000) + 'ssl').diagnostics.map((d) => d.code)).toContain('rule-too-deep');
    expect(checkRule('any('.repeat(100_000)).diagnostics.map((d) => d.code)).toContain('rule-too-deep');
  });

  it('an unterminated 1 MB string, 1 MB of garbage, a 1 MB list', () => {
    expect(checkRule(`http.host eq "${'a'.repeat(1_000_000)}`).ok).toBe(false);
    expect(checkRule('@'.repeat(1_000_000)).diagnostics.length).toBeLessThanOrEqual(60);
    expect(checkRule(`ip.src in {${'1.2.3.4 '.repeat(130_000)}}`).diagnostics.map((d) => d.code)).toEqual(['rule-too-long']);
  });
});
