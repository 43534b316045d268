/**
 * Operators of the rules language: one table for the lexer, parser, checker, formatter, completion, hover
 * and the TextMate grammar. The formatter writes the English word (`word`); `symbol` is the C-like spelling.
 */
import type { ScalarType } from './types.js';

export type ComparisonName = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'matches' | 'wildcard' | 'strict wildcard' | 'in' | 'bitwise_and';

/** What the right-hand side is read as. */
export type RhsForm = 'value' | 'regex' | 'wildcard' | 'list';

export interface ComparisonOperator {
  word: ComparisonName;
  symbol?: string;
  /** Left-hand types the operator applies to. */
  types: readonly ScalarType[];
  /** Types the documentation does not list though the reference parser accepts them (a warning). */
  undocumentedTypes?: readonly ScalarType[];
  rhs: RhsForm;
  doc: string;
}

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = [
  { word: 'eq', symbol: '==', types: ['Bytes', 'Int', 'Ip'], rhs: 'value', doc: 'equal' },
  { word: 'ne', symbol: '!=', types: ['Bytes', 'Int', 'Ip'], rhs: 'value', doc: 'not equal' },
  { word: 'lt', symbol: '<', types: ['Bytes', 'Int', 'Ip'], undocumentedTypes: ['Ip'], rhs: 'value', doc: 'less than (strings: byte order)' },
  { word: 'le', symbol: '<=', types: ['Bytes', 'Int', 'Ip'], undocumentedTypes: ['Ip'], rhs: 'value', doc: 'less than or equal' },
  { word: 'gt', symbol: '>', types: ['Bytes', 'Int', 'Ip'], undocumentedTypes: ['Ip'], rhs: 'value', doc: 'greater than' },
  { word: 'ge', symbol: '>=', types: ['Bytes', 'Int', 'Ip'], undocumentedTypes: ['Ip'], rhs: 'value', doc: 'greater than or equal' },
  { word: 'contains', types: ['Bytes'], rhs: 'value', doc: 'contains the string (case-sensitive)' },
  { word: 'matches', symbol: '~', types: ['Bytes'], rhs: 'regex', doc: 'matches the regular expression anywhere (Business and Enterprise plans)' },
  { word: 'wildcard', types: ['Bytes'], rhs: 'wildcard', doc: 'matches the whole value against a * pattern, case-insensitive' },
  { word: 'strict wildcard', types: ['Bytes'], rhs: 'wildcard', doc: 'matches the whole value against a * pattern, case-sensitive' },
  { word: 'in', types: ['Bytes', 'Int', 'Ip'], rhs: 'list', doc: 'is one of the values of an inline list {…} or a named list $name' },
  { word: 'bitwise_and', symbol: '&', types: ['Int'], rhs: 'value', doc: 'the bitwise AND with the value is not zero' },
];

export type LogicalName = 'not' | 'and' | 'xor' | 'or';

export interface LogicalOperator {
  word: LogicalName;
  symbol: string;
  /** 1 binds tightest. */
  precedence: number;
  doc: string;
}

export const LOGICAL_OPERATORS: readonly LogicalOperator[] = [
  { word: 'not', symbol: '!', precedence: 1, doc: 'negates the next simple expression' },
  { word: 'and', symbol: '&&', precedence: 2, doc: 'both hold' },
  { word: 'xor', symbol: '^^', precedence: 3, doc: 'exactly one holds' },
  { word: 'or', symbol: '||', precedence: 4, doc: 'either holds' },
];

/** Every spelling (word or symbol) → its operator. */
export const COMPARISON_BY_SPELLING: ReadonlyMap<string, ComparisonOperator> = new Map(
  COMPARISON_OPERATORS.flatMap((o) => [[o.word, o] as const, ...(o.symbol ? [[o.symbol, o] as const] : [])]),
);
export const LOGICAL_BY_SPELLING: ReadonlyMap<string, LogicalOperator> = new Map(
  LOGICAL_OPERATORS.flatMap((o) => [[o.word, o] as const, [o.symbol, o] as const]),
);

export function comparisonsFor(t: ScalarType): ComparisonOperator[] {
  return COMPARISON_OPERATORS.filter((o) => o.types.includes(t) && !o.undocumentedTypes?.includes(t));
}
