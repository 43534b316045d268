/**
 * "Did you mean …?" for every closed set the command line knows (fields of a dataset, statuses, phases, kinds,
 * the choices of any flag): the nearest names by edit distance, close enough to be a typo. Commander suggests
 * subcommands and flags itself.
 */
import { closest } from '@logfilter/core';
import { UsageError } from './errors.js';

/** The candidates nearest to `value` (the core's `closest`, which the language's own suggestions use), at most three. */
export function nearest(value: string, candidates: Iterable<string>): string[] {
  return closest(value, candidates, 3);
}

/** " (did you mean X?)" or "". */
export function suggestion(value: string, candidates: Iterable<string>): string {
  const near = nearest(value, candidates);
  return near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
}

/** `value` when it is one of `set`; otherwise a usage error naming the flag, the value and the nearest names. */
export function oneOf(flag: string, value: string, set: readonly string[], what = 'value'): string {
  if (set.includes(value)) return value;
  const near = suggestion(value, set);
  throw new UsageError(`${flag}: unknown ${what} ${JSON.stringify(value)}${near || ` (one of ${set.join(', ')})`}`);
}

/** Commander's message for a value outside a flag's choices, with the nearest choice added. */
export function withChoiceSuggestion(message: string): string {
  const m = /argument '(.*)' is invalid\. Allowed choices are (.*)\.$/.exec(message);
  return m ? `${message}${suggestion(m[1], m[2].split(', '))}` : message;
}
