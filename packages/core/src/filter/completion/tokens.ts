/**
 * A flat view of the lexer's tokens for the editor features (completion, hover, highlighting): they need
 * the kind and offsets of each token, comments included, and must work on text that does not parse.
 */
import type { TokenType } from 'chevrotain';
import * as T from '../syntax/tokens.js';
import { OPERATOR_BY_SPELLING, type OperatorInfo } from '../operators.js';

export type TokenKind =
  | 'dataset'
  | 'and'
  | 'or'
  | 'not'
  | 'true'
  | 'false'
  | 'operator'
  | 'identifier'
  | 'quoted-identifier'
  | 'string'
  | 'int'
  | 'float'
  | 'lparen'
  | 'rparen'
  | 'lbracket'
  | 'rbracket'
  | 'comma'
  | 'comment'
  | 'bad';

export interface EditorToken {
  kind: TokenKind;
  image: string;
  /** UTF-16 offset, inclusive. */
  start: number;
  /** UTF-16 offset, exclusive. */
  end: number;
  /** For `operator` tokens: what the spelling means. */
  operator?: OperatorInfo;
}

/** The editor kind of each lexer token type (operator tokens are looked up in the operator table instead). */
const KIND_BY_TOKEN_TYPE: ReadonlyMap<TokenType, TokenKind> = new Map<TokenType, TokenKind>([
  [T.Dataset, 'dataset'],
  [T.And, 'and'],
  [T.Or, 'or'],
  [T.Not, 'not'],
  [T.True, 'true'],
  [T.False, 'false'],
  [T.Identifier, 'identifier'],
  [T.QuotedIdentifier, 'quoted-identifier'],
  [T.StringLiteral, 'string'],
  [T.IntLiteral, 'int'],
  [T.FloatLiteral, 'float'],
  [T.LParen, 'lparen'],
  [T.RParen, 'rparen'],
  [T.LBracket, 'lbracket'],
  [T.RBracket, 'rbracket'],
  [T.Comma, 'comma'],
  [T.Comment, 'comment'],
  [T.BadOperator, 'bad'],
]);

/**
 * Every token of `text` in source order, comments included. Characters the lexer rejects become `bad`
 * tokens, so offsets stay exact and nothing throws on any input.
 */
export function editorTokens(text: string): EditorToken[] {
  const result = T.getLexer().tokenize(text);
  const out: EditorToken[] = [];
  for (const t of result.tokens) out.push(convert(t.tokenType, t.image, t.startOffset));
  for (const c of result.groups.comments ?? []) out.push(convert(T.Comment, c.image, c.startOffset));
  for (const e of result.errors) {
    out.push({ kind: 'bad', image: text.slice(e.offset, e.offset + e.length), start: e.offset, end: e.offset + e.length });
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

function convert(type: TokenType, image: string, start: number): EditorToken {
  const end = start + image.length;
  const kind = KIND_BY_TOKEN_TYPE.get(type);
  if (kind) return { kind, image, start, end };
  const operator = OPERATOR_BY_SPELLING.get(image);
  // every operator token is in the operator table by construction (tokens.ts generates them from it)
  return operator ? { kind: 'operator', image, start, end, operator } : { kind: 'bad', image, start, end };
}

/** Tokens that carry a word the user may be in the middle of typing. */
export function isWordToken(t: EditorToken): boolean {
  return (
    t.kind === 'identifier' ||
    t.kind === 'dataset' ||
    t.kind === 'and' ||
    t.kind === 'or' ||
    t.kind === 'not' ||
    t.kind === 'true' ||
    t.kind === 'false' ||
    (t.kind === 'operator' && /^!?[A-Za-z]/.test(t.image)) ||
    (t.kind === 'bad' && /^![A-Za-z]*$/.test(t.image))
  );
}
