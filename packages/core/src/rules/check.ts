/**
 * checkRule(): parse, then type-check against the field and function tables. Phase-aware when given a
 * phase. Every diagnostic carries our message and, for the API's error format, the reference parser's
 * message and span (`api`). Never throws.
 */
import type { RuleCall, RuleComparison, RuleExpr, RuleIndexExpr, RuleLiteral, RuleRhs, RuleSpan } from './ast.js';
import { tokenMatcher } from 'chevrotain';
import { closest } from '../lang/closest.js';
import * as T from './tokens.js';
import { finite, type RuleDiagnostic, type RuleKind, type RuleParseResult, lineEnd, parseRule, rdiag } from './parse.js';
import { RULE_FIELD_BY_NAME, RULE_FIELDS } from './fields.js';
import { type ParamType, RULE_FUNCTION_BY_NAME, RULE_FUNCTIONS, type RuleFunction } from './functions.js';
import { COMPARISON_BY_SPELLING, type ComparisonOperator } from './operators.js';
import { availabilityText, availableIn } from './phases.js';
import { arrayOf, isScalar, type RuleType, type ScalarType, typeName, docTypeName, typesEqual } from './types.js';
import { regexSyntaxProblem } from './regex-syntax.js';
import { checkWildcard, type Read, readCidr, readHexBytes, readInt, readIntRange, readIp, readIpRange, readQuoted, readQuotedRegex, readRaw } from './literals.js';
import { hasErrors, sortDiagnostics } from '../lang/diagnostics.js';
import { RULE_SETTINGS } from './settings.js';
import { expectOptionalString, expectText, optionsOf } from '../lang/guards.js';

export interface RuleCheckOptions {
  /** `filter` (default): a Boolean expression; `value`: a rewrite value (a field or call, maybe indexed). */
  kind?: RuleKind;
  /** A ruleset phase (`http_request_firewall_custom`): fields and functions outside it are errors. */
  phase?: string;
}

export interface RuleCheckResult {
  ok: boolean;
  diagnostics: RuleDiagnostic[];
  parse: RuleParseResult;
}

/** The documented limit of an expression, in characters. */
export const MAX_RULE_LENGTH = RULE_SETTINGS.maxLength;

const IDENT = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const LIST_NAME = /^[a-z0-9_.]+$/;

/** A type as the checker tracks it: `each` when a `[*]` maps over an array or map on the way. */
interface Ty {
  t: RuleType;
  each?: boolean;
  /** An unquoted word used as a function argument: read by the parameter's type. */
  bare?: RuleLiteral;
  literal?: boolean;
  /** Decoded value of a literal argument, for the functions' value rules. */
  value?: string | bigint;
}

interface Ctx {
  text: string;
  kind: RuleKind;
  phase?: string;
  out: RuleDiagnostic[];
  /** Syntax errors: judge the parts that parsed, but not how they combine. */
  partial: boolean;
  replaceCalls: Map<string, number>;
  insideReplace: number;
}

export function checkRule(text: string, options?: RuleCheckOptions): RuleCheckResult {
  expectText(text, 'checkRule', 'a rule expression');
  options = optionsOf(options, 'checkRule') as RuleCheckOptions;
  expectOptionalString(options.phase, 'checkRule', 'phase');
  const kind = options.kind ?? 'filter';
  const parse = parseRule(text, kind);
  const out: RuleDiagnostic[] = [...parse.diagnostics];
  const ctx: Ctx = { text, kind, out, partial: hasErrors(parse.diagnostics), replaceCalls: new Map(), insideReplace: 0 };
  if (options.phase) ctx.phase = options.phase;
  const length = codePoints(text.trim(), MAX_RULE_LENGTH + 1);
  if (length > MAX_RULE_LENGTH) {
    const at = offsetOfCodePoint(text, MAX_RULE_LENGTH);
    out.push(rdiag('rule-too-long', `the expression is longer than ${MAX_RULE_LENGTH} characters`, at, text.length, { message: `expression is longer than ${MAX_RULE_LENGTH} characters` }));
  }
  if (parse.expr) {
    const ty = checkExpr(parse.expr, ctx, false);
    if (ty && !ctx.partial && !(ty.t === 'Bool' && !ty.each)) {
      const got = ty.each ? arrayOf(ty.t) : ty.t;
      const end = text.trimEnd().length;
      const eachHint = typesEqual(got, arrayOf('Bool')) ? ': wrap a [*] comparison in any(…) or all(…)' : '';
      out.push(
        rdiag('rule-type', `the expression must be a Boolean, but it is ${docTypeName(got)}${eachHint}`, parse.expr.start, parse.expr.end, {
          message: `expected value of type Bool, but got ${typeName(got)}`,
          start: end,
          end,
        }),
      );
    }
  }
  if (!parse.expr && kind === 'filter' && ctx.partial) out.push(...errorsBeforeSyntax(text, parse, options.phase));
  if (parse.value) {
    const ty = checkIndexExpr(parse.value, ctx);
    if (ty?.each) out.push(rdiag('rule-map-each', 'a value expression cannot map with [*] at its top level: pass it to a function', parse.value.start, parse.value.end, { message: 'invalid use of map each access operator' }));
  }
  const end = text.trimEnd().length;
  const diagnostics = sortDiagnostics(out.map((d) => finite(d, end))) as RuleDiagnostic[];
  return { ok: !hasErrors(diagnostics), diagnostics, parse };
}

/**
 * The language stops at its first error. A syntax error that left no tree (a dangling `and`, a missing `)`) is
 * not always that error: an unknown field or a bad value before it comes first, and the API reports that one.
 * So the longest part before the syntax error that parses — all of it, else up to one of its logical operators,
 * closed with the parentheses it left open — is checked, and its errors that end before the cut are kept.
 */
function errorsBeforeSyntax(text: string, parse: RuleParseResult, phase: string | undefined): RuleDiagnostic[] {
  const at = Math.min(...parse.diagnostics.filter((d) => d.severity === 'error').map((d) => Math.min(d.start, d.api?.start ?? d.start)));
  const before = parse.tokens.filter((t) => t.startOffset < at);
  if (parse.diagnostics.some((d) => d.code === 'rule-too-deep')) return [];
  // a few cuts are enough (the nearest operators); each is one more parse
  const cuts = [at, ...before.filter((t) => tokenMatcher(t, T.And) || tokenMatcher(t, T.Or) || tokenMatcher(t, T.Xor)).map((t) => t.startOffset).reverse()].slice(0, 8);
  for (const cut of cuts) {
    let open = 0;
    for (const t of before) if (t.startOffset < cut) open += tokenMatcher(t, T.LParen) ? 1 : tokenMatcher(t, T.RParen) ? -1 : 0;
    if (open < 0) continue;
    const head = text.slice(0, cut) + ')'.repeat(open);
    const p = parseRule(head, 'filter');
    if (!p.expr || hasErrors(p.diagnostics)) continue;
    const sub: Ctx = { text: head, kind: 'filter', out: [], partial: true, replaceCalls: new Map(), insideReplace: 0 };
    if (phase) sub.phase = phase;
    checkExpr(p.expr, sub, false);
    return sub.out.filter((d) => d.severity === 'error' && d.end <= cut);
  }
  return [];
}

function codePoints(s: string, stop: number): number {
  let n = 0;
  for (let i = 0; i < s.length && n < stop; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

function offsetOfCodePoint(s: string, n: number): number {
  const lead = s.length - s.trimStart().length;
  let i = lead;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }
  return i;
}

const isBoolLike = (ty: Ty) => (ty.t === 'Bool' || typesEqual(ty.t, arrayOf('Bool'))) && !(ty.each && ty.t !== 'Bool');
const asValueType = (ty: Ty): RuleType => (ty.each ? arrayOf(ty.t) : ty.t);

function checkExpr(e: RuleExpr | undefined, ctx: Ctx, asArg: boolean): Ty | undefined {
  // recovery can leave holes in a tree with syntax errors
  if (!e) return undefined;
  switch (e.kind) {
    case 'logical': {
      const tys = e.operands.map((o) => checkExpr(o, ctx, false));
      if (ctx.partial || tys.some((t) => t === undefined)) return { t: 'Bool' };
      const types = (tys as Ty[]).map(asValueType);
      const first = types[0];
      let bad = false;
      types.forEach((t, i) => {
        const operand = e.operands[i];
        if (!typesEqual(t, 'Bool') && !typesEqual(t, arrayOf('Bool'))) {
          bad = true;
          ctx.out.push(rdiag('rule-type', `an operand of ${e.op} must be a Boolean, but it is ${docTypeName(t)}`, operand.start, operand.end, { message: `expected value of type Bool, but got ${typeName(t)}` }));
        } else if (!typesEqual(t, first)) {
          bad = true;
          ctx.out.push(
            rdiag('rule-type', `the operands of ${e.op} mix Boolean and Array<Boolean>: wrap the [*] comparison in any(…) or all(…)`, operand.start, operand.end, {
              message: `expected value of type ${typeName(first)}, but got ${typeName(t)}`,
              start: operand.end,
              end: operand.end,
            }),
          );
        }
      });
      return bad ? undefined : { t: first };
    }
    case 'not': {
      const ty = checkExpr(e.operand, ctx, false);
      if (!ty) return undefined;
      if (!isBoolLike(ty) && !ctx.partial) {
        ctx.out.push(rdiag('rule-type', `not needs a Boolean, but this is ${docTypeName(asValueType(ty))}`, e.operand.start, e.operand.end, { message: `expected value of type Bool, but got ${typeName(asValueType(ty))}` }));
        return undefined;
      }
      return { t: asValueType(ty) };
    }
    case 'group': {
      const ty = checkExpr(e.inner, ctx, false);
      return ty ? { t: asValueType(ty) } : undefined;
    }
    case 'quantifier': {
      const ty = checkExpr(e.arg, ctx, true);
      if (!ty) return { t: 'Bool' };
      const got = ty.bare || ty.literal ? bareType(ty) : asValueType(ty);
      if (!typesEqual(got, arrayOf('Bool'))) {
        ctx.out.push(
          rdiag('rule-type', `${e.name.image}(…) needs an Array<Boolean>, such as a comparison on a [*] (this is ${docTypeName(got)})`, e.arg.start, e.arg.end, {
            message: `expected value of type Array<Bool>, but got ${typeName(got)}`,
          }),
        );
      }
      return { t: 'Bool' };
    }
    case 'literal': {
      const read = e.literal.form === 'quoted' ? readQuoted(e.literal.image) : e.literal.form === 'raw' ? readRaw(e.literal.image) : undefined;
      if (!read) {
        singleQuoted(e.literal, ctx, 'invalid digit found in string while parsing with radix 16');
        return undefined;
      }
      if (!read.ok) {
        problem(read, e.literal, ctx, 'rule-string');
        return undefined;
      }
      return { t: 'Bytes', literal: true, value: read.value };
    }
    case 'comparison':
      return checkComparison(e, ctx, asArg);
  }
}

function bareType(ty: Ty): RuleType {
  return ty.t;
}

function checkComparison(c: RuleComparison, ctx: Ctx, asArg: boolean): Ty | undefined {
  const base = c.lhs.base;
  if (asArg && !c.op && c.lhs.indexes.length === 0 && base.kind === 'ident' && !RULE_FIELD_BY_NAME.has(base.name) && /^[-0-9:]/.test(base.name)) {
    // an unquoted literal argument: the call reads it by the parameter's type
    const lit: RuleLiteral = { form: 'bare', image: base.name, start: base.start, end: base.end };
    const int = readInt(base.name);
    return { t: int.ok ? 'Int' : readIp(base.name).ok ? 'Ip' : 'Bytes', bare: lit, literal: true, ...(int.ok ? { value: int.value } : {}) };
  }
  const lhs = checkIndexExpr(c.lhs, ctx);
  if (!c.op) {
    if (asArg || !lhs) return lhs;
    if (lhs.t === 'Bool' || typesEqual(asValueType(lhs), arrayOf('Bool'))) return { t: asValueType(lhs) };
    const at = nextNonSpace(ctx.text, c.lhs.end);
    ctx.out.push(
      rdiag('rule-missing-operator', `${describeLhs(c.lhs)} is ${docTypeName(asValueType(lhs))}: compare it with an operator (${operatorHint(lhs.t)})`, c.lhs.start, c.lhs.end, {
        message: 'expected ComparisonOp',
        start: at,
        end: at + 1,
      }),
    );
    return undefined;
  }
  const op = COMPARISON_BY_SPELLING.get(c.op.image);
  if (!op) return undefined;
  // an operand that did not type-check was reported already: one error per cause, so no type for what holds it
  if (!lhs) return undefined;
  const result: Ty = { t: lhs.each ? arrayOf('Bool') : 'Bool' };
  const T = lhs.t;
  if (T === 'Bool') {
    ctx.out.push(
      rdiag(
        'rule-boolean-operator',
        `${describeLhs(c.lhs)} is a Boolean: use it alone (${describeLhs(c.lhs)}, not ${describeLhs(c.lhs)}) without ${c.op.image}`,
        c.op.start,
        c.rhs?.end ?? c.op.end,
        { message: 'unrecognised input', start: c.lhs.end, end: lineEnd(ctx.text, c.lhs.end) },
        booleanFix(c, ctx.text),
      ),
    );
    return undefined;
  }
  if (!isScalar(T)) {
    ctx.out.push(
      rdiag('rule-operator-type', `${c.op.image} cannot compare ${docTypeName(T)}: index it ([0], ["key"]) or use any(…[*] ${c.op.image} …)`, c.op.start, c.op.end, {
        message: `cannot perform this operation on type ${typeName(T)}`,
      }),
    );
    return undefined;
  }
  if (!op.types.includes(T)) {
    ctx.out.push(
      rdiag('rule-operator-type', `${c.op.image} does not apply to ${docTypeName(T)} (use ${operatorHint(T)})`, c.op.start, c.op.end, {
        message: `cannot perform this operation on type ${typeName(T)}`,
      }),
    );
    return result;
  }
  if (op.undocumentedTypes?.includes(T)) {
    ctx.out.push(rdiag('rule-ip-ordering', `ordering IP addresses with ${c.op.image} is not documented (IPv4 and IPv6 do not compare): prefer in {…} with a range or CIDR`, c.op.start, c.op.end));
  }
  if (!c.rhs) {
    const at = nextNonSpace(ctx.text, c.op.end);
    ctx.out.push(rdiag('rule-missing-value', `${c.op.image} needs a value`, c.op.start, c.op.end, { message: missingApi(T, op), start: at, end: at + 1 }));
    return result;
  }
  checkRhs(c.rhs, op, T, ctx);
  return result;
}

function missingApi(T: ScalarType, op: ComparisonOperator): string {
  if (op.rhs === 'list') return 'expected literal "{"';
  if (T === 'Int') return 'expected digit';
  if (T === 'Ip') return 'expected IP address character';
  return 'expected " or r';
}

function operatorHint(t: RuleType): string {
  if (!isScalar(t)) return 'index it first';
  if (t === 'Bytes') return 'eq, ne, contains, matches, wildcard, in …';
  if (t === 'Int') return 'eq, ne, lt, le, gt, ge, in …';
  if (t === 'Ip') return 'eq, ne, in …';
  return 'none';
}

function describeLhs(x: RuleIndexExpr): string {
  return x.base.kind === 'ident' && x.indexes.length === 0 ? x.base.name : 'this value';
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

function problem(read: Read<unknown>, lit: RuleSpan, ctx: Ctx, code: 'rule-string' | 'rule-value' | 'rule-index', offset = 0, fixes?: RuleDiagnostic['fixes']): void {
  if (read.ok) return;
  const p = read.problem;
  const s = lit.start + offset + p.offset;
  const apiEnd = Math.max(s + p.length, s);
  ctx.out.push(rdiag(code, p.message, s, Math.max(s + p.length, s + 1 > lit.end ? lit.end : s + 1), { message: p.api, start: s, end: apiEnd }, fixes ? { fixes } : {}));
}

function singleQuoted(lit: RuleLiteral, ctx: Ctx, api: string, apiLength = 2): void {
  const inner = lit.image.replace(/^'/, '').replace(/'$/, '');
  ctx.out.push(
    rdiag('rule-string', 'strings use double quotes ("…"), not single quotes', lit.start, lit.end, { message: api, start: lit.start, end: lit.start + apiLength }, {
      fixes: [{ title: 'Use double quotes', edits: [{ start: lit.start, end: lit.end, newText: JSON.stringify(inner) }], preferred: true }],
    }),
  );
}

/** A string literal (quoted or raw), decoded; other forms are reported. */
function readString(lit: RuleLiteral, ctx: Ctx, regex = false): string | undefined {
  if (lit.form === 'quoted') {
    const r = regex ? readQuotedRegex(lit.image) : readQuoted(lit.image);
    if (!r.ok) return problem(r, lit, ctx, 'rule-string'), undefined;
    return r.value;
  }
  if (lit.form === 'raw') {
    const r = readRaw(lit.image);
    if (!r.ok) return problem(r, lit, ctx, 'rule-string'), undefined;
    return r.value;
  }
  return undefined;
}

function checkRhs(rhs: RuleRhs, op: ComparisonOperator, T: ScalarType, ctx: Ctx): void {
  if (op.rhs === 'list') {
    if (rhs.kind === 'literal') {
      ctx.out.push(
        rdiag('rule-list', `in takes an inline list {…} or a named list $name`, rhs.start, rhs.end, { message: 'expected literal "{"' }, {
          fixes: [{ title: 'Wrap in { }', edits: [{ start: rhs.start, end: rhs.end, newText: `{${rhs.literal.image}}` }], preferred: true }],
        }),
      );
      return;
    }
    if (rhs.kind === 'named-list') {
      const n = rhs.name;
      if (!LIST_NAME.test(n) || n.startsWith('.') || n.endsWith('.')) {
        ctx.out.push(rdiag('rule-list', `invalid list name ${JSON.stringify(n)}: lower-case letters, digits, _ and inner dots`, rhs.start, Math.max(rhs.end, rhs.start + 1), { message: `invalid list name ${JSON.stringify(n)}` }));
      }
      return;
    }
    const listApi = T === 'Bytes' ? 'invalid digit found in string while parsing with radix 16' : T === 'Int' ? 'expected digit' : 'expected IP address character';
    for (const comma of rhs.commas) {
      ctx.out.push(
        rdiag('rule-list', 'list items are separated by spaces, not commas', comma.start, comma.end, { message: listApi, start: comma.start, end: Math.min(comma.start + 2, lineEnd(ctx.text, comma.start)) }, {
          fixes: [{ title: 'Remove the comma', edits: [{ start: comma.start, end: comma.end, newText: '' }], preferred: true }],
        }),
      );
    }
    if (!rhs.closed) {
      const at = nextNonSpace(ctx.text, rhs.end);
      ctx.out.push(
        rdiag('rule-list', 'unclosed list: add }', rhs.start, rhs.end, { message: T === 'Bytes' ? 'unrecognised input' : listApi, start: at, end: at + 1 }),
      );
    }
    if (rhs.items.length === 0 && rhs.closed) ctx.out.push(rdiag('rule-empty-list', 'an empty list never matches', rhs.start, rhs.end));
    for (const item of rhs.items) checkListItem(item, T, ctx);
    return;
  }
  if (rhs.kind !== 'literal') {
    ctx.out.push(rdiag('rule-value', `${op.word} takes one value; lists go with in`, rhs.start, rhs.end, { message: 'unrecognised input' }));
    return;
  }
  const lit = rhs.literal;
  if (op.rhs === 'regex' || op.rhs === 'wildcard') {
    if (lit.form === 'single') return singleQuoted(lit, ctx, 'expected " or r', 1);
    if (lit.form === 'bare') {
      ctx.out.push(rdiag('rule-value', `${op.word} takes a string ("…" or r"…")`, lit.start, lit.end, { message: 'expected " or r' }, quoteFix(lit)));
      return;
    }
    const s = readString(lit, ctx, op.rhs === 'regex');
    if (s !== undefined && op.rhs === 'regex') {
      const problem = regexSyntaxProblem(s);
      if (problem) ctx.out.push(rdiag('rule-regex', `invalid regular expression: ${problem}`, lit.start, lit.end, { message: `regex parse error: ${problem}` }));
    }
    if (s !== undefined && op.rhs === 'wildcard') {
      const w = checkWildcard(s);
      if (w) ctx.out.push(rdiag('rule-wildcard', w, lit.start, lit.end, { message: w }));
    }
    return;
  }
  checkScalarLiteral(lit, T, ctx, false);
}

function quoteFix(lit: RuleLiteral): Partial<RuleDiagnostic> {
  return { fixes: [{ title: 'Quote the string', edits: [{ start: lit.start, end: lit.end, newText: JSON.stringify(lit.image) }] }] };
}

function checkListItem(lit: RuleLiteral, T: ScalarType, ctx: Ctx): void {
  checkScalarLiteral(lit, T, ctx, true);
}

function checkScalarLiteral(lit: RuleLiteral, T: ScalarType, ctx: Ctx, inList: boolean): void {
  if (lit.form === 'single') return singleQuoted(lit, ctx, T === 'Bytes' ? 'invalid digit found in string while parsing with radix 16' : T === 'Int' ? 'expected digit' : 'invalid IP address syntax');
  if (T === 'Bytes') {
    if (lit.form !== 'bare') {
      readString(lit, ctx);
      return;
    }
    const r = readHexBytes(lit.image);
    if (r.ok) return;
    if (RULE_FIELD_BY_NAME.has(lit.image)) {
      ctx.out.push(rdiag('rule-field-value', `the value must be a literal: ${lit.image} is a field (fields cannot be compared with fields)`, lit.start, lit.end, { message: r.problem.api, start: lit.start + r.problem.offset, end: lit.start + r.problem.offset + Math.max(1, r.problem.length) }));
      return;
    }
    ctx.out.push(
      rdiag('rule-value', `unquoted string ${lit.image}: strings are quoted ("…")`, lit.start, lit.end, { message: r.problem.api, start: lit.start + r.problem.offset, end: lit.start + r.problem.offset + Math.max(1, r.problem.length) }, quoteFix(lit)),
    );
    return;
  }
  if (lit.form !== 'bare') {
    ctx.out.push(
      rdiag('rule-value', `${docTypeName(T)} values are not quoted`, lit.start, lit.end, { message: T === 'Int' ? 'expected digit' : 'expected IP address character', start: lit.start, end: lit.start + 1 }, {
        fixes: /^"[^"\\]+"$/.test(lit.image) ? [{ title: 'Remove the quotes', edits: [{ start: lit.start, end: lit.end, newText: lit.image.slice(1, -1) }] }] : [],
      }),
    );
    return;
  }
  const w = lit.image;
  if (RULE_FIELD_BY_NAME.has(w)) {
    ctx.out.push(rdiag('rule-field-value', `the value must be a literal: ${w} is a field (fields cannot be compared with fields)`, lit.start, lit.end, { message: T === 'Int' ? 'expected digit' : 'invalid IP address syntax' }));
    return;
  }
  if (T === 'Int') {
    if (w.includes('..')) {
      if (!inList) return void ctx.out.push(rdiag('rule-value', 'a range a..b is only allowed in a list: in {a..b}', lit.start, lit.end, { message: 'invalid digit found in string while parsing with radix 10' }));
      return problem(readIntRange(w), lit, ctx, 'rule-value');
    }
    return problem(readInt(w), lit, ctx, 'rule-value');
  }
  // Ip
  if (w.includes('..')) {
    if (!inList) return void ctx.out.push(rdiag('rule-value', 'an IP range is only allowed in a list: in {a..b}', lit.start, lit.end, { message: 'invalid IP address syntax' }));
    return problem(readIpRange(w), lit, ctx, 'rule-value');
  }
  if (w.includes('/')) {
    if (!inList) {
      return void ctx.out.push(
        rdiag('rule-value', `a network ${w} is only allowed in a list: in {${w}}`, lit.start, lit.end, { message: 'invalid IP address syntax' }),
      );
    }
    return problem(readCidr(w), lit, ctx, 'rule-value');
  }
  problem(readIp(w), lit, ctx, 'rule-value');
}

const ALL_NAMES = [...RULE_FIELDS.map((f) => f.name), ...RULE_FUNCTIONS.map((f) => f.name)];

function unknownIdentifier(name: string, start: number, end: number, ctx: Ctx): void {
  if (!IDENT.test(name)) {
    ctx.out.push(rdiag('rule-syntax', `expected a field or function name, found ${JSON.stringify(name)}`, start, end, { message: 'expected identifier character', start, end: start + 1 }));
    return;
  }
  const suggestions = name === 'false' ? ['not true'] : closest(name, ALL_NAMES);
  const fixes = suggestions.length && name !== 'false' ? [{ title: `Change to ${suggestions[0]}`, edits: [{ start, end, newText: suggestions[0] }], preferred: true }] : [];
  ctx.out.push(
    rdiag('rule-unknown-identifier', `unknown field or function ${name}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, start, end, { message: 'unknown identifier' }, { suggestions, fixes }),
  );
}

function unavailable(name: string, item: { phases?: readonly string[]; layers?: readonly ('http' | 'network')[] }, start: number, end: number, ctx: Ctx): boolean {
  if (availableIn(item, ctx.phase)) return false;
  ctx.out.push(rdiag('rule-unavailable-in-phase', `${name} is not available in phase ${ctx.phase} (only in ${availabilityText(item)})`, start, end, { message: 'unknown identifier' }));
  return true;
}

function checkIndexExpr(x: RuleIndexExpr, ctx: Ctx): Ty | undefined {
  let ty: Ty | undefined;
  const base = x.base;
  if (base.kind === 'ident') {
    const field = RULE_FIELD_BY_NAME.get(base.name);
    if (!field) {
      if (RULE_FUNCTION_BY_NAME.has(base.name)) {
        const at = nextNonSpace(ctx.text, base.end);
        ctx.out.push(rdiag('rule-identifier-kind', `${base.name} is a function: call it ${base.name}(…)`, base.start, base.end, { message: 'expected literal "("', start: at, end: at + 1 }));
      } else unknownIdentifier(base.name, base.start, base.end, ctx);
      return undefined;
    }
    unavailable(field.name, field, base.start, base.end, ctx);
    if (field.replacedBy) {
      ctx.out.push(
        rdiag('rule-deprecated-field', `${field.name} is deprecated: use ${field.replacedBy}`, base.start, base.end, undefined, {
          suggestions: [field.replacedBy],
          fixes: [{ title: `Change to ${field.replacedBy}`, edits: [{ start: base.start, end: base.end, newText: field.replacedBy }], preferred: true }],
        }),
      );
    }
    ty = { t: field.type };
  } else {
    ty = checkCall(base, ctx);
  }
  let prevEnd = base.end;
  for (const idx of x.indexes) {
    if (idx.start !== prevEnd) {
      ctx.out.push(
        rdiag('rule-index', 'no space is allowed before [', prevEnd, idx.start, { message: 'unrecognised input', start: prevEnd, end: lineEnd(ctx.text, prevEnd) }, {
          fixes: [{ title: 'Remove the space', edits: [{ start: prevEnd, end: idx.start, newText: '' }], preferred: true }],
        }),
      );
    }
    prevEnd = idx.end;
    if (!ty) continue;
    const t: RuleType = ty.t;
    const arrayT = !isScalar(t) && 'array' in t ? t.array : undefined;
    const mapT = !isScalar(t) && 'map' in t ? t.map : undefined;
    if (idx.each) {
      if (arrayT === undefined && mapT === undefined) {
        ctx.out.push(rdiag('rule-index', `[*] needs an array or a map; this is ${docTypeName(t)}`, idx.start, idx.end, { message: `cannot access index MapEach for type ${typeName(t)}` }));
        ty = undefined;
      } else ty = { t: (arrayT ?? mapT)!, each: true };
      continue;
    }
    const lit = idx.literal;
    if (!lit) continue;
    if (lit.form === 'raw' || lit.form === 'single') {
      ctx.out.push(
        rdiag('rule-index', 'a map key is a double-quoted string', lit.start, lit.end, { message: 'expected literal "expected quoted utf8 string or positive integer"', start: lit.start, end: lineEnd(ctx.text, lit.start) }, lit.form === 'single'
          ? { fixes: [{ title: 'Use double quotes', edits: [{ start: lit.start, end: lit.end, newText: JSON.stringify(lit.image.replace(/^'|'$/g, '')) }], preferred: true }] }
          : {}),
      );
      ty = mapT !== undefined ? { t: mapT, ...(ty.each ? { each: true } : {}) } : undefined;
      continue;
    }
    if (lit.form === 'bare') {
      const n = readInt(lit.image);
      if (!n.ok || n.value < 0n || n.value > 0xffffffffn) {
        ctx.out.push(rdiag('rule-index', 'an array index is a non-negative integer', lit.start, lit.end, { message: 'expected literal "expected positive integer as index"' }));
        ty = undefined;
        continue;
      }
      if (arrayT === undefined) {
        ctx.out.push(rdiag('rule-index', `[${lit.image}] indexes arrays; this is ${docTypeName(t)}`, idx.start, idx.end, { message: `cannot access index ArrayIndex(${n.value}) for type ${typeName(t)}` }));
        ty = undefined;
        continue;
      }
      ty = { t: arrayT, ...(ty.each ? { each: true } : {}) };
      continue;
    }
    const key = readString(lit, ctx);
    if (key === undefined) {
      ty = undefined;
      continue;
    }
    if (mapT === undefined) {
      ctx.out.push(rdiag('rule-index', `["…"] indexes maps; this is ${docTypeName(t)}`, idx.start, idx.end, { message: `cannot access index MapKey(${JSON.stringify(key)}) for type ${typeName(t)}` }));
      ty = undefined;
      continue;
    }
    ty = { t: mapT, ...(ty.each ? { each: true } : {}) };
  }
  return ty;
}

function paramTypeName(p: ParamType): string {
  return typeof p === 'string' && (p === 'Array<_>' || p === 'Map<_>') ? p : typeName(p as RuleType);
}

function expectedNames(types: readonly ParamType[]): string {
  const names = types.map(paramTypeName);
  return names.length === 1 ? names[0] : names.length === 2 ? `${names[0]} or ${names[1]}` : `{${names.join(', ')}}`;
}

function fits(t: RuleType, p: ParamType): boolean {
  if (p === 'Array<_>') return !isScalar(t) && 'array' in t;
  if (p === 'Map<_>') return !isScalar(t) && 'map' in t;
  return typesEqual(t, p as RuleType);
}

const REPLACE_FUNCTIONS = new Set(['regex_replace', 'wildcard_replace']);

function checkCall(call: RuleCall, ctx: Ctx): Ty | undefined {
  const fn = RULE_FUNCTION_BY_NAME.get(call.name);
  if (!fn) {
    if (RULE_FIELD_BY_NAME.has(call.name)) {
      ctx.out.push(rdiag('rule-identifier-kind', `${call.name} is a field, not a function`, call.nameStart, call.nameEnd, { message: 'unrecognised input', start: call.nameEnd, end: lineEnd(ctx.text, call.nameEnd) }));
    } else unknownIdentifier(call.name, call.nameStart, call.nameEnd, ctx);
    for (const a of call.args) checkExpr(a, ctx, true);
    return undefined;
  }
  unavailable(fn.name, fn, call.nameStart, call.nameEnd, ctx);
  if (fn.valueOnly && ctx.kind === 'filter') {
    ctx.out.push(rdiag('rule-value-only-function', `${fn.name} only works in value (rewrite) expressions, not in filter expressions`, call.nameStart, call.nameEnd, { message: 'unknown identifier' }));
  }
  if (REPLACE_FUNCTIONS.has(fn.name)) {
    const n = (ctx.replaceCalls.get(fn.name) ?? 0) + 1;
    ctx.replaceCalls.set(fn.name, n);
    if (n > 1) ctx.out.push(rdiag('rule-once-per-expression', `${fn.name} can be used once per expression`, call.nameStart, call.nameEnd, { message: `invalid use of function ${fn.name}` }));
    else if (ctx.insideReplace > 0) ctx.out.push(rdiag('rule-once-per-expression', `${fn.name} cannot be nested in regex_replace or wildcard_replace`, call.nameStart, call.nameEnd, { message: `invalid use of function ${fn.name}` }));
  }
  const replace = REPLACE_FUNCTIONS.has(fn.name);
  if (replace) ctx.insideReplace++;
  const results = call.args.map((a) => checkExpr(a, ctx, true));
  if (replace) ctx.insideReplace--;
  return checkArguments(call, fn, results, ctx);
}

function checkArguments(call: RuleCall, fn: RuleFunction, results: (Ty | undefined)[], ctx: Ctx): Ty | undefined {
  const params = fn.params;
  const last = params[params.length - 1];
  const min = params.filter((p) => !p.optional).length;
  const max = last?.repeat ? Infinity : params.length;
  const n = call.args.length;
  let ok = true;
  if (n < min || n > max) {
    ok = false;
    const range = max === Infinity ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
    ctx.out.push(rdiag('rule-arguments', `${fn.name} takes ${range} argument${min === 1 && max === 1 ? '' : 's'}, got ${n}`, call.start, call.end, { message: 'invalid number of arguments' }));
  }
  let first: RuleType | undefined;
  // `has_value(collection, value)`: the value has the type of the collection's elements (read a bare word so)
  const t0 = results[0] && !results[0].each ? results[0].t : undefined;
  const argValues: (string | bigint | undefined)[] = [];
  const element = fn.elementOfFirst !== undefined && t0 && !isScalar(t0) ? ('array' in t0 ? t0.array : t0.map) : undefined;
  call.args.forEach((arg, i) => {
    const p = i < params.length ? params[i] : last?.repeat ? last : undefined;
    const r = results[i];
    if (!p || !r) return;
    const isLiteral = r.literal === true;
    if (p.kind === 'field' && isLiteral) {
      ok = false;
      ctx.out.push(rdiag('rule-argument-kind', `argument ${i + 1} (${p.name}) of ${fn.name} cannot be a literal: pass a field or a function call`, arg.start, arg.end, { message: `invalid kind of argument #${i}: expected argument of kind Field, but got Literal` }));
      return;
    }
    if (p.kind === 'literal' && !isLiteral) {
      ok = false;
      ctx.out.push(rdiag('rule-argument-kind', `argument ${i + 1} (${p.name}) of ${fn.name} must be a literal`, arg.start, arg.end, { message: `invalid kind of argument #${i}: expected argument of kind Literal, but got Field` }));
      return;
    }
    let t: RuleType = r.t;
    let value = r.value;
    if (r.bare) {
      // an unquoted word has the type of its own form (integer, IP, hex bytes) when that fits the parameter;
      // else the first reading the parameter allows
      const word = r.bare.image;
      const readAs = (st: ScalarType) => (st === 'Int' ? readInt(word) : st === 'Ip' ? readIp(word) : st === 'Bytes' ? readHexBytes(word) : undefined);
      const intrinsic = (['Int', 'Ip', 'Bytes'] as const).find((st) => readAs(st)?.ok);
      const allowed = p.types.filter((x): x is ScalarType => x === 'Bytes' || x === 'Int' || x === 'Ip');
      const preferred = i === fn.elementOfFirst && element && isScalar(element) && readAs(element)?.ok ? element : undefined;
      const chosen = preferred ?? (intrinsic && p.types.some((pt) => fits(intrinsic, pt)) ? intrinsic : (allowed.find((st) => readAs(st)?.ok) ?? intrinsic));
      if (!chosen) {
        ok = false;
        const first = readAs(allowed[0] ?? 'Bytes');
        if (first) problem(first, r.bare, ctx, 'rule-value');
        return;
      }
      t = chosen;
      const read = readAs(chosen);
      value = read?.ok && typeof read.value === 'bigint' ? read.value : undefined;
    }
    if (i > 0 && r.each) {
      ok = false;
      ctx.out.push(rdiag('rule-map-each', '[*] is only allowed in the first argument of a function', arg.start, arg.end, { message: 'invalid use of map each access operator' }));
      return;
    }
    if (!p.types.some((pt) => fits(t, pt))) {
      ok = false;
      ctx.out.push(
        rdiag('rule-argument-type', `argument ${i + 1} (${p.name}) of ${fn.name} must be ${p.types.map((x) => (typeof x === 'string' && x.endsWith('<_>') ? x : docTypeName(x as RuleType))).join(' or ')}, but it is ${docTypeName(t)}`, arg.start, arg.end, {
          message: `invalid type of argument #${i}: expected value of type ${expectedNames(p.types)}, but got ${typeName(t)}`,
        }),
      );
      return;
    }
    argValues[i] = isLiteral ? value : undefined;
    // (a collection of arrays, such as a header map, is left alone: the documentation's T is a primitive there)
    if (i === fn.elementOfFirst && element && isScalar(element) && !typesEqual(element, t)) {
      ok = false;
      ctx.out.push(
        rdiag('rule-argument-type', `argument ${i + 1} (${p.name}) of ${fn.name} must be ${docTypeName(element)}, the type of the elements of argument 1`, arg.start, arg.end, {
          message: `invalid type of argument #${i}: expected value of type ${typeName(element)}, but got ${typeName(t)}`,
        }),
      );
      return;
    }
    if (fn.returns === 'first-argument') {
      if (i === 0) first = t;
      else if (first && !typesEqual(first, t)) {
        ok = false;
        ctx.out.push(rdiag('rule-argument-type', `the arguments of ${fn.name} must all be ${docTypeName(first)}`, arg.start, arg.end, { message: `invalid type of argument #${i}: expected value of type ${typeName(first)}, but got ${typeName(t)}` }));
      }
    }
    for (const rule of fn.literalRule ?? []) {
      if (rule.param !== i || !isLiteral || value === undefined) continue;
      const bad = rule.check(value);
      if (bad) {
        ok = false;
        ctx.out.push(rdiag('rule-argument-value', `argument ${i + 1} (${p.name}) of ${fn.name}: ${bad}`, arg.start, arg.end, { message: `invalid value of argument #${i}: invalid argument: "${bad}"` }));
      }
    }
  });
  // bit_slice reads at most 32 bits: offset_end - offset_start over 32 is too wide however the end is counted
  const [, from, to] = argValues;
  if (fn.name === 'bit_slice' && typeof from === 'bigint' && typeof to === 'bigint' && to - from > 32n) {
    ok = false;
    const at = call.args[2]!;
    ctx.out.push(rdiag('rule-argument-value', 'bit_slice reads at most 32 bits: offset_end - offset_start is over 32', at.start, at.end, { message: 'invalid value of argument #2: invalid argument: "slice longer than 32 bits"' }));
  }
  if (fn.name === 'remove_query_args' && call.args[0]?.kind === 'comparison') {
    const a = call.args[0];
    const name = a.lhs.base.kind === 'ident' && a.lhs.indexes.length === 0 ? a.lhs.base.name : '';
    if (name && name !== 'http.request.uri.query' && name !== 'raw.http.request.uri.query') {
      ctx.out.push(rdiag('rule-argument-value', 'remove_query_args works on http.request.uri.query or raw.http.request.uri.query', a.start, a.end, { message: 'invalid value of argument #0: invalid argument: "field"' }));
    }
  }
  if (!ok && fn.returns === 'first-argument') return undefined;
  // an argument that did not type-check was reported: the call's type is unknown (one error per cause)
  if (results.some((r) => r === undefined)) return undefined;
  const ret: RuleType | undefined = fn.returns === 'first-argument' ? first : fn.returns;
  if (ret === undefined) return undefined;
  return { t: results[0]?.each ? arrayOf(ret) : ret };
}

/**
 * The type of a value expression (a field or call, maybe indexed) as the checker sees it, for completion:
 * `each` when a `[*]` maps over it. Undefined when it does not type-check.
 */
export function typeOfValueExpression(text: string): { type: RuleType; each: boolean } | undefined {
  const parse = parseRule(text, 'value');
  if (!parse.value || hasErrors(parse.diagnostics)) return undefined;
  const ctx: Ctx = { text, kind: 'value', out: [], partial: false, replaceCalls: new Map(), insideReplace: 0 };
  const ty = checkIndexExpr(parse.value, ctx);
  return ty ? { type: ty.t, each: ty.each === true } : undefined;
}

/**
 * `ssl == true` → `ssl`, `ssl != true` / `ssl eq false` → `not ssl`: the comparison of a Boolean with a
 * literal `true`/`false` rewritten as the language wants it. Other right-hand sides get no fix.
 */
function booleanFix(c: RuleComparison, text: string): { fixes: { title: string; edits: { start: number; end: number; newText: string }[]; preferred: boolean }[] } | undefined {
  const rhs = c.rhs && c.rhs.kind === 'literal' ? text.slice(c.rhs.start, c.rhs.end) : undefined;
  const op = c.op ? COMPARISON_BY_SPELLING.get(c.op.image)?.word : undefined;
  if (!c.rhs || (rhs !== 'true' && rhs !== 'false') || (op !== 'eq' && op !== 'ne')) return undefined;
  const lhs = text.slice(c.lhs.start, c.lhs.end);
  const negate = (op === 'eq') !== (rhs === 'true');
  const newText = negate ? `not ${lhs}` : lhs;
  return { fixes: [{ title: `Write ${newText}`, edits: [{ start: c.lhs.start, end: c.rhs.end, newText }], preferred: true }] };
}
