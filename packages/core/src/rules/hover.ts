/** Hover for the rules language: a field's type, phases and plan; a function's signature; an operator. */
import { tokenMatcher } from 'chevrotain';
import type { HoverInfo } from '../lang/editor.js';
import { functionSignature } from './completion.js';
import { RULE_FIELD_BY_NAME } from './fields.js';
import { RULE_FUNCTION_BY_NAME } from './functions.js';
import { COMPARISON_BY_SPELLING, LOGICAL_BY_SPELLING } from './operators.js';
import { availabilityText } from './phases.js';
import * as T from './tokens.js';
import { docTypeName } from './types.js';

export function ruleHoverAt(text: string, offset: number): HoverInfo | undefined {
  const tokens = T.getRuleLexer().tokenize(text).tokens;
  const t = tokens.find((x) => x.startOffset <= offset && offset < x.startOffset + x.image.length) ?? tokens.find((x) => x.startOffset + x.image.length === offset);
  if (!t) return undefined;
  const span = { start: t.startOffset, end: t.startOffset + t.image.length };
  if (tokenMatcher(t, T.Word)) {
    const f = RULE_FIELD_BY_NAME.get(t.image);
    if (f) {
      const lines = [`**${f.name}**: \`${docTypeName(f.type)}\``, f.doc, `Phases: ${availabilityText(f)}`];
      if (f.plan) lines.push(`Plan: ${f.plan}`);
      if (f.replacedBy) lines.push(`Deprecated: use \`${f.replacedBy}\``);
      return { markdown: lines.join('\n\n'), ...span };
    }
    const fn = RULE_FUNCTION_BY_NAME.get(t.image);
    if (fn) {
      const lines = [`\`${functionSignature(fn)}\``, fn.doc, `Phases: ${availabilityText(fn)}`];
      if (fn.plan) lines.push(`Plan: ${fn.plan}`);
      if (fn.valueOnly) lines.push('Only in value (rewrite) expressions');
      if (fn.oncePerExpression) lines.push('At most once per expression');
      return { markdown: lines.join('\n\n'), ...span };
    }
    return undefined;
  }
  const cmp = COMPARISON_BY_SPELLING.get(t.image);
  if (cmp && tokenMatcher(t, T.Comparison)) {
    return { markdown: `**${cmp.word}**${cmp.symbol ? ` (\`${cmp.symbol}\`)` : ''}: ${cmp.doc}\n\nApplies to: ${cmp.types.map(docTypeName).join(', ')}`, ...span };
  }
  const logical = LOGICAL_BY_SPELLING.get(t.image);
  if (logical) return { markdown: `**${logical.word}** (\`${logical.symbol}\`): ${logical.doc}; precedence ${logical.precedence} (not > and > xor > or)`, ...span };
  if (tokenMatcher(t, T.Quantifier)) return { markdown: `**${t.image}**(Array<Boolean>): Boolean — true when ${t.image === 'any' ? 'any element' : 'every element'} holds`, ...span };
  return undefined;
}
