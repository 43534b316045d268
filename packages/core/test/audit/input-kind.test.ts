/**
 * Acceptance audit (docs/language.md#command-line, #choices): `check` (and `eval`) take JSON or source; JSON
 * includes the forms decompile reads, the Terraform-style assignment `filter = "{\"where\":…}"` among them.
 */
import { describe, expect, it } from 'vitest';
import { check, decompile, inputKind } from '@logfilter/core';

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
});
