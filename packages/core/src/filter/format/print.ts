/**
 * The canonical printer, shared by the formatter (source → source) and the decompiler (JSON → source):
 * symbol forms `== != < <= > >=`, word forms with `not` for negation, only the parentheses precedence
 * needs, and long filters broken one condition per line with the connective first. Comments are kept:
 * each one is attached to the condition it precedes (own line) or follows (same line).
 */
import type { Comment, Condition, Expr } from '../ast.js';
import { OPERATOR_BY_NAME } from '../operators.js';
import { writeField } from '../syntax/field-names.js';
import { conditionsIn } from '../walk.js';
import { printScalar } from '../util/values.js';
import { pushAll } from '../util/push-all.js';

export const LINE_WIDTH = 80;
const INDENT = '  ';

export interface PrintInput {
  dataset?: string;
  expr?: Expr;
  comments?: Comment[];
  /** The source text the offsets of `expr` and `comments` refer to (needed to place comments). */
  text?: string;
  /** Where the dataset declaration ends in `text`. */
  datasetEnd?: number;
}

/** The source spelling of a field name (syntax/field-names.ts). */
export const printField = writeField;

export function printCondition(c: Pick<Condition, 'field' | 'operator' | 'value'>): string {
  const op = OPERATOR_BY_NAME.get(c.operator.name)!.canonical;
  const value = c.value.kind === 'list' ? `[${c.value.items.map(printScalar).join(', ')}]` : printScalar(c.value);
  return `${printField(c.field.name)} ${op} ${value}`;
}

interface Attached {
  leading: Map<Condition, string[]>;
  trailing: Map<Condition, string[]>;
  /** Comments inside a list value, by item index: such a list is printed one item per line, each with its own. */
  listItems: Map<Condition, Map<number, { leading: string[]; trailing: string[] }>>;
  header: string[];
  afterDataset: string[];
  footer: string[];
}

export function printFile(input: PrintInput): string {
  const conditions = conditionsIn(input.expr);
  const att = attachComments(input, conditions);
  const lines: string[] = [...att.header];
  if (input.dataset !== undefined) {
    lines.push(`dataset ${input.dataset}${att.afterDataset.length ? `  ${att.afterDataset.join(' ')}` : ''}`);
  }
  if (input.expr) {
    if (lines.length) lines.push('');
    const p = new Printer(att);
    pushAll(lines, p.expr(input.expr, '', '', ''));
  }
  if (att.footer.length) pushAll(lines, att.footer);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

class Printer {
  constructor(private readonly att: Attached) {}

  private hasComments(e: Expr): boolean {
    return conditionsIn(e).some((c) => this.att.leading.has(c) || this.att.trailing.has(c) || this.att.listItems.has(c));
  }

  /**
   * The comment that ends `e` when it is the only one in it (`a == 1 and b == 2  # why`): the one-line form can
   * carry it at its end, so a short filter with such a comment is not broken over lines. Else undefined.
   */
  private onlyTrailing(e: Expr): string | undefined {
    const cs = conditionsIn(e);
    const last = cs[cs.length - 1];
    const trail = last && this.att.trailing.get(last);
    if (!trail || cs.some((c) => this.att.leading.has(c) || this.att.listItems.has(c) || (c !== last && this.att.trailing.has(c)))) return undefined;
    return `  ${trail.join(' ')}`;
  }

  /** A condition whose list holds comments: `field op [`, one item per line with its comments, then `]`. */
  private commentedList(c: Condition, indent: string, prefix: string, trail: string): string[] {
    const items = c.value.kind === 'list' ? c.value.items : [];
    const notes = this.att.listItems.get(c)!;
    const inner = indent + INDENT;
    const lines = [`${indent}${prefix}${printField(c.field.name)} ${OPERATOR_BY_NAME.get(c.operator.name)!.canonical} [`];
    items.forEach((item, i) => {
      const note = notes.get(i);
      for (const l of note?.leading ?? []) lines.push(inner + l);
      lines.push(`${inner}${printScalar(item)}${i < items.length - 1 ? ',' : ''}${note?.trailing.length ? `  ${note.trailing.join(' ')}` : ''}`);
    });
    lines.push(`${indent}]${trail}`);
    return lines;
  }

  /** Lines for `e`; the first line starts with `prefix`, continuation items of a chain use `cont`. */
  expr(e: Expr, indent: string, prefix: string, cont: string): string[] {
    e = unwrap(e);
    const trail = this.hasComments(e) ? this.onlyTrailing(e) : '';
    if (trail !== undefined) {
      const flat = printInline(e);
      if (indent.length + prefix.length + flat.length <= LINE_WIDTH || (e.kind === 'condition' && !trail)) return [indent + prefix + flat + trail];
    }
    switch (e.kind) {
      case 'condition': {
        const lead = (this.att.leading.get(e) ?? []).map((c) => indent + c);
        const trail = this.att.trailing.get(e);
        if (this.att.listItems.has(e)) return [...lead, ...this.commentedList(e, indent, prefix, trail ? `  ${trail.join(' ')}` : '')];
        return [...lead, indent + prefix + printCondition(e) + (trail ? `  ${trail.join(' ')}` : '')];
      }
      case 'not': {
        const inner = unwrap(e.expr);
        if (inner.kind === 'and' || inner.kind === 'or') return this.parens(inner, indent, `${prefix}not `);
        return this.expr(inner, indent, `${prefix}not `, cont);
      }
      case 'and':
      case 'or': {
        const items = chainItems(e);
        const lines: string[] = [];
        items.forEach((item, i) => {
          const pfx = i === 0 ? prefix : `${e.kind} `;
          const ind = i === 0 ? indent : cont;
          const needsParens = e.kind === 'and' && unwrap(item).kind === 'or';
          if (needsParens) pushAll(lines, this.parens(unwrap(item), ind, pfx));
          // an and-chain inside an or is indented one step, so the two connectives do not look alike
          else pushAll(lines, this.expr(item, ind, pfx, ind + INDENT));
        });
        return lines;
      }
      case 'group':
        return this.expr(e.expr, indent, prefix, cont);
    }
  }

  private parens(e: Expr, indent: string, prefix: string): string[] {
    const trail = this.hasComments(e) ? this.onlyTrailing(e) : '';
    if (trail !== undefined) {
      const flat = `(${printInline(e)})`;
      if (indent.length + prefix.length + flat.length <= LINE_WIDTH) return [indent + prefix + flat + trail];
    }
    const inner = indent + INDENT;
    return [`${indent}${prefix}(`, ...this.expr(e, inner, '', inner), `${indent})`];
  }
}

/**
 * What `e` prints as: groups, and one-item and/or nodes (JSON can hold `{"or": [c]}`, source cannot), stand
 * for their content, so they add no parentheses and join the chain around them.
 */
function unwrap(e: Expr): Expr {
  while (e.kind === 'group' || ((e.kind === 'and' || e.kind === 'or') && e.items.length === 1)) e = e.kind === 'group' ? e.expr : e.items[0];
  return e;
}

/** Items of an and/or chain, with nested chains of the same connective (and groups) flattened. */
function chainItems(e: Expr & { kind: 'and' | 'or' }): Expr[] {
  const out: Expr[] = [];
  const stack = [...e.items].reverse();
  while (stack.length) {
    const i = unwrap(stack.pop()!);
    if (i.kind === e.kind) for (let k = i.items.length - 1; k >= 0; k--) stack.push(i.items[k]);
    else out.push(i);
  }
  return out;
}

/** One-line form with the parentheses precedence needs (not > and > or). */
export function printInline(e: Expr): string {
  e = unwrap(e);
  switch (e.kind) {
    case 'condition':
      return printCondition(e);
    case 'not': {
      const inner = unwrap(e.expr);
      return `not ${inner.kind === 'and' || inner.kind === 'or' ? `(${printInline(inner)})` : printInline(inner)}`;
    }
    case 'and':
      return chainItems(e)
        .map((i) => (unwrap(i).kind === 'or' ? `(${printInline(i)})` : printInline(i)))
        .join(' and ');
    case 'or':
      return chainItems(e).map(printInline).join(' or ');
    case 'group':
      return printInline(e.expr);
  }
}

function attachComments(input: PrintInput, conditions: Condition[]): Attached {
  const att: Attached = { leading: new Map(), trailing: new Map(), listItems: new Map(), header: [], afterDataset: [], footer: [] };
  const comments = input.comments ?? [];
  if (!comments.length || input.text === undefined) return att;
  const text = input.text;
  const sorted = [...conditions].sort((a, b) => a.start - b.start);
  const exprStart = input.expr ? input.expr.start : Infinity;
  const exprEnd = input.expr ? input.expr.end : -Infinity;
  const add = (m: Map<Condition, string[]>, c: Condition, s: string) => m.set(c, [...(m.get(c) ?? []), s]);
  for (const cm of comments) {
    const lineStart = Math.max(text.lastIndexOf('\n', cm.start - 1), text.lastIndexOf('\r', cm.start - 1)) + 1;
    const sameLine = text.slice(lineStart, cm.start).trim() !== '';
    const before = sorted.filter((c) => c.start < cm.start);
    const after = sorted.find((c) => c.start > cm.start);
    const body = cm.text.replace(/\s+$/, '');
    // inside a list value: the item it follows on its line, else the item it precedes (else the last one)
    const list = sorted.find((c) => c.value.kind === 'list' && c.value.start < cm.start && cm.start < c.value.end);
    if (list && list.value.kind === 'list' && list.value.items.length) {
      const items = list.value.items;
      const prev = items.filter((it) => it.start < cm.start).length - 1;
      const next = items.findIndex((it) => it.start > cm.start);
      const notes = att.listItems.get(list) ?? new Map<number, { leading: string[]; trailing: string[] }>();
      att.listItems.set(list, notes);
      const at = (i: number) => notes.get(i) ?? (notes.set(i, { leading: [], trailing: [] }), notes.get(i)!);
      if ((sameLine && prev >= 0) || next < 0) at(Math.max(prev, 0)).trailing.push(body);
      else at(next).leading.push(body);
      continue;
    }
    if (input.datasetEnd !== undefined && cm.start < input.datasetEnd) att.header.push(body);
    else if (cm.start < exprStart) {
      if (sameLine && input.datasetEnd !== undefined && lineStart <= input.datasetEnd && !before.length) att.afterDataset.push(body);
      else if (input.datasetEnd === undefined && !sameLine && !before.length && exprStart !== Infinity && isHeaderBlock(text, cm.end, exprStart)) att.header.push(body);
      else if (after) add(att.leading, after, body);
      // no condition yet (a file being written): a comment below the dataset line stays below it
      else if (input.datasetEnd !== undefined) att.footer.push(body);
      else att.header.push(body);
    } else if (sameLine && before.length) add(att.trailing, before[before.length - 1], body);
    else if (cm.start > exprEnd || !after) att.footer.push(body);
    else add(att.leading, after, body);
  }
  return att;
}

/** A comment block separated from the filter by a blank line is a file header, not the first condition's. */
function isHeaderBlock(text: string, from: number, exprStart: number): boolean {
  const between = text.slice(from, exprStart);
  const stripped = between.replace(/#[^\r\n]*/g, '');
  return /\n[ \t]*\r?\n/.test(stripped);
}
