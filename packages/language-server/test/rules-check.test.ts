/**
 * A ruleset's expressions are checked once per text, phase and kind: after an edit the diagnostics are those
 * of a fresh check of the whole document, whatever was reused.
 */
import { describe, expect, it } from 'vitest';
import { checkRuleDocument } from '@logfilter/core';
import { rulesDiagnostics } from '../src/rules-check.js';

const doc = (exprs: string[], phase?: string) => JSON.stringify({ ...(phase ? { phase } : {}), rules: exprs.map((expression) => ({ action: 'block', expression })) }, null, 2);
const spans = (ds: { code: string; start: number; end: number }[]) => ds.map((d) => [d.code, d.start, d.end]);

describe('rulesDiagnostics on ruleset JSON, edit after edit', () => {
  it('equals a fresh check after each edit, phase change and move', () => {
    const uri = 'file:///r.ruleset.json';
    const steps: [string[], string | undefined, string | undefined][] = [
      [['http.host eq "a"', 'tcp.dstport eq 80', 'http.hots eq "b"'], undefined, 'http_request_firewall_custom'],
      [['http.host eq "a"', 'tcp.dstport eq 80', 'http.host eq "b"'], undefined, 'http_request_firewall_custom'],
      // the same texts in another phase: nothing reused from the first phase
      [['http.host eq "a"', 'tcp.dstport eq 80', 'http.host eq "b"'], undefined, 'magic_transit'],
      // the document's own phase over the default; an expression moved to another place
      [['tcp.dstport eq 80', 'http.host eq "a"', 'http.host eq "b"', 'http.host eq'], 'http_request_firewall_custom', 'magic_transit'],
      [['tcp.dstport eq 80', 'http.host eq "a" or', 'http.host eq "b"', 'http.host eq'], 'http_request_firewall_custom', undefined],
    ];
    for (const [exprs, own, def] of steps) {
      const text = doc(exprs, own);
      const fresh = checkRuleDocument(text, def ? { phase: def } : {}).diagnostics;
      expect(fresh.length).toBeGreaterThan(0);
      expect(spans(rulesDiagnostics(text, 'ruleset-json', def, uri))).toEqual(spans(fresh));
    }
  });
});
