/** Which operators completion offers after a field: the checker's own table lookup, plus the unknown-field case. */
import { OPERATORS, type OperatorInfo } from '../operators.js';
import { isFilterable, type FieldInfo } from '../datasets/index.js';
import { operatorsFor } from '../check/fields.js';

/**
 * The operators allowed on `field`, in table order. An unknown field (dataset `any`, a name outside the
 * schema) gets every operator: nothing is known that would exclude one.
 */
export function fieldOperators(field: FieldInfo | undefined): OperatorInfo[] {
  if (!field) return [...OPERATORS];
  if (!isFilterable(field)) return [];
  const allowed = new Set(operatorsFor(field));
  return OPERATORS.filter((o) => allowed.has(o));
}
