/**
 * What both languages' Chevrotain parsers share: a parser base with recovery on and an error cap, an error
 * message provider whose message is the expected token's name (so diagnostics are worded from token data,
 * never by reading Chevrotain's prose), the nesting guard run before the recursive parser, the lexer-error
 * loop, and the final dedupe and sort of syntax diagnostics. The numbers come from each language's
 * ParserSettings (settings.ts).
 */
import { EmbeddedActionsParser, type ILexingError, type IParserErrorMessageProvider, type IRecognitionException, type IToken, type TokenType, type TokenVocabulary, tokenMatcher } from 'chevrotain';
import { dedupeDiagnostics, type Diagnostic, sortDiagnostics } from './diagnostics.js';
import type { ParserSettings } from './settings.js';

/** Not a recognition exception, so Chevrotain's recovery lets it through to the language's parse(), which stops there. */
export class TooManyErrors extends Error {}

/**
 * Chevrotain's default messages list every expected path, which costs more than the parse itself on text
 * with thousands of errors. The languages word their diagnostics from the exception and its token; the
 * message of a mismatched token is only the expected token type's name (see expectedTokenName).
 */
const EXPECTED_TOKEN_MESSAGES: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected }) => expected.name,
  buildNotAllInputParsedMessage: () => '',
  buildNoViableAltMessage: () => '',
  buildEarlyExitMessage: () => '',
};

/** The name of the token type a mismatched-token error expected (undefined for other errors). */
export function expectedTokenName(e: IRecognitionException): string | undefined {
  return e.name === 'MismatchedTokenException' && e.message !== '' ? e.message : undefined;
}

/**
 * The base of both parsers: embedded actions (the tree is built directly), recovery on unless asked
 * otherwise, Chevrotain's grammar validations only when asked (a test runs them), and a cap on errors.
 * The subclass calls `performSelfAnalysis()` once its rules are defined.
 */
export abstract class RecoveringParser extends EmbeddedActionsParser {
  constructor(
    tokens: TokenVocabulary,
    /** Past this many recognition errors, parsing stops with TooManyErrors. */
    readonly maxErrors: number,
    options: { validate: boolean; recover?: boolean },
  ) {
    super(tokens, { recoveryEnabled: options.recover ?? true, skipValidations: !options.validate, maxLookahead: 2, errorMessageProvider: EXPECTED_TOKEN_MESSAGES });
  }

  /** Recording an error: stops the parse once there are `maxErrors` of them. */
  // SAVE_ERROR is Chevrotain's (internal, untyped) hook through which every recognition error passes
  SAVE_ERROR(error: IRecognitionException): IRecognitionException {
    const saved = (EmbeddedActionsParser.prototype as unknown as { SAVE_ERROR(e: IRecognitionException): IRecognitionException }).SAVE_ERROR.call(this, error);
    if (this.errors.length >= this.maxErrors) throw new TooManyErrors();
    return saved;
  }
}

export interface NestingTokens {
  open: TokenType;
  close: TokenType;
  not: TokenType;
  /** A `not` chain goes on through an open group (`not (not (…`) rather than restarting at it. */
  notsThroughOpen: boolean;
}

/**
 * The first token past `settings.maxParseDepth` of open groups plus chained `not`s, and whether a `not` took
 * it there; undefined when the text is shallow enough to parse. Run before the recursive parser, whose
 * error recovery takes far more stack per level than parsing.
 */
export function tooDeepToken(tokens: readonly IToken[], kinds: NestingTokens, settings: ParserSettings): { token: IToken; byNot: boolean } | undefined {
  let depth = 0;
  let nots = 0;
  for (const t of tokens) {
    const open = tokenMatcher(t, kinds.open);
    const not = tokenMatcher(t, kinds.not);
    if (open) depth++;
    else if (tokenMatcher(t, kinds.close)) depth = Math.max(0, depth - 1);
    if (not) nots++;
    else if (!(open && kinds.notsThroughOpen)) nots = 0;
    if (depth + nots > settings.maxParseDepth) return { token: t, byNot: not };
  }
  return undefined;
}

/** Where the lexer stopped on characters it has no token for: at most `settings.maxSyntaxDiagnostics` of them. */
export function lexerErrorSpans(text: string, errors: readonly ILexingError[], settings: ParserSettings): { text: string; shown: string; start: number; end: number }[] {
  return errors.slice(0, settings.maxSyntaxDiagnostics).map((e) => {
    const end = e.offset + Math.max(1, e.length);
    const t = text.slice(e.offset, end);
    return { text: t, shown: showCharacters(t), start: e.offset, end };
  });
}

/** Characters a reader cannot see or tell from a space: separators (but the space), controls, format characters. */
const UNSEEN = /[\p{Z}\p{C}]/u;

/**
 * Text for a message: quoted as it is, or, when it holds a character nobody could see (a zero-width space, a line
 * separator, a thin space pasted from a web page), as its code points (`U+200B`), so the message says what to delete.
 */
export function showCharacters(text: string): string {
  if (!UNSEEN.test(text.replace(/ /g, ''))) return JSON.stringify(text);
  return [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/**
 * Syntax diagnostics as both languages return them: sorted, one per range and code (recovery can report a
 * spot twice), at most `max` (the filter caps the whole list; the rules language caps each source of them).
 */
export function finishSyntaxDiagnostics<D extends Diagnostic>(diagnostics: D[], max = Infinity): D[] {
  const ds = dedupeDiagnostics(sortDiagnostics(diagnostics));
  return ds.length > max ? ds.slice(0, max) : ds;
}
