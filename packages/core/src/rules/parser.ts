/**
 * The Chevrotain parser of the rules language (embedded actions build the tree directly). One instance,
 * built once; Chevrotain's grammar validations run in a test. Recovery is on, so one text can report
 * several syntax errors; rules that recovery abandons return undefined and their parents drop them.
 *
 * Precedence (tightest first): not, and, xor, or; chains of one operator become one n-ary node. An argument
 * of a function or quantifier is ONE comparison unless it starts with `(`, `not` or a quantifier, as in
 * the reference grammar (`any(a[*] eq 1 and b)` is an error).
 */
import type { IToken } from 'chevrotain';
import { RecoveringParser } from '../lang/chevrotain.js';
import type { RuleComparison, RuleExpr, RuleIndex, RuleIndexExpr, RuleLiteral, RuleRhs, RuleSpan, Spelled } from './ast.js';
import { RULE_SETTINGS } from './settings.js';
import * as T from './tokens.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const RECOVER_UNDEFINED = { recoveryValueFunc: (): any => undefined };

const inserted = (t: IToken | undefined) => t === undefined || t.isInsertedInRecovery === true || Number.isNaN(t.startOffset);
const endOf = (t: IToken) => t.startOffset + t.image.length;
const spelled = (t: IToken): Spelled => ({ image: t.image, start: t.startOffset, end: endOf(t) });
const span = (a: RuleSpan | undefined, b: RuleSpan | undefined): RuleSpan => ({ start: a?.start ?? b?.start ?? 0, end: b?.end ?? a?.end ?? 0 });

function literalOf(t: IToken): RuleLiteral {
  const form = t.tokenType === T.QuotedString ? 'quoted' : t.tokenType === T.RawString ? 'raw' : t.tokenType === T.SingleQuoted ? 'single' : 'bare';
  return { form, image: t.image, start: t.startOffset, end: endOf(t) };
}

export class RuleParser extends RecoveringParser {
  constructor(validate: boolean) {
    super(T.allTokens, RULE_SETTINGS.maxParserErrors, { validate });
    this.performSelfAnalysis();
  }

  filter = this.RULE('filter', (): RuleExpr | undefined => this.SUBRULE(this.orExpr), RECOVER_UNDEFINED);

  value = this.RULE('value', (): RuleIndexExpr | undefined => this.SUBRULE(this.indexExpr), RECOVER_UNDEFINED);

  orExpr = this.RULE('orExpr', (): RuleExpr => this.chain(T.Or, 'or', () => this.SUBRULE(this.xorExpr), () => this.SUBRULE2(this.xorExpr)), RECOVER_UNDEFINED);
  xorExpr = this.RULE('xorExpr', (): RuleExpr => this.chain(T.Xor, 'xor', () => this.SUBRULE(this.andExpr), () => this.SUBRULE2(this.andExpr)), RECOVER_UNDEFINED);
  andExpr = this.RULE('andExpr', (): RuleExpr => this.chain(T.And, 'and', () => this.SUBRULE(this.unary), () => this.SUBRULE2(this.unary)), RECOVER_UNDEFINED);

  private chain(tok: typeof T.And, op: 'and' | 'xor' | 'or', first: () => RuleExpr, next: () => RuleExpr): RuleExpr {
    const operands: (RuleExpr | undefined)[] = [first()];
    const ops: Spelled[] = [];
    this.MANY(() => {
      const t = this.CONSUME(tok);
      ops.push(spelled(t));
      operands.push(next());
    });
    return this.ACTION(() => {
      const ok = operands.filter((o): o is RuleExpr => o !== undefined);
      if (ok.length === 1 && ops.length === 0) return ok[0];
      return { kind: 'logical', op, operands: ok, ops, ...span(ok[0], ok[ok.length - 1]) } as RuleExpr;
    });
  }

  unary = this.RULE(
    'unary',
    (): RuleExpr =>
      this.OR([
        {
          ALT: () => {
            const t = this.CONSUME(T.Not);
            const operand = this.SUBRULE(this.unary);
            return this.ACTION(() => (operand ? ({ kind: 'not', token: spelled(t), operand, start: t.startOffset, end: operand.end } as RuleExpr) : (undefined as unknown as RuleExpr)));
          },
        },
        { ALT: () => this.SUBRULE(this.simple) },
      ]),
    RECOVER_UNDEFINED,
  );

  simple = this.RULE(
    'simple',
    (): RuleExpr =>
      this.OR([
        { ALT: () => this.SUBRULE(this.group) },
        { ALT: () => this.SUBRULE(this.quantifier) },
        { ALT: () => this.SUBRULE(this.comparison) },
      ]),
    RECOVER_UNDEFINED,
  );

  group = this.RULE(
    'group',
    (): RuleExpr => {
      const open = this.CONSUME(T.LParen);
      const inner = this.SUBRULE(this.orExpr);
      const close = this.CONSUME(T.RParen);
      return this.ACTION(() => (inner ? ({ kind: 'group', inner, start: open.startOffset, end: inserted(close) ? inner.end : endOf(close) } as RuleExpr) : (undefined as unknown as RuleExpr)));
    },
    RECOVER_UNDEFINED,
  );

  quantifier = this.RULE(
    'quantifier',
    (): RuleExpr => {
      const name = this.CONSUME(T.Quantifier);
      this.CONSUME(T.LParen);
      const arg = this.SUBRULE(this.argument);
      const close = this.CONSUME(T.RParen);
      return this.ACTION(() => (arg ? ({ kind: 'quantifier', name: spelled(name), arg, start: name.startOffset, end: inserted(close) ? arg.end : endOf(close) } as RuleExpr) : (undefined as unknown as RuleExpr)));
    },
    RECOVER_UNDEFINED,
  );

  /** One argument of a call or quantifier. */
  argument = this.RULE(
    'argument',
    (): RuleExpr =>
      this.OR([
        { ALT: () => this.SUBRULE(this.group) },
        {
          ALT: () => {
            const t = this.CONSUME(T.Not);
            const operand = this.SUBRULE(this.unary);
            return this.ACTION(() => (operand ? ({ kind: 'not', token: spelled(t), operand, start: t.startOffset, end: operand.end } as RuleExpr) : (undefined as unknown as RuleExpr)));
          },
        },
        { ALT: () => this.SUBRULE(this.quantifier) },
        {
          ALT: () => {
            const t = this.OR2([{ ALT: () => this.CONSUME(T.QuotedString) }, { ALT: () => this.CONSUME(T.RawString) }, { ALT: () => this.CONSUME(T.SingleQuoted) }]);
            return this.ACTION(() => ({ kind: 'literal', literal: literalOf(t), start: t.startOffset, end: endOf(t) }) as RuleExpr);
          },
        },
        { ALT: () => this.SUBRULE(this.comparison) },
      ]),
    RECOVER_UNDEFINED,
  );

  comparison = this.RULE(
    'comparison',
    (): RuleExpr => {
      const lhs = this.SUBRULE(this.indexExpr);
      let op: Spelled | undefined;
      let rhs: RuleRhs | undefined;
      this.OPTION(() => {
        const t = this.CONSUME(T.Comparison);
        op = this.ACTION(() => spelled(t));
        this.OPTION2(() => {
          rhs = this.SUBRULE(this.rhs);
        });
      });
      return this.ACTION(() => {
        if (!lhs) return undefined as unknown as RuleExpr;
        const node: RuleComparison = { kind: 'comparison', lhs, start: lhs.start, end: rhs?.end ?? op?.end ?? lhs.end };
        if (op) node.op = op;
        if (rhs) node.rhs = rhs;
        return node;
      });
    },
    RECOVER_UNDEFINED,
  );

  indexExpr = this.RULE(
    'indexExpr',
    (): RuleIndexExpr => {
      const name = this.CONSUME(T.Word);
      let args: RuleExpr[] | undefined;
      let callEnd = endOf(name);
      this.OPTION(() => {
        this.CONSUME(T.LParen);
        args = [];
        this.OPTION2(() => {
          args!.push(this.SUBRULE(this.argument));
          this.MANY(() => {
            this.CONSUME(T.Comma);
            args!.push(this.SUBRULE2(this.argument));
          });
        });
        const close = this.CONSUME(T.RParen);
        this.ACTION(() => {
          callEnd = inserted(close) ? (args!.length ? (args![args!.length - 1]?.end ?? callEnd) : callEnd) : endOf(close);
        });
      });
      const indexes: RuleIndex[] = [];
      this.MANY2(() => {
        const open = this.CONSUME(T.LBracket);
        let each = false;
        let literal: RuleLiteral | undefined;
        this.OR([
          { ALT: () => ((each = true), this.CONSUME(T.Star)) },
          {
            ALT: () => {
              const t = this.OR2([
                { ALT: () => this.CONSUME(T.QuotedString) },
                { ALT: () => this.CONSUME(T.RawString) },
                { ALT: () => this.CONSUME(T.SingleQuoted) },
                { ALT: () => this.CONSUME2(T.Word) },
              ]);
              literal = this.ACTION(() => literalOf(t));
            },
          },
        ]);
        const close = this.CONSUME(T.RBracket);
        this.ACTION(() => indexes.push({ each, ...(literal ? { literal } : {}), start: open.startOffset, end: inserted(close) ? (literal?.end ?? endOf(open) ) : endOf(close) }));
      });
      return this.ACTION(() => {
        // a name that recovery inserted has no place in the text: nothing to check
        if (inserted(name)) return undefined as unknown as RuleIndexExpr;
        const base =
          args === undefined
            ? ({ kind: 'ident', name: name.image, start: name.startOffset, end: endOf(name) } as const)
            : ({ kind: 'call', name: name.image, nameStart: name.startOffset, nameEnd: endOf(name), args: args.filter((a) => a !== undefined), start: name.startOffset, end: callEnd } as const);
        return { base, indexes, start: name.startOffset, end: indexes.length ? indexes[indexes.length - 1].end : base.end };
      });
    },
    RECOVER_UNDEFINED,
  );

  rhs = this.RULE(
    'rhs',
    (): RuleRhs =>
      this.OR([
        {
          ALT: () => {
            const t = this.OR2([
              { ALT: () => this.CONSUME(T.QuotedString) },
              { ALT: () => this.CONSUME(T.RawString) },
              { ALT: () => this.CONSUME(T.SingleQuoted) },
              { ALT: () => this.CONSUME(T.Word) },
            ]);
            return this.ACTION(() => ({ kind: 'literal', literal: literalOf(t), start: t.startOffset, end: endOf(t) }) as RuleRhs);
          },
        },
        {
          ALT: () => {
            const open = this.CONSUME(T.LBrace);
            const items: RuleLiteral[] = [];
            const commas: RuleSpan[] = [];
            let end = endOf(open);
            this.MANY(() => {
              const t = this.OR3([
                { ALT: () => this.CONSUME2(T.QuotedString) },
                { ALT: () => this.CONSUME2(T.RawString) },
                { ALT: () => this.CONSUME2(T.SingleQuoted) },
                { ALT: () => this.CONSUME2(T.Word) },
                { ALT: () => this.CONSUME(T.Comma) },
              ]);
              this.ACTION(() => {
                end = endOf(t);
                if (t.tokenType === T.Comma) commas.push({ start: t.startOffset, end: endOf(t) });
                else items.push(literalOf(t));
              });
            });
            let closed = false;
            // a missing `}` is the checker's to report: what the language says there depends on the item type
            this.OPTION(() => {
              const c = this.CONSUME(T.RBrace);
              this.ACTION(() => {
                closed = true;
                end = endOf(c);
              });
            });
            return this.ACTION(() => ({ kind: 'list', items, commas, closed, start: open.startOffset, end }) as RuleRhs);
          },
        },
        {
          ALT: () => {
            const d = this.CONSUME(T.Dollar);
            let name = '';
            let end = endOf(d);
            this.OPTION2(() => {
              const w = this.CONSUME3(T.Word);
              this.ACTION(() => {
                // `$name` is one token in the language: a space after `$` is not allowed
                if (w.startOffset === end) {
                  name = w.image;
                  end = endOf(w);
                }
              });
            });
            return this.ACTION(() => ({ kind: 'named-list', name, start: d.startOffset, end }) as RuleRhs);
          },
        },
      ]),
    RECOVER_UNDEFINED,
  );
}

let parser: RuleParser | undefined;
export function getRuleParser(): RuleParser {
  parser ??= new RuleParser(false);
  return parser;
}
