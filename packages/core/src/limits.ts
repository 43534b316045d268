/**
 * The API's limits on a filter (docs/language.md#limits) and the defaults every tool starts from: the
 * checker, the CLI's flags, the language server's settings and the editor's configuration.
 */

/** Most conditions a filter may hold (`--max-operators`); `and`, `or` and `not` count nothing. */
export const DEFAULT_MAX_OPERATORS = 30;

/** Largest UTF-8 length of the compact filter JSON (`--max-bytes`), before it is encoded as a string. */
export const DEFAULT_MAX_BYTES = 1000;

/** Deepest nesting of groups; deeper is `too-deep`. Not configurable. */
export const MAX_DEPTH = 64;
