/**
 * parseRule(): text → tree + syntax diagnostics. Never throws. The input is trimmed as the language does
 * (so leading and trailing tabs are harmless); deep nesting is refused before the recursive parser runs.
 */
import { EOF, type IRecognitionException, type IToken } from 'chevrotain';
import type { RuleExpr, RuleIndexExpr } from './ast.js';
import { expectedTokenName, finishSyntaxDiagnostics, lexerErrorSpans, tooDeepToken, TooManyErrors } from '../lang/chevrotain.js';
import { type Diagnostic, type DiagnosticExtra, sortDiagnostics } from '../lang/diagnostics.js';
import type { JSON_DIAGNOSTIC_CODES } from '../lang/located-json.js';
import { ruleDiag, type RuleDiagnosticCode } from './codes.js';
import { getRuleParser } from './parser.js';
import { RULE_SETTINGS } from './settings.js';
import * as T from './tokens.js';
import { expectOneOf, expectText } from '../lang/guards.js';

export type RuleKind = 'filter' | 'value';
const RULE_KINDS: readonly RuleKind[] = ['filter', 'value'];

/** A rules-language diagnostic: the shared shape, plus what the API's error format says for it. */
export interface RuleDiagnostic extends Diagnostic<RuleDiagnosticCode | keyof typeof JSON_DIAGNOSTIC_CODES> {
  api?: ApiPosition;
}

/** The reference parser's message and the span its carets cover (UTF-16 offsets). */
export interface ApiPosition {
  message: string;
  start: number;
  end: number;
}

export interface RuleParseResult {
  kind: RuleKind;
  /** The filter expression (kind `filter`) or the value expression (kind `value`). */
  expr?: RuleExpr;
  value?: RuleIndexExpr;
  diagnostics: RuleDiagnostic[];
  /** The text that was parsed: the input with its leading and trailing white space blanked. */
  tokens: IToken[];
}

/** Nesting of parentheses, calls and `not` the language allows (its reference parser's default). */
export const MAX_RULE_DEPTH = RULE_SETTINGS.maxParseDepth;
const MAX_SYNTAX = RULE_SETTINGS.maxSyntaxDiagnostics;
const NESTING = { open: T.LParen, close: T.RParen, not: T.Not, notsThroughOpen: false };

const TRIM_START = /^[\s\ufeff]+/;
const TRIM_END = /[\s\ufeff]+$/;

export function rdiag(code: RuleDiagnosticCode, message: string, start: number, end: number, api?: { message: string; start?: number; end?: number }, extra: DiagnosticExtra = {}): RuleDiagnostic {
  const d: RuleDiagnostic = ruleDiag(code, message, start, end, extra);
  if (api) d.api = { message: api.message, start: api.start ?? start, end: api.end ?? end };
  return d;
}

export function parseRule(text: string, kind: RuleKind = 'filter'): RuleParseResult {
  expectText(text, 'parseRule', 'a rule expression');
  expectOneOf(kind, RULE_KINDS, 'parseRule', 'kind');
  const diagnostics: RuleDiagnostic[] = [];
  // blank (not cut) the outer white space, so offsets stay those of the input
  const lead = TRIM_START.exec(text)?.[0].length ?? 0;
  const trail = lead === text.length ? 0 : (TRIM_END.exec(text)?.[0].length ?? 0);
  const body = text.slice(lead, text.length - trail);
  if (body === '') {
    diagnostics.push(rdiag('rule-empty', kind === 'filter' ? 'empty expression (write true to match everything)' : 'empty expression', text.length, text.length, { message: 'expected identifier character' }));
    return { kind, diagnostics, tokens: [] };
  }
  const padded = ' '.repeat(lead) + body + ' '.repeat(trail);
  const lexed = T.getRuleLexer().tokenize(padded);
  for (const e of lexerErrorSpans(padded, lexed.errors, RULE_SETTINGS)) {
    diagnostics.push(rdiag('rule-syntax', `unexpected character ${e.shown}`, e.start, e.end, { message: 'unrecognised input', end: lineEnd(text, e.start) }));
  }
  for (const t of (lexed.groups.badSpace ?? []).slice(0, MAX_SYNTAX)) {
    diagnostics.push(
      rdiag('rule-space', 'only spaces and line breaks separate tokens (tabs are not allowed)', t.startOffset, t.startOffset + t.image.length, { message: 'unrecognised input', end: lineEnd(text, t.startOffset) }, {
        fixes: [{ title: 'Replace with a space', edits: [{ start: t.startOffset, end: t.startOffset + t.image.length, newText: ' ' }], preferred: true }],
      }),
    );
  }
  const tokens = lexed.tokens;
  const deep = tooDeepToken(tokens, NESTING, RULE_SETTINGS)?.token;
  if (deep) {
    diagnostics.push(rdiag('rule-too-deep', `nesting deeper than ${MAX_RULE_DEPTH} levels`, deep.startOffset, deep.startOffset + deep.image.length, { message: `maximum nesting depth exceeded (limit: ${MAX_RULE_DEPTH})` }));
    return { kind, diagnostics: sortDiagnostics(diagnostics), tokens };
  }
  const parser = getRuleParser();
  parser.input = tokens;
  let expr: RuleExpr | undefined;
  let value: RuleIndexExpr | undefined;
  try {
    if (kind === 'filter') expr = parser.filter();
    else value = parser.value();
  } catch (e) {
    if (!(e instanceof TooManyErrors)) throw e;
  }
  for (const e of parser.errors) diagnostics.push(finite(toDiagnostic(e, text, tokens, kind), text.trimEnd().length));
  parser.input = [];
  const result: RuleParseResult = { kind, diagnostics: finishSyntaxDiagnostics(diagnostics), tokens };
  if (expr) result.expr = expr;
  if (value) result.value = value;
  return result;
}

/** Tokens that recovery inserted have no offsets: such a diagnostic points at the end of the text. */
export function finite(d: RuleDiagnostic, end: number): RuleDiagnostic {
  const fix = (n: number) => (Number.isFinite(n) ? n : end);
  d.start = fix(d.start);
  d.end = Math.max(d.start, fix(d.end));
  if (d.api) {
    d.api.start = fix(d.api.start);
    d.api.end = Math.max(d.api.start, fix(d.api.end));
  }
  return d;
}

export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl;
}

const EXPECTED: Record<string, { ours: string; api: string }> = {
  RParen: { ours: "')'", api: 'expected literal ")"' },
  LParen: { ours: "'('", api: 'expected literal "("' },
  RBracket: { ours: "']'", api: 'expected literal "]"' },
  Comma: { ours: "','", api: 'expected literal ","' },
  Word: { ours: 'a field or function name', api: 'expected identifier character' },
};

function describe(t: IToken): string {
  if (t.tokenType === EOF || Number.isNaN(t.startOffset)) return 'the end of the expression';
  return `'${t.image.length > 40 ? `${t.image.slice(0, 37)}...` : t.image}'`;
}

function toDiagnostic(e: IRecognitionException, text: string, tokens: IToken[], kind: RuleKind): RuleDiagnostic {
  const tok = e.token;
  const atEnd = tok.tokenType === EOF || Number.isNaN(tok.startOffset);
  const start = atEnd ? text.trimEnd().length : tok.startOffset;
  const end = atEnd ? start : tok.startOffset + tok.image.length;
  if (e.name === 'NotAllInputParsedException') {
    // the language reports leftover input from the end of what it read, spaces included
    const i = tokens.indexOf(tok);
    const prev = i > 0 ? tokens[i - 1] : undefined;
    const from = prev ? prev.startOffset + prev.image.length : start;
    const what = kind === 'filter' ? 'expected and, or, xor or the end of the expression' : 'expected the end of the value expression';
    return rdiag('rule-syntax', `${what}, found ${describe(tok)}${hint(tok)}`, start, end, { message: 'unrecognised input', start: from, end: lineEnd(text, from) });
  }
  if (e.name === 'MismatchedTokenException') {
    const name = expectedTokenName(e);
    const exp = name === undefined ? undefined : EXPECTED[name];
    // the language underlines the rest of the line from where it expected the token
    if (exp) return rdiag('rule-syntax', `expected ${exp.ours}, found ${describe(tok)}${hint(tok)}`, start, end, { message: exp.api, end: Math.max(end, lineEnd(text, start)) });
  }
  const rule = e.context?.ruleStack?.[e.context.ruleStack.length - 1];
  const expected = rule === 'rhs' ? 'a value' : "a field, a function call, 'not' or '('";
  return rdiag('rule-syntax', `expected ${expected}, found ${describe(tok)}${hint(tok)}`, start, end, { message: rule === 'rhs' ? 'unrecognised input' : 'expected identifier character' });
}

function hint(t: IToken): string {
  if (t.tokenType === T.SingleQuoted) return '; strings use double quotes';
  if (t.tokenType === T.Word && /^(AND|OR|XOR|NOT|EQ|NE|IN|CONTAINS|MATCHES)$/i.test(t.image) && t.image !== t.image.toLowerCase()) return `; operators are lower case: ${t.image.toLowerCase()}`;
  return '';
}

