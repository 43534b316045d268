/** Which language service answers a document: by language id, else by file name, whatever id the editor sends. */
import { describe, expect, it } from 'vitest';
import { languageOf } from '../src/language-service.js';

describe('languageOf', () => {
  it.each([
    ['file:///a.logfilter', 'logfilter', 'filter'],
    ['untitled:Untitled-1', 'logfilter', 'filter'],
    ['untitled:Untitled-2', 'logfilter-rules', 'rules'],
    ['file:///waf.rule', 'plaintext', 'rules'],
    ['file:///WAF.RULE', 'logfilter', 'rules'],
    ['file:///waf.ruleset.json', 'json', 'rules'],
    ['file:///job.json', 'json', 'filter'],
    ['file:///a.rules', 'plaintext', 'filter'],
  ])('%s (%s) → %s', (uri, languageId, expected) => {
    expect(languageOf({ uri, languageId })).toBe(expected);
  });
});
