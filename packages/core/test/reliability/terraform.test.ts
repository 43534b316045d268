/**
 * `--format terraform` writes a `jsonencode(...)` expression whose quoted strings are HCL templates. The decoder
 * below follows HCL's native syntax for quoted template strings (hashicorp/hcl, hclsyntax/spec.md "Template
 * Expressions" and scan_tokens.rl): `${` starts an interpolation, `%{` a directive, `$${` and `%%{` are their
 * literal escapes, a `$` or `%` not followed by `{` is literal, and the only backslash escapes are
 * \n \r \t \" \\ \uNNNN \UNNNNNNNN. It refuses anything Terraform would evaluate or reject.
 */
import { describe, expect, it } from 'vitest';
import { compile, toTerraform } from '@logfilter/core';

/** The literal value of one HCL quoted template, or an error naming what Terraform would do with it. */
function hclTemplateValue(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '$' || c === '%') {
      if (body[i + 1] === '{') throw new Error(`${c}{ at ${i} starts a template ${c === '$' ? 'interpolation' : 'directive'}`);
      if (body[i + 1] === c && body[i + 2] === '{') {
        out += `${c}{`;
        i += 2;
        continue;
      }
      out += c;
      continue;
    }
    if (c === '\\') {
      const e = body[++i];
      const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };
      if (e in simple) out += simple[e];
      else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(body.slice(i + 1, i + 5))) {
        out += String.fromCharCode(parseInt(body.slice(i + 1, i + 5), 16));
        i += 4;
      } else if (e === 'U' && /^[0-9A-Fa-f]{8}$/.test(body.slice(i + 1, i + 9))) {
        out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 9), 16));
        i += 8;
      } else throw new Error(`invalid escape \\${e} at ${i}`);
      continue;
    }
    if (c === '\n' || c === '\r') throw new Error('a quoted template cannot hold a line break');
    out += c;
  }
  return out;
}

/** Every quoted string of the expression, decoded by the template rules. */
function hclStrings(expr: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (const m of expr.matchAll(re)) out.push(hclTemplateValue(m[1]));
  return out;
}

const SPECIALS = [
  '${',
  '%{',
  '$${',
  '%%{',
  '$$${',
  '${~',
  '%{~',
  '$',
  '%',
  '$$',
  '%%',
  '$}',
  '{',
  '\\${',
  '\\',
  '"',
  '\b',
  '\f',
  '/',
  '\n\r\t',
  '\u0001\u001f',
  '\u2028é😀',
  '/a${var.x}b',
  '%{ if true }x%{ endif }',
];

describe('terraform output escapes HCL template sequences', () => {
  it.each(SPECIALS)('the string %j comes back exactly, with nothing evaluated', (value) => {
    const r = compile(`ClientRequestPath startsWith ${JSON.stringify(value)} and \`${value.replace(/[`\r\n]/g, '')}x\` == "y"`, { dataset: 'any' });
    expect(r.ok).toBe(true);
    const tf = toTerraform(r.json!);
    expect(tf.startsWith('jsonencode(')).toBe(true);
    const strings = hclStrings(tf);
    expect(strings).toContain(value);
    expect(strings).toContain(`${value.replace(/[`\r\n]/g, '')}x`);
  });

  it('writes ${ as $${ and %{ as %%{', () => {
    const r = compile('ClientRequestPath startsWith "/a${var.x}b%{if}"', { dataset: 'any' });
    expect(toTerraform(r.json!)).toContain('"/a$${var.x}b%%{if}"');
  });

  it('an unescaped sequence is caught by the decoder (the test is not vacuous)', () => {
    expect(() => hclTemplateValue('/a${var.x}')).toThrow();
    expect(() => hclTemplateValue('%{if}')).toThrow();
    expect(() => hclTemplateValue('\\b')).toThrow();
  });
});
