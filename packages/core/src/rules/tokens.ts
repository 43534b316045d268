/**
 * Tokens of the rules language. Chevrotain lexes; three custom matchers carry the language's context:
 * a quoted string right after `matches`/`~` is a regex literal (inside a `[…]` class a `"` does not end it),
 * raw strings end at a `"` followed by as many `#` as opened them, and a single-quoted run is kept as one
 * token so the parser can say "use double quotes" instead of tripping over each character.
 *
 * Unquoted values (integers, IPs, CIDRs, ranges, hex bytes) and dotted identifiers share one `Word` token:
 * only the type of the left-hand side tells `10.0.0.1` (an IP) from `de.ad` (two bytes), so the checker reads
 * each word as a literal of the type it meets (the language's own lexer is typed the same way).
 */
import { createToken, type CustomPatternMatcherReturn, type IToken, Lexer, type TokenType } from 'chevrotain';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS } from './operators.js';

/** Space, CR and LF separate tokens; nothing else does (tabs are an error between tokens). */
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \r\n]+/, group: Lexer.SKIPPED });
/** Tabs and other Unicode spaces: reported, then skipped so that parsing goes on. */
export const BadSpace = createToken({
  name: 'BadSpace',
  pattern: /[\t\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/,
  group: 'badSpace',
});

/** Word characters: identifiers and unquoted literals (digits, hex, `.` `:` `/` `-` of IPs, ranges, bytes). */
const WORD_CHAR = /[A-Za-z0-9_:./-]/;
export const Word = createToken({ name: 'Word', pattern: /[A-Za-z0-9_:./-]+/ });

const REGEX_OPERATORS = new Set(['Op_matches', 'Op_~']);

function quotedMatcher(text: string, offset: number, tokens: IToken[]): CustomPatternMatcherReturn | null {
  if (text.charCodeAt(offset) !== 34) return null;
  const prev = tokens[tokens.length - 1];
  const regex = prev !== undefined && REGEX_OPERATORS.has(prev.tokenType.name);
  let i = offset + 1;
  let inClass = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (regex) {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']' && inClass) inClass = false;
    }
    if (c === '"' && !inClass) return [text.slice(offset, i + 1)];
    i++;
  }
  // unterminated: the rest of the input, reported by the checker ("could not find an ending quote")
  return [text.slice(offset, Math.min(i, text.length))];
}

function rawMatcher(text: string, offset: number): CustomPatternMatcherReturn | null {
  if (text[offset] !== 'r') return null;
  let i = offset + 1;
  while (text[i] === '#') i++;
  const hashes = i - offset - 1;
  if (text[i] !== '"') {
    // `r#…` without a quote is a broken raw string; a plain `r…` is a word
    return hashes > 0 ? [text.slice(offset, i)] : null;
  }
  const close = '"' + '#'.repeat(hashes);
  const end = text.indexOf(close, i + 1);
  return [end < 0 ? text.slice(offset) : text.slice(offset, end + close.length)];
}

export const QuotedString = createToken({
  name: 'QuotedString',
  pattern: { exec: quotedMatcher },
  line_breaks: true,
  start_chars_hint: ['"'],
});
export const RawString = createToken({
  name: 'RawString',
  pattern: { exec: rawMatcher },
  line_breaks: true,
  start_chars_hint: ['r'],
});
/** `'…'`: not a string in the language; one token so that it gets one precise diagnostic. */
export const SingleQuoted = createToken({ name: 'SingleQuoted', pattern: /'[^'\r\n]*'?/ });

export const LParen = createToken({ name: 'LParen', pattern: '(' });
export const RParen = createToken({ name: 'RParen', pattern: ')' });
export const LBracket = createToken({ name: 'LBracket', pattern: '[' });
export const RBracket = createToken({ name: 'RBracket', pattern: ']' });
export const LBrace = createToken({ name: 'LBrace', pattern: '{' });
export const RBrace = createToken({ name: 'RBrace', pattern: '}' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });
export const Dollar = createToken({ name: 'Dollar', pattern: '$' });
export const Star = createToken({ name: 'Star', pattern: '*' });

/** Every comparison operator token belongs to this category; its image is looked up in the operator table. */
export const Comparison = createToken({ name: 'Comparison', pattern: Lexer.NA });
export const And = createToken({ name: 'And', pattern: Lexer.NA });
export const Xor = createToken({ name: 'Xor', pattern: Lexer.NA });
export const Or = createToken({ name: 'Or', pattern: Lexer.NA });
export const Not = createToken({ name: 'Not', pattern: Lexer.NA });
export const Quantifier = createToken({ name: 'Quantifier', pattern: Lexer.NA });

const LOGICAL_CATEGORY = { and: And, xor: Xor, or: Or, not: Not } as const;

/** Word spellings are keywords only as whole words (`eqx` is a word); symbols are plain strings. */
function spelling(image: string, category: TokenType): TokenType {
  const word = WORD_CHAR.test(image[0]);
  return createToken({
    name: `Op_${image}`,
    pattern: image === 'strict wildcard' ? /strict wildcard/ : image,
    categories: [category],
    ...(word ? { longer_alt: Word } : {}),
  });
}

const spellings: { image: string; category: TokenType }[] = [
  ...COMPARISON_OPERATORS.flatMap((o) => [{ image: o.word, category: Comparison }, ...(o.symbol ? [{ image: o.symbol, category: Comparison }] : [])]),
  ...LOGICAL_OPERATORS.flatMap((o) => [
    { image: o.word, category: LOGICAL_CATEGORY[o.word] },
    { image: o.symbol, category: LOGICAL_CATEGORY[o.word] },
  ]),
  { image: 'any', category: Quantifier },
  { image: 'all', category: Quantifier },
];
// longest first, so `<=` wins over `<`, `!=` over `!`, `&&` over `&`
spellings.sort((a, b) => b.image.length - a.image.length);
export const operatorTokens: TokenType[] = spellings.map((s) => spelling(s.image, s.category));

export const allTokens: TokenType[] = [
  WhiteSpace,
  BadSpace,
  QuotedString,
  RawString,
  SingleQuoted,
  ...operatorTokens,
  Word,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Dollar,
  Star,
  Comparison,
  And,
  Xor,
  Or,
  Not,
  Quantifier,
];

let lexer: Lexer | undefined;
/** The one lexer instance; Chevrotain's validations run in a test. */
export function getRuleLexer(): Lexer {
  lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', skipValidations: true, ensureOptimizations: false });
  return lexer;
}

export function createValidatedRuleLexer(): Lexer {
  return new Lexer(allTokens, { positionTracking: 'onlyOffset', skipValidations: false });
}
