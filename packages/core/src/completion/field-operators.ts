/** Which operators a field takes, derived from the operator table and the field's type (LANGUAGE.md section 5). */
import { OPERATORS, type OperatorInfo } from '../operators.js';
import { isFilterable, typeClasses, type FieldInfo } from '../datasets/index.js';

/**
 * The operators allowed on `field`, in table order. An unknown field (dataset `any`, a name outside the
 * schema) gets every operator: nothing is known that would exclude one. Float fields take only the
 * comparisons and equality (they have no documented list form).
 */
export function fieldOperators(field: FieldInfo | undefined): OperatorInfo[] {
  if (!field) return [...OPERATORS];
  if (!isFilterable(field)) return [];
  const classes = typeClasses(field.type);
  return OPERATORS.filter(
    (o) => o.types.some((t) => classes.includes(t)) && (field.type !== 'float' || o.shape === 'scalar'),
  );
}
