/**
 * Normalisation: `not` pushed down by De Morgan's laws (each operator replaced by its negation), groups
 * dropped, chains of the same connective flattened. The result is the shape the JSON has: conditions and
 * flat and/or nodes. Every normalised condition keeps the source condition it came from, so diagnostics
 * found here (duplicates, contradictions, limits) point back into the source.
 */
import type { Condition, Expr, Value } from '../ast.js';
import { OPERATOR_BY_NAME, type OperatorName } from '../operators.js';
import { pushAll } from '../util/push-all.js';

export interface NCondition {
  kind: 'condition';
  key: string;
  op: OperatorName;
  value: Value;
  /** The source condition (for merged conditions: the first one). */
  src: Condition;
  /** All source conditions this one stands for (several after `--optimize` merges). */
  sources: Condition[];
}

export interface NLogical {
  kind: 'and' | 'or';
  items: NNode[];
  /** The source and/or, with the parentheses and `not` written around it. */
  src: Expr;
}

export type NNode = NCondition | NLogical;

export function normalize(expr: Expr, negate = false): NNode {
  switch (expr.kind) {
    case 'condition': {
      const op = negate ? OPERATOR_BY_NAME.get(expr.operator.name)!.negation : expr.operator.name;
      return { kind: 'condition', key: expr.field.name, op, value: expr.value, src: expr, sources: [expr] };
    }
    case 'group':
    case 'not': {
      // an and/or keeps the outermost parentheses and `not` written around it: a diagnostic on the whole
      // group (a repeated group) covers them, and its fix removes them
      const n = normalize(expr.expr, expr.kind === 'not' ? !negate : negate);
      return n.kind === 'condition' ? n : { ...n, src: expr };
    }
    case 'and':
    case 'or': {
      const kind = negate ? (expr.kind === 'and' ? 'or' : 'and') : expr.kind;
      const items: NNode[] = [];
      for (const item of expr.items) {
        const n = normalize(item, negate);
        if (n.kind === kind) pushAll(items, n.items);
        else items.push(n);
      }
      return items.length === 1 ? items[0] : { kind, items, src: expr };
    }
  }
}

/** Conditions in output order. */
export function conditionsOf(n: NNode, out: NCondition[] = []): NCondition[] {
  if (n.kind === 'condition') out.push(n);
  else for (const i of n.items) conditionsOf(i, out);
  return out;
}
