/**
 * Completion for the rules language as a pure function of (text, offset): what the cursor is on (an
 * operand, an operator after a typed value, a value after an operator, a logical operator after a
 * comparison) and the items for it, as the shared CompletionEntry the language server maps onto the
 * protocol. Operators are offered by the type of the value before them; fields and functions by phase.
 */
import { tokenMatcher, type IToken } from 'chevrotain';
import type { CompletionEntry } from '../lang/editor.js';
import { typeOfValueExpression } from './check.js';
import { RULE_FIELDS, MANAGED_LISTS } from './fields.js';
import { RULE_FUNCTIONS, type RuleFunction } from './functions.js';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS } from './operators.js';
import { availabilityText, availableIn } from './phases.js';
import * as T from './tokens.js';
import { docTypeName, isScalar, type RuleType } from './types.js';

export type RuleCompletionKind = 'operand' | 'operator' | 'value' | 'logical' | 'none';

export interface RuleCompletionSituation {
  kind: RuleCompletionKind;
  /** The span a chosen item replaces (the word being typed). */
  replace: { start: number; end: number };
  /** The type of the value before the cursor (operator and value situations). */
  type?: RuleType;
  /** The comparison operator before a value. */
  operator?: string;
  /** `[*]` mapped over the value before the cursor. */
  each?: boolean;
  /** A managed list name is being typed after its `$` (the `$` is in `replace`): only list names fit. */
  list?: boolean;
}

export interface RuleCompletionOptions {
  phase?: string;
}

const OPENERS = [T.LParen, T.Comma, T.And, T.Or, T.Xor, T.Not];

/** Tokens that are string literals: nothing is completed inside one. */
const STRINGS = [T.QuotedString, T.RawString, T.SingleQuoted];

export function ruleCompletionSituation(text: string, offset: number): RuleCompletionSituation {
  const tokens = T.getRuleLexer().tokenize(text.slice(0, offset)).tokens;
  let last = tokens[tokens.length - 1];
  let replace = { start: offset, end: offset };
  // Inside a string (the editor auto-closes the quote, so the text before the cursor holds an open one):
  // no item fits, and any item would replace what is being typed. A string still open at the cursor
  // swallows a character appended after it; a closed one does not.
  if (last && STRINGS.some((s) => tokenMatcher(last!, s)) && last.startOffset + last.image.length === offset) {
    const probe = T.getRuleLexer().tokenize(text.slice(last.startOffset, offset) + ' ').tokens[0];
    if (probe && probe.image.length > offset - last.startOffset) return { kind: 'none', replace };
  }
  // the word under the cursor is being typed: complete it from what comes before it
  if (last && last.startOffset + last.image.length === offset && (tokenMatcher(last, T.Word) || /^[a-z_]+$/.test(last.image))) {
    replace = { start: last.startOffset, end: offset + (/^[A-Za-z0-9_.]*/.exec(text.slice(offset))?.[0].length ?? 0) };
    tokens.pop();
    last = tokens[tokens.length - 1];
  }
  // inside an inline list (`{"a" |}`): its items are values written as they come, and an `and` would break it
  let braces = 0;
  for (const t of tokens) braces += tokenMatcher(t, T.LBrace) ? 1 : tokenMatcher(t, T.RBrace) ? -1 : 0;
  if (braces > 0) return { kind: 'none', replace };
  // a managed list being typed (`$`, `$cf.vp`): the `$` belongs to the name an item replaces
  if (last && tokenMatcher(last, T.Dollar) && last.startOffset + 1 === replace.start) {
    replace = { start: last.startOffset, end: replace.end };
    tokens.pop();
    const before = tokens[tokens.length - 1];
    if (!before || !tokenMatcher(before, T.Comparison)) return { kind: 'none', replace };
    const lhs = lhsBefore(text, tokens, tokens.length - 1);
    const ty = lhs ? typeOfValueExpression(lhs) : undefined;
    return { kind: 'value', replace, operator: before.image, list: true, ...(ty ? { type: ty.type, each: ty.each } : {}) };
  }
  if (!last || OPENERS.some((o) => tokenMatcher(last!, o)) || tokenMatcher(last, T.Quantifier)) return { kind: 'operand', replace };
  if (tokenMatcher(last, T.Comparison)) {
    const lhs = lhsBefore(text, tokens, tokens.length - 1);
    const ty = lhs ? typeOfValueExpression(lhs) : undefined;
    return { kind: 'value', replace, operator: last.image, ...(ty ? { type: ty.type, each: ty.each } : {}) };
  }
  if (tokenMatcher(last, T.Word) || tokenMatcher(last, T.RBracket) || tokenMatcher(last, T.RParen)) {
    // after a value: an operator for its type, unless it completes a comparison (then a logical operator)
    const before = tokens[tokens.length - 2];
    if (before && tokenMatcher(before, T.Comparison)) return { kind: 'logical', replace };
    const lhs = lhsBefore(text, tokens, tokens.length);
    const ty = lhs ? typeOfValueExpression(lhs) : undefined;
    if (ty?.type === 'Bool') return { kind: 'logical', replace };
    if (!ty) return { kind: tokenMatcher(last, T.RParen) ? 'logical' : 'none', replace };
    // `[*]` only goes right after the value (`names[*]`, chains too: `x[*][*]`); after a space it is an
    // error, and an array takes no operator, so there is nothing to offer there
    if (!isScalar(ty.type) && replace.start > 0 && /\s/.test(text[replace.start - 1])) return { kind: 'none', replace };
    return { kind: 'operator', replace, type: ty.type, each: ty.each };
  }
  if (tokenMatcher(last, T.QuotedString) || tokenMatcher(last, T.RawString) || tokenMatcher(last, T.RBrace)) return { kind: 'logical', replace };
  return { kind: 'none', replace };
}

/** The text of the value expression that ends before tokens[end]: back over balanced () and [] to an opener. */
function lhsBefore(text: string, tokens: IToken[], end: number): string | undefined {
  let depth = 0;
  let i = end - 1;
  for (; i >= 0; i--) {
    const t = tokens[i];
    if (tokenMatcher(t, T.RParen) || tokenMatcher(t, T.RBracket)) depth++;
    else if (tokenMatcher(t, T.LParen) || tokenMatcher(t, T.LBracket)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && !tokenMatcher(t, T.Word) && !tokenMatcher(t, T.Star) && !tokenMatcher(t, T.QuotedString)) break;
    else if (depth === 0 && tokenMatcher(t, T.Word) && i < end - 1 && tokenMatcher(tokens[i + 1], T.Word)) break;
  }
  const first = tokens[i + 1];
  const lastTok = tokens[end - 1];
  if (!first || !lastTok) return undefined;
  return text.slice(first.startOffset, lastTok.startOffset + lastTok.image.length);
}

const sort = (group: number, label: string) => `${group}_${label}`;

function fieldItem(f: (typeof RULE_FIELDS)[number]): CompletionEntry {
  const notes = [f.plan ? `Plan: ${f.plan}` : '', f.phases || f.layers.length === 1 ? `Only in: ${availabilityText(f)}` : '', f.replacedBy ? `Deprecated: use \`${f.replacedBy}\`` : ''].filter(Boolean);
  return {
    label: f.name,
    kind: 'field',
    detail: docTypeName(f.type),
    documentation: [f.doc, ...notes].join('\n\n'),
    insertText: f.name,
    sortText: sort(f.replacedBy ? 3 : 1, f.name),
    ...(f.replacedBy ? { deprecated: true } : {}),
  };
}

export function functionSignature(fn: RuleFunction): string {
  const params = fn.params.map((p) => `${p.name}${p.optional ? '?' : ''}${p.repeat ? '…' : ''}: ${p.types.map((t) => (typeof t === 'string' && t.endsWith('<_>') ? t : docTypeName(t as RuleType))).join(' | ')}${p.kind === 'literal' ? ' (literal)' : p.kind === 'field' ? ' (field)' : ''}`);
  const ret = fn.returns === 'first-argument' ? 'the type of the first argument' : docTypeName(fn.returns);
  return `${fn.name}(${params.join(', ')}): ${ret}`;
}

function managedListItem(l: string): CompletionEntry {
  return { label: `$${l}`, kind: 'value', detail: 'managed IP list', documentation: `The managed list ${l}`, insertText: `$${l}`, sortText: sort(2, l) };
}

function functionItem(fn: RuleFunction): CompletionEntry {
  const notes = [fn.plan ? `Plan: ${fn.plan}` : '', fn.phases ? `Only in: ${availabilityText(fn)}` : '', fn.valueOnly ? 'Value (rewrite) expressions only' : ''].filter(Boolean);
  return {
    label: fn.name,
    kind: 'snippet',
    detail: functionSignature(fn),
    documentation: [fn.doc, ...notes].join('\n\n'),
    insertText: `${fn.name}($0)`,
    snippet: true,
    sortText: sort(2, fn.name),
  };
}



export function ruleCompletionItems(situation: RuleCompletionSituation, options: RuleCompletionOptions = {}): CompletionEntry[] {
  const items: CompletionEntry[] = [];
  switch (situation.kind) {
    case 'operand':
      for (const f of RULE_FIELDS) if (availableIn(f, options.phase)) items.push(fieldItem(f));
      for (const fn of RULE_FUNCTIONS) if (availableIn(fn, options.phase)) items.push(functionItem(fn));
      for (const q of ['any', 'all']) items.push({ label: q, kind: 'keyword', detail: `${q}(Array<Boolean>): Boolean`, documentation: `True when ${q === 'any' ? 'any' : 'every'} element holds: ${q}(field[*] eq "x")`, insertText: `${q}($0)`, snippet: true, sortText: sort(4, q) });
      items.push({ label: 'not', kind: 'keyword', detail: 'logical NOT', documentation: 'Negates the next simple expression', insertText: 'not ', sortText: sort(4, 'not') });
      break;
    case 'operator': {
      const t = situation.type!;
      if (!isScalar(t)) {
        const each = { label: '[*]', kind: 'operator' as const, detail: `each element of ${docTypeName(t)}`, documentation: 'Maps over the elements; wrap the comparison in any(…) or all(…)', insertText: '[*]', sortText: sort(1, '[*]') };
        items.push(each);
        break;
      }
      for (const o of COMPARISON_OPERATORS) {
        if (!o.types.includes(t) || o.undocumentedTypes?.includes(t)) continue;
        items.push({ label: o.word, kind: 'operator', detail: o.symbol ? `${o.word} (${o.symbol})` : o.word, documentation: o.doc, insertText: `${o.word} `, sortText: sort(1, o.word) });
      }
      break;
    }
    case 'value': {
      const t = situation.type;
      if (situation.list) {
        if (situation.operator === 'in' && t === 'Ip') for (const l of MANAGED_LISTS) items.push(managedListItem(l));
      } else if (situation.operator === 'in') {
        items.push({ label: '{…}', kind: 'value', detail: 'inline list', documentation: 'Values separated by spaces', insertText: '{$0}', snippet: true, sortText: sort(1, '{') });
        if (t === 'Ip') for (const l of MANAGED_LISTS) items.push(managedListItem(l));
      } else if (t === 'Bytes') {
        items.push({ label: '""', kind: 'value', detail: 'string', documentation: 'A quoted string', insertText: '"$0"', snippet: true, sortText: sort(1, '"') });
        items.push({ label: 'r#""#', kind: 'value', detail: 'raw string', documentation: 'A raw string: no escapes (recommended for regular expressions)', insertText: 'r#"$0"#', snippet: true, sortText: sort(2, 'r') });
      }
      break;
    }
    case 'logical':
      for (const o of LOGICAL_OPERATORS) if (o.word !== 'not') items.push({ label: o.word, kind: 'keyword', detail: `${o.word} (${o.symbol})`, documentation: o.doc, insertText: `${o.word} `, sortText: sort(o.precedence, o.word) });
      break;
    case 'none':
      break;
  }
  return items;
}

/** Situation and items in one call. */
export function ruleCompletion(text: string, offset: number, options: RuleCompletionOptions = {}): { situation: RuleCompletionSituation; items: CompletionEntry[] } {
  const situation = ruleCompletionSituation(text, offset);
  return { situation, items: ruleCompletionItems(situation, options) };
}
