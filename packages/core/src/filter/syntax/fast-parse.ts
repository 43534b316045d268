/**
 * The fast path of the core's parse() (parse-with-fast-path.ts): a hand-written lexer and recursive-descent parser for filters without a
 * syntax problem. It returns exactly the tree the reference parser (parse.ts, Chevrotain's; the
 * reference of docs/language.md's grammar) returns for the same text — the same nodes, offsets and comments, and no
 * diagnostics — or undefined: on any text the reference would report something about, and on anything it is
 * not sure of. parse() then runs the reference, which alone does error recovery and diagnostics.
 *
 * It exists for start-up: building Chevrotain's lexer and parser costs ~15 ms of CPU on every start of
 * `compile-filter` and `logfilter eval` (bench/startup.bench.mjs), parsing a 1000-byte filter here some µs. The
 * tokens mirror tokens.ts rule for rule (noted at each); packages/core/test/syntax/fast-parse.test.ts holds
 * the two parsers equal on the corpus, the docs' examples and generated valid and near-valid filters.
 */
import type { Comment, Condition, Expr, FieldRef, FileNode, ListValue, OperatorRef, ScalarValue } from '../ast.js';
import { FILTER_PARSER_SETTINGS } from '../limits.js';
import { NOT_FORMS, OPERATOR_BY_SPELLING, type OperatorInfo } from '../operators.js';
import type { ParseResult } from './parse.js';
import { decodeString } from './strings.js';

/** Token kinds; an operator token also carries its table entry (OPS[i]). */
const enum K {
  Identifier,
  QuotedIdentifier,
  String,
  Int,
  Float,
  Operator,
  Dataset,
  And,
  Or,
  Not,
  True,
  False,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  End,
}

/**
 * Words that lex as keywords (tokens.ts: each keyword is its word with `longer_alt: Identifier`, so only the
 * whole word is one). No operator word or keyword is a prefix of another keyword, so a word is an operator, a
 * keyword or an Identifier by its whole spelling.
 */
const KEYWORD_KINDS: ReadonlyMap<string, K> = new Map([
  ['dataset', K.Dataset],
  ['and', K.And],
  ['or', K.Or],
  ['not', K.Not],
  ['true', K.True],
  ['false', K.False],
]);

/** Thrown to give the text to the reference parser; never leaves this module. */
/** The one-character tokens, by character code: `(` `)` `[` `]` `,`. */
const PUNCTUATION_KINDS: ReadonlyMap<number, K> = new Map([
  [40, K.LParen],
  [41, K.RParen],
  [91, K.LBracket],
  [93, K.RBracket],
  [44, K.Comma],
]);

const GIVE_UP = Symbol('give up');

class Tokens {
  kinds: K[] = [];
  starts: number[] = [];
  ends: number[] = [];
  ops: (OperatorInfo | undefined)[] = [];
  comments: Comment[] = [];

  push(kind: K, start: number, end: number, op?: OperatorInfo): void {
    this.kinds.push(kind);
    this.starts.push(start);
    this.ends.push(end);
    this.ops.push(op);
  }
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number) => isIdentStart(c) || isDigit(c);
/** tokens.ts WhiteSpace: [ \t\r\n\f\v\u00a0\ufeff]. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;

/** The tokens of `text`, as Chevrotain's lexer splits them with tokens.ts; throws GIVE_UP where it would differ or fail. */
function lex(text: string): Tokens {
  const t = new Tokens();
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const start = i;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 35 /* # */) {
      // Comment: #[^\r\n]*
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      t.comments.push({ text: text.slice(start, i), start, end: i });
      continue;
    }
    if (isIdentStart(c)) {
      // operator words and keywords match only as a whole word (their longer_alt is Identifier)
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      const word = text.slice(start, i);
      const op = OPERATOR_BY_SPELLING.get(word);
      if (op) t.push(K.Operator, start, i, op);
      else t.push(KEYWORD_KINDS.get(word) ?? K.Identifier, start, i);
      continue;
    }
    if (isDigit(c) || (c === 45 /* - */ && isDigit(text.charCodeAt(i + 1)))) {
      // FloatLiteral -?[0-9]+\.[0-9]+ is tried first, then IntLiteral -?[0-9]+
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) === 46 /* . */ && isDigit(text.charCodeAt(i + 1))) {
        i += 2;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
        t.push(K.Float, start, i);
      } else t.push(K.Int, start, i);
      continue;
    }
    switch (c) {
      case 34 /* " */: {
        // StringLiteral "(?:[^"\\\r\n]|\\[^\r\n])*"? — a missing closing quote or a bad escape is a diagnostic
        i++;
        for (;;) {
          const d = text.charCodeAt(i);
          if (i >= n || d === 10 || d === 13) throw GIVE_UP;
          if (d === 34) break;
          if (d === 92 /* \ */) {
            const e = text.charCodeAt(i + 1);
            if (i + 1 >= n || e === 10 || e === 13) throw GIVE_UP;
            i += 2;
          } else i++;
        }
        i++;
        t.push(K.String, start, i);
        continue;
      }
      case 96 /* ` */: {
        // QuotedIdentifier `[^`\r\n]*`? — unterminated and empty names are diagnostics
        i++;
        while (i < n && text.charCodeAt(i) !== 96 && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
        if (text.charCodeAt(i) !== 96 || i === start + 1) throw GIVE_UP;
        i++;
        t.push(K.QuotedIdentifier, start, i);
        continue;
      }
    }
    const punct = PUNCTUATION_KINDS.get(c);
    if (punct !== undefined) {
      t.push(punct, start, ++i);
      continue;
    }
    // Symbol operators, longest first (`<=` before `<`), and the `!` words (`!in`): a `!` word that is not an
    // operator, a lone `=`, `&&` and the like are BadOperator tokens, which the reference reports.
    let end = i + 1;
    if (c === 33 /* ! */ && isIdentStart(text.charCodeAt(end))) {
      while (end < n && isIdentPart(text.charCodeAt(end))) end++;
    } else if ((c === 33 || c === 60 || c === 61 || c === 62) && text.charCodeAt(end) === 61 /* = */) end++;
    const op = OPERATOR_BY_SPELLING.get(text.slice(start, end));
    if (!op) throw GIVE_UP;
    t.push(K.Operator, start, end, op);
    i = end;
  }
  t.push(K.End, n, n);
  return t;
}

/** The reference refuses more than this many open groups plus chained `not`s (tooDeepToken in lang/chevrotain.ts). */
function tooDeep(t: Tokens): boolean {
  let depth = 0;
  let nots = 0;
  for (const k of t.kinds) {
    if (k === K.LParen) depth++;
    else if (k === K.RParen) depth = Math.max(0, depth - 1);
    if (k === K.Not) nots++;
    else if (k !== K.LParen) nots = 0;
    if (depth + nots > FILTER_PARSER_SETTINGS.maxParseDepth) return true;
  }
  return false;
}

/** The grammar of parser.ts, rule for rule, on tokens that all lexed cleanly. */
class Parser {
  private p = 0;
  readonly conditions: Condition[] = [];

  constructor(
    private readonly text: string,
    private readonly t: Tokens,
  ) {}

  private get kind(): K {
    return this.t.kinds[this.p];
  }

  private expect(kind: K): number {
    if (this.t.kinds[this.p] !== kind) throw GIVE_UP;
    return this.p++;
  }

  private image(i: number): string {
    return this.text.slice(this.t.starts[i], this.t.ends[i]);
  }

  file(): FileNode {
    const { t, text } = this;
    const file: FileNode = { kind: 'file', comments: t.comments, start: 0, end: text.length };
    if (this.kind === K.Dataset) {
      const kw = this.p++;
      const name = this.expect(K.Identifier);
      file.dataset = { name: this.image(name), start: t.starts[kw], end: t.ends[name], nameStart: t.starts[name], nameEnd: t.ends[name] };
    }
    if (this.kind !== K.End) file.expr = this.orExpr();
    this.expect(K.End);
    return file;
  }

  private orExpr(): Expr {
    const items = [this.andExpr()];
    while (this.kind === K.Or) {
      this.p++;
      items.push(this.andExpr());
    }
    return logical('or', items);
  }

  private andExpr(): Expr {
    const items = [this.unary()];
    while (this.kind === K.And) {
      this.p++;
      items.push(this.unary());
    }
    return logical('and', items);
  }

  private unary(): Expr {
    const { t } = this;
    if (this.kind === K.Not) {
      const kw = this.p++;
      const expr = this.unary();
      return { kind: 'not', expr, start: t.starts[kw], end: expr.end };
    }
    if (this.kind === K.LParen) {
      const open = this.p++;
      const expr = this.orExpr();
      const close = this.expect(K.RParen);
      return { kind: 'group', expr, start: t.starts[open], end: t.ends[close] };
    }
    return this.condition();
  }

  private condition(): Condition {
    const field = this.field();
    const operator = this.operator();
    const value = this.kind === K.LBracket ? this.list() : this.scalar();
    const node: Condition = { kind: 'condition', field, operator, value, start: field.start, end: value.end };
    this.conditions.push(node);
    return node;
  }

  private field(): FieldRef {
    const { t } = this;
    const i = this.p;
    if (this.kind === K.Identifier) {
      this.p++;
      return { name: this.image(i), quoted: false, start: t.starts[i], end: t.ends[i] };
    }
    this.expect(K.QuotedIdentifier);
    return { name: this.text.slice(t.starts[i] + 1, t.ends[i] - 1), quoted: true, start: t.starts[i], end: t.ends[i] };
  }

  private operator(): OperatorRef {
    const { t } = this;
    if (this.kind === K.Not) {
      // `not` + one of the positive words that have a `not` form (NotableOperator in tokens.ts)
      const not = this.p++;
      const word = this.expect(K.Operator);
      const info = NOT_FORMS.get(this.image(word));
      if (!info) throw GIVE_UP;
      return { name: info.name, spelling: `not ${this.image(word)}`, start: t.starts[not], end: t.ends[word] };
    }
    const i = this.expect(K.Operator);
    return { name: t.ops[i]!.name, spelling: this.image(i), start: t.starts[i], end: t.ends[i] };
  }

  private list(): ListValue {
    const { t } = this;
    const open = this.p++;
    const items: ScalarValue[] = [];
    if (this.kind !== K.RBracket) {
      items.push(this.scalar());
      // one trailing comma is allowed (`[1,]`), an empty slot (`[1,,2]`, `[1,,]`) is not, as in parser.ts: a comma
      // not followed by a scalar must be the last thing before `]`, which `expect` below insists on
      while (this.kind === K.Comma) {
        this.p++;
        if (!isScalar(this.kind)) break;
        items.push(this.scalar());
      }
    }
    const close = this.expect(K.RBracket);
    return { kind: 'list', items, start: t.starts[open], end: t.ends[close] };
  }

  private scalar(): ScalarValue {
    const { t } = this;
    const i = this.p;
    const start = t.starts[i];
    const end = t.ends[i];
    switch (this.kind) {
      case K.String: {
        this.p++;
        const decoded = decodeString(this.image(i));
        if (decoded.error) throw GIVE_UP;
        return { kind: 'string', value: decoded.value, start, end };
      }
      case K.Int:
        this.p++;
        return { kind: 'int', raw: this.image(i), start, end };
      case K.Float:
        this.p++;
        return { kind: 'float', raw: this.image(i), start, end };
      case K.True:
      case K.False:
        this.p++;
        return { kind: 'bool', value: t.kinds[i] === K.True, start, end };
    }
    throw GIVE_UP;
  }
}

const isScalar = (k: K) => k === K.String || k === K.Int || k === K.Float || k === K.True || k === K.False;

function logical(kind: 'and' | 'or', items: Expr[]): Expr {
  return items.length === 1 ? items[0] : { kind, items, start: items[0].start, end: items[items.length - 1].end };
}

/** The reference parser's result for `text` when it has no syntax diagnostic; undefined when not sure. */
export function fastParse(text: string): ParseResult | undefined {
  try {
    const tokens = lex(text);
    if (tooDeep(tokens)) return undefined;
    const parser = new Parser(text, tokens);
    const file = parser.file();
    return { file, diagnostics: [], conditions: parser.conditions };
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}
