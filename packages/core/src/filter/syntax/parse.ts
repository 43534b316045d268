/**
 * parse(): text → AST + syntax diagnostics. Never throws. A text without syntax problems is read by the fast
 * path (fast-parse.ts), which returns exactly what the reference parser would; every other text — and every
 * one the fast path is unsure of — goes to the reference parser (reference-parse.ts, Chevrotain's, with error
 * recovery), the language's reference.
 *
 * The CLI's start-up bundles load the reference parser on its first use instead of at start (a valid filter
 * then never builds Chevrotain's lexer and parser): scripts/bundle-patches.mjs rewrites the import below.
 */
import { fastParse } from './fast-parse.js';
import type { ParseResult } from './parse-result.js';
import * as reference from './reference-parse.js';

export type { ParseResult };

/** The reference parser's module (replaced with a require on first call in the start-up bundles). */
const loadReference = (): typeof reference => reference;

export function parse(text: string): ParseResult {
  return fastParse(text) ?? loadReference().referenceParse(text);
}
