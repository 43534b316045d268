/** Hover for the rules language: a field's type, phases and plan; a function's signature; an operator; a value or a list. */
import { tokenMatcher } from 'chevrotain';
import type { HoverInfo } from '../lang/editor.js';
import { functionSignature } from './completion.js';
import { RULE_FIELD_BY_NAME } from './fields.js';
import { RULE_FUNCTION_BY_NAME } from './functions.js';
import { COMPARISON_BY_SPELLING, LOGICAL_BY_SPELLING } from './operators.js';
import { availabilityText } from './phases.js';
import * as T from './tokens.js';
import { docTypeName } from './types.js';
import { listHover, valueHover } from './hover-values.js';

export function ruleHoverAt(text: string, offset: number): HoverInfo | undefined {
  const tokens = T.getRuleLexer().tokenize(text).tokens;
  const t = tokens.find((x) => x.startOffset <= offset && offset < x.startOffset + x.image.length) ?? tokens.find((x) => x.startOffset + x.image.length === offset);
  if (!t) return undefined;
  const span = { start: t.startOffset, end: t.startOffset + t.image.length };
  // `$name`: on the `$` or on the name after it, the whole list reference
  const i = tokens.indexOf(t);
  const dollar = tokenMatcher(t, T.Dollar) ? i : i > 0 && tokenMatcher(tokens[i - 1], T.Dollar) && tokens[i - 1].startOffset + 1 === t.startOffset ? i - 1 : -1;
  if (dollar >= 0) {
    const markdown = listHover(tokens, dollar);
    const name = tokens[dollar + 1];
    const end = name && name.startOffset === tokens[dollar].startOffset + 1 ? name.startOffset + name.image.length : tokens[dollar].startOffset + 1;
    return markdown ? { markdown, start: tokens[dollar].startOffset, end } : undefined;
  }
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
    const value = valueHover(t);
    return value ? { markdown: value, ...span } : undefined;
  }
  const literal = valueHover(t);
  if (literal) return { markdown: literal, ...span };
  const cmp = COMPARISON_BY_SPELLING.get(t.image);
  if (cmp && tokenMatcher(t, T.Comparison)) {
    return { markdown: `**${cmp.word}**${cmp.symbol ? ` (\`${cmp.symbol}\`)` : ''}: ${cmp.doc}\n\nApplies to: ${cmp.types.map(docTypeName).join(', ')}`, ...span };
  }
  const logical = LOGICAL_BY_SPELLING.get(t.image);
  if (logical) return { markdown: `**${logical.word}** (\`${logical.symbol}\`): ${logical.doc}; precedence ${logical.precedence} (not > and > xor > or)`, ...span };
  if (tokenMatcher(t, T.Quantifier)) return { markdown: `**${t.image}**(Array<Boolean>): Boolean — true when ${t.image === 'any' ? 'any element' : 'every element'} holds`, ...span };
  return undefined;
}
