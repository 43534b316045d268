/**
 * A flat view of the lexer's tokens for the editor features (completion, hover, highlighting): they need
 * the kind and offsets of each token, comments included, and must work on text that does not parse.
 */
import { getLexer } from '../syntax/tokens.js';
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

const KIND_BY_TOKEN_NAME: Record<string, TokenKind> = {
  Kw_dataset: 'dataset',
  Kw_and: 'and',
  Kw_or: 'or',
  Kw_not: 'not',
  Kw_true: 'true',
  Kw_false: 'false',
  Identifier: 'identifier',
  QuotedIdentifier: 'quoted-identifier',
  StringLiteral: 'string',
  IntLiteral: 'int',
  FloatLiteral: 'float',
  LParen: 'lparen',
  RParen: 'rparen',
  LBracket: 'lbracket',
  RBracket: 'rbracket',
  Comma: 'comma',
  Comment: 'comment',
  BadBang: 'bad',
};

/**
 * Every token of `text` in source order, comments included. Characters the lexer rejects become `bad`
 * tokens, so offsets stay exact and nothing throws on any input.
 */
export function editorTokens(text: string): EditorToken[] {
  const result = getLexer().tokenize(text);
  const out: EditorToken[] = [];
  for (const t of result.tokens) out.push(convert(t.tokenType.name, t.image, t.startOffset));
  for (const c of result.groups.comments ?? []) out.push(convert('Comment', c.image, c.startOffset));
  for (const e of result.errors) {
    out.push({ kind: 'bad', image: text.slice(e.offset, e.offset + e.length), start: e.offset, end: e.offset + e.length });
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

function convert(name: string, image: string, start: number): EditorToken {
  const end = start + image.length;
  if (name.startsWith('Op_')) return { kind: 'operator', image, start, end, operator: OPERATOR_BY_SPELLING.get(image) };
  return { kind: KIND_BY_TOKEN_NAME[name] ?? 'bad', image, start, end };
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
