/**
 * A lone surrogate (a UTF-16 half not in a pair): JSON.parse reads one from a `\uD800` escape, but it has no UTF-8
 * spelling, so SQL engines and byte-level readers cannot hold it.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function holdsLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
