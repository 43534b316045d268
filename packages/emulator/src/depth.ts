/** How deep a fixture file, a data file or a request body may nest. */
import { clip } from './errors.js';

/** Deeper than any fixture or state needs (a few levels, free-form page monitoring fields a few more). */
export const MAX_DEPTH = 64;

/**
 * The place of the first value nested deeper than MAX_DEPTH, walked without recursion: a file nested 2,000 deep
 * is refused by place, never with "Maximum call stack size exceeded" from the code that reads it.
 */
export function tooDeep(value: unknown, root: string): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length > 0) {
    const [v, at, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return at.length > 200 ? `${at.slice(0, 200)}…` : at;
    // Only objects and arrays go on the stack (with their place): a body of a million numbers costs no strings.
    if (Array.isArray(v)) v.forEach((item, i) => item !== null && typeof item === 'object' && stack.push([item, `${at}[${i}]`, depth + 1]));
    else for (const [k, item] of Object.entries(v)) if (item !== null && typeof item === 'object') stack.push([item, `${at}.${clip(k, 40)}`, depth + 1]);
  }
  return undefined;
}
