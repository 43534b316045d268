/**
 * Single-quoted strings where a value goes: each one is its own syntax error, with its own fix to double quotes,
 * also in a list (where only the first one was reported, and the rest of the list went unread). The value is read
 * as the string it quotes, so the rest of the filter is still parsed and checked.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, compile } from '../../src/index.js';

const found = (source: string) => compile(source).diagnostics.map((d) => [d.code, d.start, d.end]);

describe('single-quoted values', () => {
  it.each([
    ["ClientCountry in ['us', 'ca', \"gb\"]", [[18, 22, '"us"'], [24, 28, '"ca"']]],
    ["ClientCountry in ['us', 'ca']", [[18, 22, '"us"'], [24, 28, '"ca"']]],
    ["ClientCountry not in [\"gb\", 'us',]", [[28, 32, '"us"']]],
    ["ClientRequestHost == 'a' or ClientRequestHost == 'b'", [[21, 24, '"a"'], [49, 52, '"b"']]],
    ["ClientRequestPath startsWith '/a' and ClientRequestPath !endsWith 'it\"s'", [[29, 33, '"/a"'], [66, 72, '"it\\"s"']]],
    ["ClientCountry in ['', 'us']", [[18, 20, '""'], [22, 26, '"us"']]],
  ] as const)('%s: one syntax error per single-quoted string, each with its fix; all fixes give a filter that compiles', (source, expected) => {
    const r = compile(source);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual(expected.map(([start, end]) => ['syntax', start, end]));
    expect(r.diagnostics.map((d) => d.fixes?.map((f) => f.edits))).toEqual(expected.map(([start, end, newText]) => [[{ start, end, newText }]]));
    const fixed = applyEdits(source, r.diagnostics.flatMap((d) => d.fixes![0]!.edits));
    expect(fixed).not.toContain("'");
    expect(compile(fixed).ok).toBe(true);
  });

  it('the fixed list compiles to the same JSON as the list written in double quotes', () => {
    const source = "ClientCountry in ['us', 'ca', \"gb\"]";
    const fixed = applyEdits(source, compile(source).diagnostics.flatMap((d) => d.fixes![0]!.edits));
    expect(fixed).toBe('ClientCountry in ["us", "ca", "gb"]');
    expect(compile(fixed).json).toBe('{"where":{"key":"ClientCountry","operator":"in","value":["us","ca","gb"]}}');
  });

  it.each([
    // the rest of the filter is still checked: a field not in the dataset after the list, or on the same condition
    ["ClientCountry in ['us', 'ca'] and Foo == 1", [['syntax', 18, 22], ['syntax', 24, 28], ['unknown-field', 34, 37]]],
    ["Foo == 'x' or Bar in ['y']", [['unknown-field', 0, 3], ['syntax', 7, 10], ['unknown-field', 14, 17], ['syntax', 22, 25]]],
    // and the value as the string it quotes: `in` with one string still needs a list
    ["ClientCountry in 'us'", [['syntax', 17, 21], ['in-needs-list', 17, 21]]],
    // with braces as well: the braces and each string
    ["ClientCountry in {'us', 'ca'}", [['syntax', 17, 29], ['syntax', 18, 22], ['syntax', 24, 28]]],
    // an unterminated one runs to the end of the line; the line after it is still read
    ["ClientCountry == 'us\nand Foo < 30", [['syntax', 17, 20], ['unknown-field', 25, 28]]],
    // before an operator it is a field name, as before (one error, fixed to the bare or backquoted name)
    ["'ClientCountry' == \"us\"", [['syntax', 0, 15]]],
  ] as const)('%s', (source, expected) => {
    expect(found(source)).toEqual(expected);
  });
});
