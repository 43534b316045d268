/** Highlighting classes for editors (semantic tokens). */
export { highlightTokens } from './highlight.js';
export type { HighlightToken, HighlightType } from './highlight.js';
