/** The compiled filter document (docs/language.md#the-compiled-filter). */
import type { OperatorName } from './operators.js';

export type FilterScalar = string | number | boolean;
export type FilterValue = FilterScalar | FilterScalar[];

export interface FilterCondition {
  key: string;
  operator: OperatorName;
  value: FilterValue;
}
export interface FilterAnd {
  and: FilterNode[];
}
export interface FilterOr {
  or: FilterNode[];
}
export type FilterNode = FilterCondition | FilterAnd | FilterOr;

export interface FilterDocument {
  where: FilterNode;
}

export function isCondition(n: FilterNode): n is FilterCondition {
  return (n as FilterCondition).key !== undefined;
}
