/**
 * evaluateRule(): an expression against one sample request, offline and pure (no I/O). The expression is
 * checked first (a rule that does not check is not evaluated); then every sub-expression is computed with the
 * language's semantics: comparisons on bytes (case-sensitive, byte order), integers, IP addresses (v4 and v6
 * never equal, never ordered), `in` over inline lists (values, ranges, CIDRs) and named lists (given by the
 * caller), `matches` with RE2 semantics, wildcards on the whole value, `[*]` over arrays and map values,
 * `any`/`all`, and the functions of functions.ts. A comparison with a missing value is false. `explain` lists
 * each sub-expression with its value, innermost first, for `rules eval --explain`.
 */
import type { RuleComparison, RuleExpr, RuleIndexExpr, RuleLiteral, RuleRhs } from '../ast.js';
import { checkRule } from '../check.js';
import { RULE_FIELD_BY_NAME } from '../fields.js';
import { compareIp, type IpValue, readCidr, readHexBytes, readInt, readIntRange, readIp, readIpRange, readQuotedRegex, readRaw } from '../literals.js';
import { COMPARISON_BY_SPELLING } from '../operators.js';
import type { RuleDiagnostic, RuleKind } from '../parse.js';
import { EVAL_FUNCTIONS, EvalProblem, same } from './functions.js';
import { compileRegex } from './regex.js';
import { bytes, type Bytes, defaultValue, isBytes, isIp, type RuleValue, show, text, utf8 } from './values.js';
import { wildcardMatches } from './wildcard.js';
import { expectText, kindOf, optionsOf } from '../../lang/guards.js';

export interface RuleEvalOptions {
  kind?: RuleKind;
  phase?: string;
  /** Named lists (`$name`): their items as literals are written in a list (`"a"`, `10`, `192.0.2.0/24`). */
  lists?: Record<string, readonly (string | number)[]>;
}

export interface ExplainStep {
  start: number;
  end: number;
  text: string;
  value: string;
}

export type RuleEvalResult =
  | { ok: true; matched: boolean; value: RuleValue; explain: ExplainStep[] }
  | { ok: false; diagnostics: RuleDiagnostic[]; problem?: { message: string; start: number; end: number } };

interface Ctx {
  source: string;
  fields: Map<string, RuleValue>;
  lists: Record<string, readonly (string | number)[]>;
  explain: ExplainStep[];
}

/** A value that may be "each" (the result of a `[*]`): one value per element. */
type Each = { each: RuleValue[] };
type Val = RuleValue | Each;
const isEach = (v: Val): v is Each => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && 'each' in v;

class Located extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

export function evaluateRule(source: string, fields: Map<string, RuleValue>, options?: RuleEvalOptions): RuleEvalResult {
  expectText(source, 'evaluateRule', 'a rule expression');
  if (!(fields instanceof Map)) throw new TypeError(`evaluateRule takes the request's fields as a Map (readSampleRequest(request).fields); got ${kindOf(fields)}`);
  options = optionsOf(options, 'evaluateRule') as RuleEvalOptions;
  const kind = options.kind ?? 'filter';
  const checked = checkRule(source, { kind, ...(options.phase ? { phase: options.phase } : {}) });
  if (!checked.ok) return { ok: false, diagnostics: checked.diagnostics };
  const ctx: Ctx = { source, fields, lists: options.lists ?? {}, explain: [] };
  try {
    const value = kind === 'filter' ? plain(evalExpr(checked.parse.expr!, ctx), checked.parse.expr!) : plain(evalIndex(checked.parse.value!, ctx), checked.parse.value!);
    return { ok: true, matched: value === true, value, explain: ctx.explain };
  } catch (e) {
    if (e instanceof Located) return { ok: false, diagnostics: [], problem: { message: e.message, start: e.start, end: e.end } };
    throw e;
  }
}

function plain(v: Val, at: { start: number; end: number }): RuleValue {
  return isEach(v) ? v.each : v;
}

function note(ctx: Ctx, node: { start: number; end: number }, v: Val): Val {
  ctx.explain.push({ start: node.start, end: node.end, text: ctx.source.slice(node.start, node.end), value: show(isEach(v) ? v.each : v) });
  return v;
}

const truthy = (v: RuleValue) => v === true;

function evalExpr(e: RuleExpr, ctx: Ctx): Val {
  switch (e.kind) {
    case 'group':
      return note(ctx, e, evalExpr(e.inner, ctx));
    case 'not': {
      const v = evalExpr(e.operand, ctx);
      return note(ctx, e, isEach(v) ? { each: v.each.map((x) => !truthy(x)) } : Array.isArray(v) ? v.map((x) => !truthy(x)) : !truthy(v));
    }
    case 'logical': {
      const vs = e.operands.map((o) => evalExpr(o, ctx));
      const combine = (xs: boolean[]) => (e.op === 'and' ? xs.every(Boolean) : e.op === 'or' ? xs.some(Boolean) : xs.filter(Boolean).length % 2 === 1);
      const arrays = vs.map((v) => (isEach(v) ? v.each : Array.isArray(v) ? v : undefined));
      if (arrays.every((a) => a !== undefined)) {
        const n = Math.min(...arrays.map((a) => a!.length));
        return note(ctx, e, Array.from({ length: n }, (_, i) => combine(arrays.map((a) => truthy(a![i])))));
      }
      return note(ctx, e, combine(vs.map((v) => truthy(v as RuleValue))));
    }
    case 'quantifier': {
      const v = evalExpr(e.arg, ctx);
      // a missing array (an absent map key, say) gives false for both; an empty one gives all() true
      const items = isEach(v) ? v.each : Array.isArray(v) ? v : undefined;
      return note(ctx, e, items !== undefined && (e.name.image === 'any' ? items.some(truthy) : items.every(truthy)));
    }
    case 'literal':
      return literalBytes(e.literal);
    case 'comparison':
      return evalComparison(e, ctx);
  }
}

function evalComparison(c: RuleComparison, ctx: Ctx): Val {
  if (!c.op) {
    const base = c.lhs.base;
    // an unquoted argument (integer, IP, hex bytes)
    if (c.lhs.indexes.length === 0 && base.kind === 'ident' && !RULE_FIELD_BY_NAME.has(base.name)) return bareValue(base.name);
    return evalIndex(c.lhs, ctx);
  }
  const lhs = evalIndex(c.lhs, ctx);
  const op = COMPARISON_BY_SPELLING.get(c.op.image)!;
  const rhs = c.rhs!;
  const test = (v: RuleValue) => compare(v, op.word, rhs, ctx);
  return note(ctx, c, isEach(lhs) ? lhs.each.map(test) : test(lhs));
}

function evalIndex(x: RuleIndexExpr, ctx: Ctx): Val {
  let v: Val;
  if (x.base.kind === 'ident') {
    const field = RULE_FIELD_BY_NAME.get(x.base.name)!;
    // `true` is the expression that matches everything, not a request field
    v = field.name === 'true' ? true : ctx.fields.has(field.name) ? ctx.fields.get(field.name) : defaultValue(field.type);
  } else {
    const call = x.base;
    const fn = EVAL_FUNCTIONS[call.name];
    if (!fn) throw new Located(`${call.name}() cannot be evaluated`, call.nameStart, call.nameEnd);
    const args = call.args.map((a) => evalExpr(a, ctx));
    try {
      const first = args[0];
      if (first !== undefined && isEach(first)) {
        const rest = args.slice(1).map((a) => plain(a, call));
        v = first.each.map((item) => fn([item, ...rest]));
      } else v = fn(args.map((a) => plain(a, call)));
    } catch (e) {
      if (e instanceof EvalProblem) throw new Located(e.message, call.start, call.end);
      throw e;
    }
    note(ctx, call, v);
  }
  if (x.indexes.length === 0) return v;
  for (const idx of x.indexes) {
    const step = (item: RuleValue): Val => {
      // [*] over a missing value is missing (not an empty array): all(…) over it is false
      if (idx.each) return item === undefined ? undefined : { each: Array.isArray(item) ? item : item instanceof Map ? [...item.values()] : [] };
      const lit = idx.literal!;
      if (lit.form === 'bare') return Array.isArray(item) ? item[Number(readInt(lit.image).ok ? (readInt(lit.image) as { value: bigint }).value : -1n)] : undefined;
      const key = literalBytes(lit).b;
      return item instanceof Map ? item.get(key) : undefined;
    };
    if (isEach(v)) {
      const out: RuleValue[] = [];
      for (const item of v.each) {
        const r = step(item);
        if (r === undefined && idx.each) continue;
        if (isEach(r)) out.push(...r.each);
        else out.push(r);
      }
      v = { each: out };
    } else v = step(v);
  }
  return note(ctx, x, v);
}

function bareValue(word: string): RuleValue {
  const i = readInt(word);
  if (i.ok) return i.value;
  const ip = readIp(word);
  if (ip.ok) return ip.value;
  const h = readHexBytes(word);
  return h.ok ? bytes(h.value) : undefined;
}

/** A quoted or raw string literal as bytes: `\xHH` and `\OOO` are single bytes, the rest UTF-8. */
export function literalBytes(lit: RuleLiteral): Bytes {
  if (lit.form === 'raw') {
    const r = readRaw(lit.image);
    return utf8(r.ok ? r.value : '');
  }
  if (lit.form === 'bare') {
    const h = readHexBytes(lit.image);
    return bytes(h.ok ? h.value : '');
  }
  const body = lit.image.slice(1, -1);
  let out = '';
  let run = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      run += c;
      continue;
    }
    out += utf8(run).b;
    run = '';
    const n = body[i + 1];
    if (n === 'x') {
      out += String.fromCharCode(parseInt(body.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (n !== undefined && /[0-7]/.test(n)) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      out += n ?? '';
      i += 1;
    }
  }
  return bytes(out + utf8(run).b);
}

function regexSource(lit: RuleLiteral): string {
  if (lit.form === 'raw') {
    const r = readRaw(lit.image);
    return r.ok ? r.value : '';
  }
  const r = readQuotedRegex(lit.image);
  return r.ok ? r.value : '';
}

function compareOrdered(a: RuleValue, b: RuleValue): number | undefined {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (isBytes(a) && isBytes(b)) return a.b < b.b ? -1 : a.b > b.b ? 1 : 0;
  if (isIp(a) && isIp(b)) return a.v6 === b.v6 ? compareIp(a, b) : undefined;
  return undefined;
}

function scalarLiteral(lit: RuleLiteral, like: RuleValue): RuleValue {
  if (lit.form !== 'bare') return literalBytes(lit);
  if (typeof like === 'bigint') {
    const r = readInt(lit.image);
    return r.ok ? r.value : undefined;
  }
  if (isIp(like)) {
    const r = readIp(lit.image);
    return r.ok ? r.value : undefined;
  }
  return literalBytes(lit);
}

function inList(v: RuleValue, items: readonly RuleLiteral[]): boolean {
  for (const lit of items) {
    if (typeof v === 'bigint' && lit.form === 'bare' && lit.image.includes('..')) {
      const r = readIntRange(lit.image);
      if (r.ok && v >= r.value[0] && v <= r.value[1]) return true;
      continue;
    }
    if (isIp(v) && lit.form === 'bare' && lit.image.includes('..')) {
      const r = readIpRange(lit.image);
      if (r.ok && r.value[0].v6 === v.v6 && compareIp(r.value[0], v) <= 0 && compareIp(v, r.value[1]) <= 0) return true;
      continue;
    }
    if (isIp(v) && lit.form === 'bare' && lit.image.includes('/')) {
      const r = readCidr(lit.image);
      if (r.ok && inNetwork(v, r.value.ip, r.value.bits)) return true;
      continue;
    }
    if (same(v, scalarLiteral(lit, v))) return true;
  }
  return false;
}

function inNetwork(v: IpValue, net: IpValue, bits: number): boolean {
  if (v.v6 !== net.v6) return false;
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((v.bytes[byte]! & mask) !== (net.bytes[byte]! & mask)) return false;
  }
  return true;
}

/** A named list's item for an integer or IP value: written as in an inline list (`10`, `1..10`, `192.0.2.0/24`). */
function listLiteral(item: string | number): RuleLiteral {
  return { form: 'bare', image: String(item), start: 0, end: 0 };
}

/** Whether a value is in a named list; its items are read by the value's type (a string item is a string). */
function inNamedList(v: RuleValue, list: readonly (string | number)[]): boolean {
  if (isBytes(v)) return list.some((item) => typeof item === 'string' && utf8(item).b === v.b);
  return inList(v, list.map(listLiteral));
}

function compare(v: RuleValue, op: string, rhs: RuleRhs, ctx: Ctx): boolean {
  // own lists only: `$constructor` and `$__proto__` are list names, not the object's inherited members
  const list = rhs.kind === 'named-list' && Object.hasOwn(ctx.lists, rhs.name) ? ctx.lists[rhs.name] : undefined;
  if (rhs.kind === 'named-list' && !list) throw new Located(`the named list $${rhs.name} was not given (rules eval --lists FILE)`, rhs.start, rhs.end);
  if (v === undefined) return false;
  if (op === 'in') {
    if (rhs.kind === 'list') return inList(v, rhs.items);
    if (list) return inNamedList(v, list);
    return false;
  }
  if (rhs.kind !== 'literal') return false;
  const lit = rhs.literal;
  if (op === 'matches') {
    if (!isBytes(v)) return false;
    const c = compileRegex(regexSource(lit));
    if (!c.ok) throw new Located(c.message, lit.start, lit.end);
    return c.re.matcher(text(v)).find();
  }
  if (op === 'wildcard' || op === 'strict wildcard') {
    if (!isBytes(v)) return false;
    return wildcardMatches(v.b, literalBytes(lit).b, op === 'wildcard');
  }
  if (op === 'contains') return isBytes(v) && v.b.includes(literalBytes(lit).b);
  const r = scalarLiteral(lit, v);
  if (op === 'bitwise_and') return typeof v === 'bigint' && typeof r === 'bigint' && (v & r) !== 0n;
  if (op === 'eq') return same(v, r);
  if (op === 'ne') return !same(v, r) && (compareOrdered(v, r) !== undefined || isIp(v));
  const order = compareOrdered(v, r);
  if (order === undefined) return false;
  return op === 'lt' ? order < 0 : op === 'le' ? order <= 0 : op === 'gt' ? order > 0 : order >= 0;
}
