/**
 * The JSON number grammar, once for the whole project, and the one definition of a numeric string, shared by the checker (which warns that such a string is compared
 * as a number, and refuses any other string where a number is needed) and the evaluator (which compares it as
 * that number). See docs/language.md, "Numbers and numeric strings".
 *
 * A string is numeric when it matches the JSON number grammar exactly — no surrounding spaces, no `+`, no
 * leading `.`, no hex, `Infinity` or `NaN` — and it then reads as the number `JSON.parse` gives it. So a
 * numeric string means what the same text means as a JSON number in a log line.
 */
export const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
/** The same grammar without fraction or exponent: the integers (any size). */
export const JSON_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/** True when `s` is exactly a JSON number. */
export function isNumericString(s: string): boolean {
  return JSON_NUMBER.test(s);
}

/** The number a numeric string stands for (as JSON.parse reads it), or NaN for any other string. */
export function numericValue(s: string): number {
  // For text of the JSON number grammar, Number() and JSON.parse() agree (both round to nearest).
  return JSON_NUMBER.test(s) ? Number(s) : NaN;
}
