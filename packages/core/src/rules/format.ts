/**
 * formatRule(): the canonical spelling of an expression. Choices (docs/rules-language.md): English operator
 * words (`eq`, `and`, `not`, …), one space around operators, none inside parentheses, brackets or after a
 * function name, `{a b c}` lists with single spaces, `f(a, b)` arguments, literals exactly as written.
 * An expression longer than the line width is broken before each logical operator of its outermost chain
 * (and of parenthesised chains that are still too long, indented by two spaces). Only spaces and line
 * breaks are written (the language does not allow tabs). Texts with syntax errors are left unchanged.
 */
import type { RuleExpr, RuleIndexExpr, RuleLiteral, RuleRhs } from './ast.js';
import { type RuleDiagnostic, type RuleKind, parseRule } from './parse.js';
import { COMPARISON_BY_SPELLING, LOGICAL_BY_SPELLING } from './operators.js';
import { hasErrors } from '../lang/diagnostics.js';
import { expectText, optionsOf } from '../lang/guards.js';

export const RULE_LINE_WIDTH = 100;

export interface RuleFormatResult {
  ok: boolean;
  /** The formatted text (the input when not ok). */
  text: string;
  changed: boolean;
  diagnostics: RuleDiagnostic[];
}

export interface RuleFormatOptions {
  kind?: RuleKind;
  lineWidth?: number;
}

export function formatRule(text: string, options?: RuleFormatOptions): RuleFormatResult {
  expectText(text, 'formatRule', 'a rule expression');
  options = optionsOf(options, 'formatRule') as RuleFormatOptions;
  const kind = options.kind ?? 'filter';
  const parsed = parseRule(text, kind);
  // tabs between tokens are the one error the formatter repairs: it writes spaces anyway
  const blocking = parsed.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'rule-space');
  const incomplete = parsed.expr ? hasIncomplete(parsed.expr) : parsed.value ? false : true;
  if (hasErrors(blocking) || incomplete) return { ok: false, text, changed: false, diagnostics: parsed.diagnostics };
  const width = options.lineWidth ?? RULE_LINE_WIDTH;
  const body = parsed.expr ? printExpr(parsed.expr, '', width) : printIndexExpr(parsed.value!);
  const out = body + (/\n$/.test(text) ? '\n' : '');
  return { ok: true, text: out, changed: out !== text, diagnostics: parsed.diagnostics };
}

/** A comparison with an operator but no value, or an unclosed list: nothing sensible to print. */
function hasIncomplete(e: RuleExpr | undefined): boolean {
  if (!e) return true;
  switch (e.kind) {
    case 'logical':
      return e.operands.some(hasIncomplete);
    case 'not':
      return hasIncomplete(e.operand);
    case 'group':
      return hasIncomplete(e.inner);
    case 'quantifier':
      return hasIncomplete(e.arg);
    case 'literal':
      return false;
    case 'comparison':
      return (e.op !== undefined && e.rhs === undefined) || (e.rhs?.kind === 'list' && (!e.rhs.closed || e.rhs.commas.length > 0)) || indexIncomplete(e.lhs);
  }
}

function indexIncomplete(x: RuleIndexExpr): boolean {
  return x.base.kind === 'call' && x.base.args.some(hasIncomplete);
}

/** The expression on one line. */
export function flatRule(e: RuleExpr): string {
  switch (e.kind) {
    case 'logical':
      return e.operands.map(flatRule).join(` ${e.op} `);
    case 'not':
      return `not ${flatRule(e.operand)}`;
    case 'group':
      return `(${flatRule(e.inner)})`;
    case 'quantifier':
      return `${e.name.image}(${flatRule(e.arg)})`;
    case 'literal':
      return e.literal.image;
    case 'comparison': {
      const lhs = printIndexExpr(e.lhs);
      if (!e.op) return lhs;
      const op = COMPARISON_BY_SPELLING.get(e.op.image)?.word ?? e.op.image;
      return e.rhs ? `${lhs} ${op} ${printRhs(e.rhs)}` : `${lhs} ${op}`;
    }
  }
}

function printExpr(e: RuleExpr, indent: string, width: number): string {
  const flat = flatRule(e);
  if (indent.length + flat.length <= width && !flat.includes('\n')) return flat;
  if (e.kind === 'logical') return e.operands.map((o, i) => (i === 0 ? '' : `\n${indent}${e.op} `) + printExpr(o, indent, width)).join('');
  if (e.kind === 'group' && e.inner.kind === 'logical') {
    const inner = indent + '  ';
    return `(\n${inner}${printExpr(e.inner, inner, width)}\n${indent})`;
  }
  if (e.kind === 'not') return `not ${printExpr(e.operand, indent, width)}`;
  return flat;
}

function printIndexExpr(x: RuleIndexExpr): string {
  const b = x.base;
  const base = b.kind === 'ident' ? b.name : `${b.name}(${b.args.map(flatRule).join(', ')})`;
  return base + x.indexes.map((i) => (i.each ? '[*]' : `[${i.literal?.image ?? ''}]`)).join('');
}

function printLiteral(l: RuleLiteral): string {
  return l.image;
}

function printRhs(r: RuleRhs): string {
  if (r.kind === 'literal') return printLiteral(r.literal);
  if (r.kind === 'named-list') return `$${r.name}`;
  return `{${r.items.map(printLiteral).join(' ')}}`;
}

/** Logical spellings → words, for tools that show an operator the way the formatter writes it. */
export function canonicalSpelling(image: string): string {
  return COMPARISON_BY_SPELLING.get(image)?.word ?? LOGICAL_BY_SPELLING.get(image)?.word ?? image;
}
