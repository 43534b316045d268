/**
 * 1 MB documents as they are typed in, through the real server over stdio: an edit in a large filter gets
 * the diagnostics of its region at once (a first publication for the new version), then those of the whole
 * check (a second); a large ruleset's expressions are re-checked after an edit with the same result as a
 * fresh check. Speed is measured in bench/lsp-large.bench.mjs, not here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkRuleDocument, compile } from '@logfilter/core';
import { startSession, type Session } from './support/harness.js';

let client: Session;
beforeAll(async () => {
  client = await startSession();
}, 180_000);
afterAll(() => client?.stop());

const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]\n';
const big = ('or ' + line).repeat(Math.ceil(1_000_000 / (line.length + 3))).slice(3);

describe('a 1 MB filter, edited', { timeout: 240_000 }, () => {
  it('publishes the edited region at once, then the whole check, for the same version', async () => {
    const f = await client.open(big, { name: 'big.logfilter' });
    await f.diagnostics();
    const mid = Math.floor(big.split('\n').length / 2);
    const v = await client.change(f.uri, [{ range: { start: { line: mid, character: 3 }, end: { line: mid, character: 20 } }, text: 'ClientRequestHots' }]);
    const text = big.split('\n').map((l, i) => (i === mid ? `${l.slice(0, 3)}ClientRequestHots${l.slice(20)}` : l)).join('\n');
    const doc = TextDocument.create('x:', 'logfilter', 0, text);
    const at = doc.offsetAt({ line: mid, character: 3 });
    const expected = { start: doc.positionAt(at), end: doc.positionAt(at + 'ClientRequestHots'.length) };
    const first = await client.waitForDiagnostics(f.uri, (_d, pv) => pv === v);
    expect(first.filter((d) => d.code === 'unknown-field').map((d) => d.range)).toEqual([expected]);
    // the whole check follows: its diagnostics hold the same unknown field and the whole-filter ones
    await client.waitForDiagnostics(f.uri, () => client.publications.filter((p) => p.uri === f.uri && p.version === v).length === 2);
    const whole = client.publications.filter((p) => p.uri === f.uri && p.version === v)[1]!.diagnostics;
    expect(whole.filter((d) => d.code === 'unknown-field').map((d) => d.range)).toEqual([expected]);
    const codes = new Set(compile(text).diagnostics.map((d) => d.code));
    expect(codes.has('too-many-operators')).toBe(true);
    expect(whole.map((d) => d.code)).toContain('too-many-operators');
  });
});

describe('a large ruleset, edited', { timeout: 240_000 }, () => {
  it('re-checks after an edit with the result of a fresh check', async () => {
    const rules = Array.from({ length: 3000 }, (_, i) => ({ action: 'block', expression: `http.host eq "h${i}.example.com" and not ssl` }));
    const text = JSON.stringify({ phase: 'http_request_firewall_custom', rules }, null, 2);
    const f = await client.open(text, { name: 'big.ruleset.json' });
    expect(await f.diagnostics()).toEqual([]);
    const next = text.replace('"http.host eq \\"h1500.example.com\\" and not ssl"', '"http.hots eq \\"h1500.example.com\\" and not ssl"');
    const v = await client.change(f.uri, next);
    const got = await client.waitForDiagnostics(f.uri, (_d, pv) => pv === v);
    const doc = TextDocument.create('x:', 'json', 0, next);
    expect(got.map((d) => [d.code, d.range])).toEqual(checkRuleDocument(next).diagnostics.map((d) => [d.code, { start: doc.positionAt(d.start), end: doc.positionAt(d.end) }]));
    expect(got.map((d) => d.code)).toEqual(['rule-unknown-identifier']);
  });
});
