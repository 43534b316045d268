/**
 * The syntax tree. Every node carries `start`/`end` offsets (UTF-16 index, end exclusive) into the text it
 * came from: the `.logfilter` source, or the JSON text for trees built by the decompiler (whose nodes also
 * carry the JSON `path`). Line and column are computed only at the edges (CLI, language server).
 */
import type { JsonPath, Span } from '../lang/positions.js';
import type { OperatorName } from './operators.js';

export type { JsonPath, Span };

export interface FieldRef extends Span {
  name: string;
  /** Written as a backquoted name (`` `x-y` ``). */
  quoted: boolean;
}

export interface OperatorRef extends Span {
  /** The JSON operator this spelling means (before any `not` is pushed down). */
  name: OperatorName;
  /** The spelling as written (`==`, `eq`, `not startsWith`, `!in`). */
  spelling: string;
}

export interface StringValue extends Span {
  kind: 'string';
  value: string;
}
export interface IntValue extends Span {
  kind: 'int';
  /** Exact digits as written (may exceed 2^53). */
  raw: string;
}
export interface FloatValue extends Span {
  kind: 'float';
  raw: string;
}
export interface BoolValue extends Span {
  kind: 'bool';
  value: boolean;
}
export type ScalarValue = StringValue | IntValue | FloatValue | BoolValue;
export interface ListValue extends Span {
  kind: 'list';
  items: ScalarValue[];
}
export type Value = ScalarValue | ListValue;

export interface Condition extends Span {
  kind: 'condition';
  field: FieldRef;
  operator: OperatorRef;
  value: Value;
  path?: JsonPath;
}

export interface Logical extends Span {
  kind: 'and' | 'or';
  items: Expr[];
  path?: JsonPath;
}

export interface Not extends Span {
  kind: 'not';
  expr: Expr;
}

/** A parenthesised expression, kept so that checks can count nesting and the formatter can see it. */
export interface Group extends Span {
  kind: 'group';
  expr: Expr;
}

export type Expr = Condition | Logical | Not | Group;

export interface Comment extends Span {
  text: string;
}

export interface DatasetDecl extends Span {
  name: string;
  nameStart: number;
  nameEnd: number;
}

export interface FileNode extends Span {
  kind: 'file';
  dataset?: DatasetDecl;
  expr?: Expr;
  comments: Comment[];
}
