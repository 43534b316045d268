/**
 * Acceptance audit (docs/language.md#command-line, #choices): `check` (and `eval`) take JSON or source; JSON
 * includes the forms decompile reads, the Terraform-style assignment `filter = "{\"where\":…}"` among them.
 */
import { describe, expect, it } from 'vitest';
import { check, compile, decompile, inputKind, toTerraform } from '@logfilter/core';

const tf = 'filter = "{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}}"';

describe('which input is JSON', () => {
  it.each([
    [tf, 'json'],
    [`  ${tf}\n`, 'json'],
    ['{"where":{}}', 'json'],
    ['"{\\"where\\":{}}"', 'json'],
    // a source with the `=` typo stays source, so it gets its "did you mean '=='"
    ['ClientCountry = "us"', 'source'],
    ['filter = 1', 'source'],
    ['ClientCountry == "us"', 'source'],
    ['jsonencode({"where":{}})', 'json'],
    ['filter = jsonencode(\n  {"where":{}}\n)\n', 'json'],
    ['jsonencode == "x"', 'source'],
  ])('%j is %s', (text, kind) => {
    expect(inputKind(text)).toBe(kind);
  });
  it('check reads the assignment as decompile does, with the same diagnostics', () => {
    const r = check(tf, { accept: 'json-or-source' });
    expect(r.input).toBe('json');
    expect(r.ok).toBe(true);
    expect(r.json).toBe('{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}');
    expect(decompile(tf).source).toBe('ClientCountry == "us"\n');
    const bad = tf.replace('ClientCountry', 'ClientCountryy');
    const d = check(bad, { accept: 'json-or-source' }).diagnostics;
    expect(d.map((x) => [x.code, bad.slice(x.start, x.end)])).toEqual([['unknown-field', '\\"ClientCountryy\\"']]);
  });

  it('check and decompile read what --format terraform writes, its $${ and %%{ as ${ and %{, ranges in the text given', () => {
    const value = '/a${var.x}b%{if}"q\\';
    const r = compile(`ClientRequestPath startsWith ${JSON.stringify(value)} and EdgeResponseStatus >= 500`);
    expect(r.ok).toBe(true);
    for (const text of [toTerraform(r.json!), `filter = ${toTerraform(r.json!)}\n`]) {
      expect(inputKind(text)).toBe('json');
      const c = check(text, { accept: 'json-or-source' });
      expect(c.ok).toBe(true);
      expect(c.json).toBe(r.json);
      expect(decompile(text).source).toBe(decompile(r.json!).source);
    }
    // a field after an escaped string: its range still covers its name in the text as given
    const bad = 'jsonencode({"where": {"and": [{"key": "ClientRequestPath", "operator": "eq", "value": "$${a}%%{b}"}, {"key": "Nope", "operator": "eq", "value": "x"}]}})';
    const d = check(bad, { accept: 'json-or-source' }).diagnostics;
    expect(d.map((x) => [x.code, bad.slice(x.start, x.end)])).toEqual([['unknown-field', '"Nope"']]);
    const expr = decompile(bad);
    expect(expr.source).toBe('ClientRequestPath == "${a}%{b}" and Nope == "x"\n');
  });
});

