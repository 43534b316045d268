/**
 * Tokens of the language. Operator tokens are generated from the operator table, so a new spelling in the
 * table is a new token here, in the grammar and in completion without further edits.
 */
import { createToken, Lexer, type TokenType } from 'chevrotain';
import { OPERATORS } from '../operators.js';
import { IDENTIFIER_SOURCE, KEYWORDS } from './field-names.js';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: 'Comment', pattern: /#[^\r\n]*/, group: 'comments' });

export const Identifier = createToken({ name: 'Identifier', pattern: new RegExp(IDENTIFIER_SOURCE) });
/** A backquoted field name for keys outside the identifier form. Unterminated ones are reported by the parser. */
export const QuotedIdentifier = createToken({ name: 'QuotedIdentifier', pattern: /`[^`\r\n]*`?/ });
/**
 * Strings: JSON escapes are validated when the value is decoded, so that a bad escape gets a precise
 * diagnostic instead of a lexer error that swallows the rest of the line. A missing closing quote is
 * tolerated here and reported by the parser.
 */
// A backslash just before a line break or the end is taken into the (unterminated) string: left out, it was a
// second error, an unexpected character.
export const StringLiteral = createToken({ name: 'StringLiteral', pattern: /"(?:[^"\\\r\n]|\\[^\r\n])*\\?"?/ });
export const FloatLiteral = createToken({ name: 'FloatLiteral', pattern: /-?[0-9]+\.[0-9]+/ });
export const IntLiteral = createToken({ name: 'IntLiteral', pattern: /-?[0-9]+/, longer_alt: FloatLiteral });

export const LParen = createToken({ name: 'LParen', pattern: '(' });
export const RParen = createToken({ name: 'RParen', pattern: ')' });
export const LBracket = createToken({ name: 'LBracket', pattern: '[' });
export const RBracket = createToken({ name: 'RBracket', pattern: ']' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });

// Keywords are plain strings with `longer_alt: Identifier` (no look-ahead in the pattern), which keeps
// Chevrotain's first-character optimisation on: the lexer then runs at tens of MB/s.
function keyword(word: string, name = `Kw_${word}`): TokenType {
  return createToken({ name, pattern: word, longer_alt: Identifier });
}

const keywordTokens: Record<string, TokenType> = Object.fromEntries(KEYWORDS.map((w) => [w, keyword(w)]));
export const Dataset = keywordTokens.dataset;
export const And = keywordTokens.and;
export const Or = keywordTokens.or;
export const Not = keywordTokens.not;
export const True = keywordTokens.true;
export const False = keywordTokens.false;

/** Every operator token belongs to this category; the token's image is looked up in the operator table. */
export const OperatorToken = createToken({ name: 'Operator', pattern: Lexer.NA });
/** Positive word operators that `not` may precede (`not in`, `not startsWith`, ...). */
export const NotableOperator = createToken({ name: 'NotableOperator', pattern: Lexer.NA, categories: [OperatorToken] });

/**
 * Spellings that are not operators but that people type (`=`, `&&`, `||`, `!foo`): one token, so the
 * parser reports them once with a "did you mean".
 */
export const BadOperator = createToken({ name: 'BadOperator', pattern: /![A-Za-z_][A-Za-z0-9_]*|!|&&|\|\||=|<>/ });

/** A string in single quotes, as SQL writes it: one token, so the parser reports it once, with a fix to double quotes. */
export const SingleQuoted = createToken({ name: 'SingleQuoted', pattern: /'[^'\r\n]*'?/ });

/** Operator tokens, longest spellings first so `<=` wins over `<` and `!startsWith` over `!=`. */
export const operatorTokens: TokenType[] = (() => {
  const spellings = OPERATORS.flatMap((o) => [
    ...(o.symbol ? [{ s: o.symbol, word: false, notable: false }] : []),
    ...o.words.map((w) => ({ s: w, word: true, notable: OPERATORS.some((p) => p.notForm === w) })),
  ]);
  spellings.sort((a, b) => b.s.length - a.s.length);
  return spellings.map(({ s, word, notable }) =>
    createToken({
      name: `Op_${s}`,
      pattern: s,
      categories: [notable ? NotableOperator : OperatorToken],
      // `<` must not win over the longer non-operator `<>`, which is reported with the operator meant
      ...(word ? { longer_alt: s.startsWith('!') ? BadOperator : Identifier } : { longer_alt: BadOperator }),
    }),
  );
})();


export const allTokens: TokenType[] = [
  WhiteSpace,
  Comment,
  ...operatorTokens,
  BadOperator,
  Dataset,
  And,
  Or,
  Not,
  True,
  False,
  Identifier,
  QuotedIdentifier,
  StringLiteral,
  SingleQuoted,
  FloatLiteral,
  IntLiteral,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  OperatorToken,
  NotableOperator,
];

/** Keywords (for completion, the grammar and the "keywords are lower-case" hint); defined with the field-name rules. */
export { KEYWORDS };

let lexer: Lexer | undefined;
/** The one lexer instance; validations run in a test (DESIGN principle 5), not at every start. */
export function getLexer(): Lexer {
  lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', skipValidations: true, ensureOptimizations: false });
  return lexer;
}

/** For the test that runs Chevrotain's validations. */
export function createValidatedLexer(): Lexer {
  return new Lexer(allTokens, { positionTracking: 'onlyOffset', skipValidations: false });
}
