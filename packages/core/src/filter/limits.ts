/**
 * The API's limits on a filter (docs/language.md#limits) and the defaults every tool starts from: the
 * checker, the CLI's flags, the language server's settings and the editor's configuration; and the parser's.
 */
import type { ParserSettings } from '../lang/settings.js';

/** Most conditions a filter may hold (`--max-operators`); `and`, `or` and `not` count nothing. */
export const DEFAULT_MAX_OPERATORS = 30;

/** Largest UTF-8 length of the compact filter JSON (`--max-bytes`), before it is encoded as a string. */
export const DEFAULT_MAX_BYTES = 1000;

/** Deepest nesting of groups; deeper is `too-deep`. Not configurable. */
export const MAX_DEPTH = 64;

/**
 * The filter parser's limits (lang/settings.ts), read by the shared Chevrotain base. Error recovery in unclosed
 * groups takes far more stack per level than parsing (the fuzzer overflowed it at 235 unclosed groups, and at
 * 195 levels of `not (`; on a 984 KB main-thread stack, at ~107 levels of `not (` followed by noise), so the parse
 * depth stays below that. It counts groups and chained `not`s, and the language allows MAX_DEPTH groups each
 * under a `not` (`not (` 64 times is a valid filter), so the cap leaves room for exactly that and a little more;
 * anything past MAX_DEPTH groups is too deep anyway. The error caps stop cascades in hopeless input (a binary
 * file, 1 MB of noise).
 */
export const FILTER_PARSER_SETTINGS: Readonly<ParserSettings> = {
  maxParseDepth: 2 * MAX_DEPTH + 2,
  maxParserErrors: 50,
  maxSyntaxDiagnostics: 200,
};
