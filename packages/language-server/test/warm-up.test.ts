/**
 * The warm-up a server thread runs while it waits for its client (src/warm-up.ts): it only pays off if its
 * samples take the paths of a real first check, so they must stay what they are meant to be (a filter and a
 * rule that parse, each with a misspelt field answered with suggestions) as the languages change.
 */
import { describe, expect, it } from 'vitest';
import { checkRule, compile } from '@logfilter/core';
import { FILTER_SAMPLE, RULE_SAMPLE } from '../src/warm-up.js';

describe('warm-up', () => {
  it('checks a filter whose only problem is a misspelt field, with suggestions', () => {
    const r = compile(FILTER_SAMPLE);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown-field']);
    expect(r.diagnostics[0]!.suggestions).toContain('ClientRequestHost');
  });

  it('checks a rule whose only problem is a misspelt field, with suggestions', () => {
    const d = checkRule(RULE_SAMPLE).diagnostics;
    expect(d).toHaveLength(1);
    expect(d[0]!.suggestions).toContain('http.host');
  });
});
