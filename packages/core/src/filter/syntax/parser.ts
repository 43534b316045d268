/**
 * The Chevrotain parser (embedded actions: it builds the AST directly, which is what keeps a 1000-byte
 * filter well under 100 µs). One instance, built once; Chevrotain's grammar validations run in a test.
 *
 * Error recovery is on: several syntax errors in one text each get their own diagnostic. Nodes built from
 * tokens that recovery inserted carry `recovered`, and the checker leaves them alone.
 */
import { EOF, type IToken, type TokenType } from 'chevrotain';
import { RecoveringParser } from '../../lang/chevrotain.js';
import { FILTER_PARSER_SETTINGS } from '../limits.js';
import type { Condition, Expr, FieldRef, ListValue, OperatorRef, ScalarValue, Value } from '../ast.js';
import { NOT_FORMS, OPERATOR_BY_SPELLING } from '../operators.js';
import { readField } from './field-names.js';
import { decodeString } from './strings.js';
import {
  allTokens,
  And,
  Comma,
  Dataset,
  False,
  FloatLiteral,
  Identifier,
  IntLiteral,
  LBracket,
  LParen,
  Not,
  NotableOperator,
  OperatorToken,
  Or,
  QuotedIdentifier,
  RBracket,
  RParen,
  SingleQuoted,
  StringLiteral,
  True,
} from './tokens.js';

/** A node that recovery had to patch; checks skip it. */
export type Recovered<T> = T & { recovered?: boolean };

export interface ParsedFile {
  dataset?: { name: string; start: number; end: number; nameStart: number; nameEnd: number };
  expr?: Expr;
}

/** Rules that recovery had to abandon return undefined; the actions above them drop such items. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const RECOVER_UNDEFINED = { recoveryValueFunc: (): any => undefined };

const inserted = (t: IToken) => t.isInsertedInRecovery === true || Number.isNaN(t.startOffset);
const endOf = (t: IToken) => t.startOffset + t.image.length;
/** The dataset a name token spells: a bare or quoted word (a quoted one is still read); a number names none. */
export function datasetNameOf(t: IToken): string | undefined {
  // an unterminated one has its own diagnostic and names nothing
  if (t.tokenType === StringLiteral) {
    const s = decodeString(t.image);
    return s.problems.length ? undefined : s.value;
  }
  if (t.tokenType === QuotedIdentifier) return t.image.length > 1 && t.image.endsWith('`') ? readField(t.image) : undefined;
  return t.tokenType === Identifier ? t.image : undefined;
}

class FilterParser extends RecoveringParser {
  /**
   * Every condition parsed, even inside a part of the tree that recovery later dropped: the checker still
   * reports unknown fields and type errors on the lines that do parse.
   */
  conditions: Condition[] = [];
  /** The dataset line, kept even when a later syntax error makes recovery drop the file rule's result. */
  datasetDecl: ParsedFile['dataset'];
  /**
   * Single-quoted strings read as values (`== 'us'`, `in ['us', 'ca']`): each is a syntax error that parse.ts
   * reports on its own, and the value is read as the string it quotes, so the rest of the filter parses and
   * is checked as it would be with double quotes.
   */
  singleQuoted: IToken[] = [];

  constructor(validate: boolean, recover = true) {
    super(allTokens, FILTER_PARSER_SETTINGS.maxParserErrors, { validate, recover });
    this.performSelfAnalysis();
  }

  file = this.RULE('file', (): ParsedFile => {
    let dataset: ParsedFile['dataset'];
    let expr: Expr | undefined;
    this.OPTION(() => {
      const kw = this.CONSUME(Dataset);
      // A quoted or numeric name is a syntax error (parse.ts, datasetNameChecks); it is consumed here all the
      // same, so recovery does not drop it and read the next line's field as the dataset's name.
      const name = this.OR([
        { ALT: () => this.CONSUME(Identifier) },
        { ALT: () => this.CONSUME(StringLiteral) },
        { ALT: () => this.CONSUME(QuotedIdentifier) },
        { ALT: () => this.CONSUME(IntLiteral) },
        { ALT: () => this.CONSUME(FloatLiteral) },
      ]);
      dataset = this.ACTION(() => {
        const spelt = inserted(name) ? undefined : datasetNameOf(name);
        return spelt === undefined
          ? undefined
          : { name: spelt, start: kw.startOffset, end: endOf(name), nameStart: name.startOffset, nameEnd: endOf(name) };
      });
      this.ACTION(() => (this.datasetDecl = dataset));
    });
    this.OPTION2(() => {
      expr = this.SUBRULE(this.orExpr);
    });
    return { dataset, expr };
  });

  orExpr = this.RULE(
    'orExpr',
    (): Expr => {
      const items: Expr[] = [];
      items.push(this.SUBRULE(this.andExpr));
      this.MANY(() => {
        this.CONSUME(Or);
        items.push(this.SUBRULE2(this.andExpr));
      });
      return this.ACTION(() => logical('or', items));
    },
    RECOVER_UNDEFINED,
  );

  andExpr = this.RULE(
    'andExpr',
    (): Expr => {
      const items: Expr[] = [];
      items.push(this.SUBRULE(this.unary));
      this.MANY(() => {
        this.CONSUME(And);
        items.push(this.SUBRULE2(this.unary));
      });
      return this.ACTION(() => logical('and', items));
    },
    RECOVER_UNDEFINED,
  );

  unary = this.RULE(
    'unary',
    (): Expr =>
      this.OR([
        {
          ALT: () => {
            const kw = this.CONSUME(Not);
            const expr = this.SUBRULE(this.unary);
            return this.ACTION(() => (expr ? { kind: 'not' as const, expr, start: kw.startOffset, end: expr.end } : undefined!));
          },
        },
        {
          ALT: () => {
            const open = this.CONSUME(LParen);
            const expr = this.SUBRULE(this.orExpr);
            const close = this.CONSUME(RParen);
            return this.ACTION(() => {
              if (!expr) return undefined!;
              const end = inserted(close) ? expr.end : endOf(close);
              const group: Recovered<Expr> = { kind: 'group', expr, start: open.startOffset, end };
              if (inserted(close)) group.recovered = true;
              return group;
            });
          },
        },
        { ALT: () => this.SUBRULE(this.condition) },
      ]),
    RECOVER_UNDEFINED,
  );

  condition = this.RULE(
    'condition',
    (): Condition => {
      const fieldTok = this.OR([{ ALT: () => this.CONSUME(Identifier) }, { ALT: () => this.CONSUME(QuotedIdentifier) }]);
      const operator = this.SUBRULE(this.operator);
      const value = this.SUBRULE(this.value);
      return this.ACTION(() => {
        const field = fieldRef(fieldTok);
        const node: Recovered<Condition> = {
          kind: 'condition',
          field,
          operator: operator!,
          value: value!,
          start: field.start,
          end: value && !Number.isNaN(value.end) ? value.end : operator && !Number.isNaN(operator.end) ? operator.end : field.end,
        };
        if (!operator || !value || inserted(fieldTok) || (operator as Recovered<OperatorRef>).recovered || (value as Recovered<Value>).recovered) {
          node.recovered = true;
        }
        this.conditions.push(node);
        return node;
      });
    },
    RECOVER_UNDEFINED,
  );

  operator = this.RULE(
    'operator',
    (): OperatorRef =>
      this.OR([
        {
          ALT: () => {
            const not = this.CONSUME(Not);
            const word = this.CONSUME(NotableOperator);
            return this.ACTION(() => {
              const info = NOT_FORMS.get(word.image);
              const ref: Recovered<OperatorRef> = {
                name: info ? info.name : '!in',
                spelling: `not ${word.image}`,
                start: not.startOffset,
                end: inserted(word) ? endOf(not) : endOf(word),
              };
              if (!info || inserted(word)) ref.recovered = true;
              return ref;
            });
          },
        },
        {
          ALT: () => {
            const tok = this.CONSUME(OperatorToken);
            return this.ACTION(() => {
              const info = OPERATOR_BY_SPELLING.get(tok.image);
              const ref: Recovered<OperatorRef> = {
                name: info ? info.name : 'eq',
                spelling: tok.image,
                start: tok.startOffset,
                end: endOf(tok),
              };
              if (!info || inserted(tok)) ref.recovered = true;
              return ref;
            });
          },
        },
      ]),
    RECOVER_UNDEFINED,
  );

  value = this.RULE(
    'value',
    (): Value => this.OR([{ ALT: () => this.SUBRULE(this.scalar) }, { ALT: () => this.SUBRULE(this.list) }]),
    RECOVER_UNDEFINED,
  );

  list = this.RULE(
    'list',
    (): ListValue => {
      const open = this.CONSUME(LBracket);
      const items: ScalarValue[] = [];
      this.OPTION(() => {
        items.push(this.SUBRULE(this.scalar));
        // One trailing comma is allowed, an empty slot (`[a,,b]`, `[a,,]`) is not: a comma followed by `]` ends
        // the list, any other comma needs a scalar after it.
        this.MANY({
          GATE: () => this.LA(2).tokenType !== RBracket,
          DEF: () => {
            this.CONSUME(Comma);
            items.push(this.SUBRULE2(this.scalar));
          },
        });
        this.OPTION2(() => this.CONSUME2(Comma));
      });
      const close = this.CONSUME(RBracket);
      return this.ACTION(() => {
        const clean = items.filter(Boolean);
        const list: Recovered<ListValue> = {
          kind: 'list',
          items: clean,
          start: open.startOffset,
          end: inserted(close) ? (clean.length ? clean[clean.length - 1].end : endOf(open)) : endOf(close),
        };
        if (inserted(close) || clean.length !== items.length || clean.some((i) => (i as Recovered<ScalarValue>).recovered)) {
          list.recovered = true;
        }
        // `[null]`: recovery deleted what stood between the brackets; the list is not empty as written (no
        // empty-list on top of the syntax error)
        if (!clean.length && !list.recovered && this.input.some((t) => t.startOffset > open.startOffset && t.startOffset < close.startOffset)) {
          list.recovered = true;
        }
        return list;
      });
    },
    RECOVER_UNDEFINED,
  );

  scalar = this.RULE(
    'scalar',
    (): ScalarValue => {
      const tok = this.OR([
        { ALT: () => this.CONSUME(StringLiteral) },
        { ALT: () => this.CONSUME(IntLiteral) },
        { ALT: () => this.CONSUME(FloatLiteral) },
        { ALT: () => this.CONSUME(True) },
        { ALT: () => this.CONSUME(False) },
        { ALT: () => this.CONSUME(SingleQuoted) },
      ]);
      return this.ACTION(() => {
        if (tok.tokenType === SingleQuoted && !inserted(tok)) this.singleQuoted.push(tok);
        return scalarValue(tok);
      });
    },
    RECOVER_UNDEFINED,
  );
}

function logical(kind: 'and' | 'or', items: (Expr | undefined)[]): Expr {
  const clean = items.filter((i): i is Expr => i !== undefined);
  if (clean.length === 0) return undefined!;
  if (clean.length === 1 && items.length === 1) return clean[0];
  const node: Recovered<Expr> = { kind, items: clean, start: clean[0].start, end: clean[clean.length - 1].end };
  if (clean.length !== items.length) node.recovered = true;
  return node;
}

function fieldRef(tok: IToken): Recovered<FieldRef> {
  if (inserted(tok)) return { name: '', quoted: false, start: NaN, end: NaN, recovered: true };
  if (tok.tokenType === QuotedIdentifier) {
    const closed = tok.image.length > 1 && tok.image.endsWith('`');
    const ref: Recovered<FieldRef> = {
      name: readField(tok.image),
      quoted: true,
      start: tok.startOffset,
      end: endOf(tok),
    };
    // unterminated or empty names are reported by the syntax pass (see parse.ts)
    if (!closed || ref.name === '') ref.recovered = true;
    return ref;
  }
  return { name: tok.image, quoted: false, start: tok.startOffset, end: endOf(tok) };
}

function scalarValue(tok: IToken): Recovered<ScalarValue> {
  const start = tok.startOffset;
  const end = endOf(tok);
  if (inserted(tok)) return { kind: 'string', value: '', start: NaN, end: NaN, recovered: true };
  const type: TokenType = tok.tokenType;
  if (type === StringLiteral) {
    const decoded = decodeString(tok.image);
    const v: Recovered<ScalarValue> = { kind: 'string', value: decoded.value, start, end };
    if (decoded.error) v.recovered = true;
    return v;
  }
  if (type === SingleQuoted) {
    // reported as a syntax error (parse.ts); an unterminated one is not checked further
    const closed = tok.image.length > 1 && tok.image.endsWith("'");
    const v: Recovered<ScalarValue> = { kind: 'string', value: tok.image.slice(1, closed ? -1 : undefined), start, end };
    if (!closed) v.recovered = true;
    return v;
  }
  if (type === IntLiteral) return { kind: 'int', raw: tok.image, start, end };
  if (type === FloatLiteral) return { kind: 'float', raw: tok.image, start, end };
  return { kind: 'bool', value: type === True, start, end };
}

let instance: FilterParser | undefined;
let plain: FilterParser | undefined;

/**
 * Recovery re-synchronises after each error by scanning ahead, which on large broken texts costs far more
 * than parsing. Filters are at most about 1000 bytes (some 150 tokens); past this many tokens the text is
 * parsed without recovery and reports its first syntax error only.
 */
export const RECOVERY_TOKEN_LIMIT = 3000;

/** The parser instance (DESIGN principle 5); a second one without recovery is built only for huge texts. */
export function getParser(tokenCount = 0): FilterParser {
  if (tokenCount > RECOVERY_TOKEN_LIMIT) {
    plain ??= new FilterParser(false, false);
    return plain;
  }
  instance ??= new FilterParser(false);
  return instance;
}

/** Builds a parser with Chevrotain's grammar validations on (for the test that runs them). */
export function createValidatedParser(): FilterParser {
  return new FilterParser(true);
}

export { EOF };
// the string decoder lives in strings.ts, where the fast path reads it without Chevrotain
export { decodeString, type StringProblem } from './strings.js';
export type { FilterParser };
