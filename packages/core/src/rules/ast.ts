/**
 * Syntax tree of the rules language. It is concrete enough to format and to report on: operator spellings,
 * literal images, parentheses and every offset (UTF-16, end exclusive) are kept.
 */
export interface RuleSpan {
  start: number;
  end: number;
}

/** A token's text where it was written. */
export interface Spelled extends RuleSpan {
  image: string;
}

export type RuleExpr = RuleLogical | RuleNot | RuleGroup | RuleQuantifier | RuleComparison | RuleLiteralArg;

export interface RuleLogical extends RuleSpan {
  kind: 'logical';
  op: 'and' | 'xor' | 'or';
  operands: RuleExpr[];
  /** The operator tokens between the operands. */
  ops: Spelled[];
}

export interface RuleNot extends RuleSpan {
  kind: 'not';
  token: Spelled;
  operand: RuleExpr;
}

export interface RuleGroup extends RuleSpan {
  kind: 'group';
  inner: RuleExpr;
}

export interface RuleQuantifier extends RuleSpan {
  kind: 'quantifier';
  name: Spelled;
  arg: RuleExpr;
}

/** `lhs op rhs`, or a bare `lhs` (a Boolean field, a function call, an argument value). */
export interface RuleComparison extends RuleSpan {
  kind: 'comparison';
  lhs: RuleIndexExpr;
  op?: Spelled;
  rhs?: RuleRhs;
}

/** A string literal as a function argument. */
export interface RuleLiteralArg extends RuleSpan {
  kind: 'literal';
  literal: RuleLiteral;
}

/** A field or a call, then its indexes: `http.request.headers["accept"][0]`, `lower(x)[*]`. */
export interface RuleIndexExpr extends RuleSpan {
  base: RuleIdent | RuleCall;
  indexes: RuleIndex[];
}

export interface RuleIdent extends RuleSpan {
  kind: 'ident';
  name: string;
}

export interface RuleCall extends RuleSpan {
  kind: 'call';
  name: string;
  nameStart: number;
  nameEnd: number;
  args: RuleExpr[];
}

/** `[*]`, `[0]`, `["key"]`; `literal` is the written key or index. */
export interface RuleIndex extends RuleSpan {
  each: boolean;
  literal?: RuleLiteral;
}

/**
 * A literal as written: `quoted` "…", `raw` r#"…"#, `single` '…' (an error), `bare` an unquoted word read
 * by the type it meets (integer, IP, CIDR, range, hex bytes).
 */
export interface RuleLiteral extends RuleSpan {
  form: 'quoted' | 'raw' | 'single' | 'bare';
  image: string;
}

export type RuleRhs = RuleRhsLiteral | RuleRhsList | RuleRhsNamedList;

export interface RuleRhsLiteral extends RuleSpan {
  kind: 'literal';
  literal: RuleLiteral;
}

export interface RuleRhsList extends RuleSpan {
  kind: 'list';
  items: RuleLiteral[];
  /** Commas written between items (an error: items are separated by spaces). */
  commas: RuleSpan[];
  closed: boolean;
}

export interface RuleRhsNamedList extends RuleSpan {
  kind: 'named-list';
  /** The name after `$`, possibly empty. */
  name: string;
}
