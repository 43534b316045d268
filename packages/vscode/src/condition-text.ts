// A condition of the evaluation panel in the language's own canonical spelling, written by the core's printer
// (field names backquoted where the language needs it, canonical operators, lists `[a, b]`).
import { printCondition, type ExplainNode, type FilterScalar, type ScalarValue, type Value } from '@logfilter/core';

/** A filter document's value as the printer's value node (it reads no offsets). */
function scalar(v: FilterScalar): ScalarValue {
  const at = { start: 0, end: 0 };
  if (typeof v === 'string') return { kind: 'string', value: v, ...at };
  if (typeof v === 'boolean') return { kind: 'bool', value: v, ...at };
  return { kind: Number.isInteger(v) ? 'int' : 'float', raw: String(v), ...at };
}

/** e.g. `ClientRequestPath not startsWith "/static/"`, `` `in` == 1 ``. */
export function conditionText(n: ExplainNode): string {
  if (n.key === undefined || n.operator === undefined || n.value === undefined) return '?';
  const value: Value = Array.isArray(n.value) ? { kind: 'list', items: n.value.map(scalar), start: 0, end: 0 } : scalar(n.value);
  return printCondition({ field: { name: n.key, quoted: false, start: 0, end: 0 }, operator: { name: n.operator, spelling: n.operator, start: 0, end: 0 }, value });
}
