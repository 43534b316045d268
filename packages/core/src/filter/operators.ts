/**
 * The operator table: the single source of truth for every operator's spellings, JSON name, negation,
 * allowed field types and documentation. The lexer, parser, checker, compiler, decompiler, evaluator,
 * completion, hover and the TextMate grammar are all derived from it.
 */

/** JSON operator names, exactly as the API spells them. */
export type OperatorName =
  | 'eq'
  | '!eq'
  | 'lt'
  | 'leq'
  | 'gt'
  | 'geq'
  | 'startsWith'
  | 'endsWith'
  | '!startsWith'
  | '!endsWith'
  | 'contains'
  | '!contains'
  | 'in'
  | '!in';

/** Type classes of the type table (docs/language.md#types). */
export type TypeClass = 'string' | 'int' | 'bool' | 'array';

/** What shape of value an operator takes. */
export type ValueShape = 'scalar' | 'list';

export interface OperatorInfo {
  /** The JSON name (`eq`, `!startsWith`, ...). */
  readonly name: OperatorName;
  /** The operator with the opposite meaning, used to push `not` down (De Morgan). */
  readonly negation: OperatorName;
  /** True for the `!` forms: they hold for absent and null fields. */
  readonly negative: boolean;
  /** The positive operator of this pair (itself when positive). */
  readonly positive: OperatorName;
  /** Symbol spelling, if any (`==`, `<=`, ...). */
  readonly symbol?: string;
  /** Word spellings accepted by the lexer as a single token (`eq`, `!eq`, `startsWith`, `!startsWith`). */
  readonly words: readonly string[];
  /**
   * For the negative word operators: the positive keyword that `not` may precede (`not startsWith`).
   * Canonical source writes these with `not`.
   */
  readonly notForm?: string;
  /** The spelling the formatter and decompiler write. */
  readonly canonical: string;
  /** Field type classes the operator is allowed on. */
  readonly types: readonly TypeClass[];
  /** `in`/`!in` take a list, all others a scalar. */
  readonly shape: ValueShape;
  /** Comparison operators read both sides as numbers. */
  readonly numeric: boolean;
  /** One-line meaning, for hover and completion. */
  readonly doc: string;
}

const table: OperatorInfo[] = [
  op('eq', '!eq', { symbol: '==', words: ['eq'], canonical: '==', types: ['string', 'int', 'bool'], doc: 'equal' }),
  op('!eq', 'eq', { symbol: '!=', words: ['!eq'], canonical: '!=', types: ['string', 'int', 'bool'], doc: 'not equal' }),
  op('lt', 'geq', { symbol: '<', words: ['lt'], canonical: '<', types: ['int'], numeric: true, doc: 'less than' }),
  op('leq', 'gt', { symbol: '<=', words: ['leq'], canonical: '<=', types: ['int'], numeric: true, doc: 'less than or equal' }),
  op('gt', 'leq', { symbol: '>', words: ['gt'], canonical: '>', types: ['int'], numeric: true, doc: 'greater than' }),
  op('geq', 'lt', { symbol: '>=', words: ['geq'], canonical: '>=', types: ['int'], numeric: true, doc: 'greater than or equal' }),
  op('startsWith', '!startsWith', { words: ['startsWith'], canonical: 'startsWith', types: ['string'], doc: 'the string value starts with the given text' }),
  op('!startsWith', 'startsWith', { words: ['!startsWith'], notForm: 'startsWith', canonical: 'not startsWith', types: ['string'], doc: 'the string value does not start with the given text' }),
  op('endsWith', '!endsWith', { words: ['endsWith'], canonical: 'endsWith', types: ['string'], doc: 'the string value ends with the given text' }),
  op('!endsWith', 'endsWith', { words: ['!endsWith'], notForm: 'endsWith', canonical: 'not endsWith', types: ['string'], doc: 'the string value does not end with the given text' }),
  op('contains', '!contains', { words: ['contains'], canonical: 'contains', types: ['string', 'array'], doc: 'a string value contains the text, or an array value holds the element' }),
  op('!contains', 'contains', { words: ['!contains'], notForm: 'contains', canonical: 'not contains', types: ['string', 'array'], doc: 'a string value does not contain the text, or an array value does not hold the element' }),
  op('in', '!in', { words: ['in'], canonical: 'in', types: ['string', 'int', 'array'], shape: 'list', doc: 'the value is one of the listed values' }),
  op('!in', 'in', { words: ['!in'], notForm: 'in', canonical: 'not in', types: ['string', 'int', 'array'], shape: 'list', doc: 'the value is none of the listed values' }),
];

function op(
  name: OperatorName,
  negation: OperatorName,
  o: {
    symbol?: string;
    words: string[];
    notForm?: string;
    canonical: string;
    types: TypeClass[];
    shape?: ValueShape;
    numeric?: boolean;
    doc: string;
  },
): OperatorInfo {
  const negative = name.startsWith('!');
  return {
    name,
    negation,
    negative,
    positive: negative ? negation : name,
    symbol: o.symbol,
    words: o.words,
    notForm: o.notForm,
    canonical: o.canonical,
    types: o.types,
    shape: o.shape ?? 'scalar',
    numeric: o.numeric ?? false,
    doc: o.doc,
  };
}

/** Every operator, in the order of the API's table. */
export const OPERATORS: readonly OperatorInfo[] = table;

/** Operators by JSON name. */
export const OPERATOR_BY_NAME: ReadonlyMap<string, OperatorInfo> = new Map(table.map((o) => [o.name, o]));

/** Every single-token spelling (symbols and words) → operator. `not startsWith` is two tokens and not here. */
export const OPERATOR_BY_SPELLING: ReadonlyMap<string, OperatorInfo> = new Map(
  table.flatMap((o) => [...(o.symbol ? [o.symbol] : []), ...o.words].map((s) => [s, o] as const)),
);

/** Positive keywords that `not` may precede inside a condition, mapped to the negated operator. */
export const NOT_FORMS: ReadonlyMap<string, OperatorInfo> = new Map(
  table.filter((o) => o.notForm).map((o) => [o.notForm!, o]),
);

export function isOperatorName(name: string): name is OperatorName {
  return OPERATOR_BY_NAME.has(name);
}

/**
 * Spellings seen in hand-written filters that the API does not accept. They are never accepted
 * silently: the decompiler and checker report `unknown-operator` with "did you mean".
 */
export const OPERATOR_MISSPELLINGS: ReadonlyMap<string, OperatorName> = new Map<string, OperatorName>([
  ['neq', '!eq'],
  ['ne', '!eq'],
  ['not_eq', '!eq'],
  ['noteq', '!eq'],
  ['!=', '!eq'],
  ['==', 'eq'],
  ['=', 'eq'],
  ['equals', 'eq'],
  ['equal', 'eq'],
  ['lte', 'leq'],
  ['le', 'leq'],
  ['<=', 'leq'],
  ['gte', 'geq'],
  ['ge', 'geq'],
  ['>=', 'geq'],
  ['<', 'lt'],
  ['>', 'gt'],
  ['less_than', 'lt'],
  ['greater_than', 'gt'],
  ['startswith', 'startsWith'],
  ['starts_with', 'startsWith'],
  ['endswith', 'endsWith'],
  ['ends_with', 'endsWith'],
  ['!startswith', '!startsWith'],
  ['!endswith', '!endsWith'],
  ['not_in', '!in'],
  ['notin', '!in'],
  ['nin', '!in'],
  ['not_contains', '!contains'],
  ['notcontains', '!contains'],
]);
