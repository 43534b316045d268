/**
 * The limits of a language's parser, in one value each language defines (as wirefilter's `ParserSettings`):
 * what the shared Chevrotain base (chevrotain.ts) reads, so that the two languages' guards differ only in
 * their numbers. A language adds its own limits beside these (the filter's operator and byte limits, the
 * rules' expression length and regex size).
 */
export interface ParserSettings {
  /**
   * Open groups plus chained `not`s past which the recursive parser is not run at all (a `too-deep`
   * diagnostic instead of a stack overflow).
   */
  maxParseDepth: number;
  /** Recognition errors after which the parser stops: the rest of a hopeless text adds noise, and time. */
  maxParserErrors: number;
  /** Syntax diagnostics reported at most (lexer errors count too). */
  maxSyntaxDiagnostics: number;
}
