/** Semantic classes of the rules language's tokens, for editors (the shared highlight shape, plus functions). */
import { tokenMatcher } from 'chevrotain';
import { RULE_FIELD_BY_NAME } from './fields.js';
import { RULE_FUNCTION_BY_NAME } from './functions.js';
import * as T from './tokens.js';
import { unescapedParts } from '../lang/editor.js';

export type RuleHighlightType = 'keyword' | 'operator' | 'field' | 'function' | 'string' | 'number';

export interface RuleHighlightToken {
  start: number;
  end: number;
  type: RuleHighlightType;
  deprecated?: boolean;
}

export function ruleHighlightTokens(text: string): RuleHighlightToken[] {
  const out: RuleHighlightToken[] = [];
  for (const t of T.getRuleLexer().tokenize(text).tokens) {
    const start = t.startOffset;
    const end = start + t.image.length;
    if (tokenMatcher(t, T.Comparison)) out.push({ start, end, type: 'operator' });
    else if (tokenMatcher(t, T.And) || tokenMatcher(t, T.Or) || tokenMatcher(t, T.Xor) || tokenMatcher(t, T.Not) || tokenMatcher(t, T.Quantifier)) out.push({ start, end, type: 'keyword' });
    // a quoted string in the parts between its escapes: one token over it all would paint over the
    // grammar's escape colour (`\"`, `\\.`); raw strings have no escapes
    else if (tokenMatcher(t, T.QuotedString)) for (const p of unescapedParts(t.image)) out.push({ start: start + p.start, end: start + p.end, type: 'string' });
    else if (tokenMatcher(t, T.RawString)) out.push({ start, end, type: 'string' });
    else if (tokenMatcher(t, T.Word)) {
      const f = RULE_FIELD_BY_NAME.get(t.image);
      if (f) out.push({ start, end, type: 'field', ...(f.replacedBy ? { deprecated: true } : {}) });
      else if (RULE_FUNCTION_BY_NAME.has(t.image)) out.push({ start, end, type: 'function' });
      else if (/^[-0-9:]/.test(t.image)) out.push({ start, end, type: 'number' });
    }
  }
  return out;
}
