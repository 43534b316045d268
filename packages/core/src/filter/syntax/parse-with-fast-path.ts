/**
 * The core's parse(): text → AST + syntax diagnostics, never throws. A text without syntax problems is read by
 * the fast path (fast-parse.ts), which returns exactly what the reference parser would; every other text — and
 * every one the fast path is unsure of — goes to the reference parser (parse.ts: Chevrotain's, with error
 * recovery and every syntax diagnostic), the language's reference.
 *
 * The CLI's start-up bundles load the reference parser on its first use instead of at start (a valid filter
 * then never builds Chevrotain's lexer and parser): scripts/bundle-patches.mjs rewrites the import below.
 */
import { fastParse } from './fast-parse.js';
import * as reference from './parse.js';
import { expectText } from '../../lang/guards.js';

export type { ParseResult } from './parse.js';

/** The reference parser's module (replaced with a require on first call in the start-up bundles). */
const loadReference = (): typeof reference => reference;

export function parse(text: string): reference.ParseResult {
  expectText(text, 'parse', '.logfilter source');
  return fastParse(text) ?? loadReference().parse(text);
}

/** The lexer's tokens for a fix (loads the reference parser's module: only a filter with such a fix needs it). */
export function lexJoins(text: string): reference.JoinLexed {
  return loadReference().lexJoins(text);
}
