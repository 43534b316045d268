/** How deep a fixture file, a data file or a request body may nest. */
import { clip } from './errors.js';

/** Deeper than any fixture or state needs (a few levels, free-form page monitoring fields a few more). */
export const MAX_DEPTH = 64;

/**
 * How deep a request body may nest: the JSON depth the core's readers take (512). The handlers walk bodies
 * recursively (field spellings, expressions inside action parameters, JSON.stringify), so a deeper one is refused
 * before them rather than overflowing the stack (an internal error, 500).
 */
export const MAX_BODY_DEPTH = 512;

/**
 * The place of the first value nested deeper than `max` (MAX_DEPTH unless given), walked without recursion: a file nested 2,000 deep
 * is refused by place, never with "Maximum call stack size exceeded" from the code that reads it.
 */
export function tooDeep(value: unknown, root: string, max = MAX_DEPTH): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length > 0) {
    const [v, at, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return at.length > 200 ? `${at.slice(0, 200)}…` : at;
    // Only objects and arrays go on the stack (with their place): a body of a million numbers costs no strings.
    if (Array.isArray(v)) v.forEach((item, i) => item !== null && typeof item === 'object' && stack.push([item, `${at}[${i}]`, depth + 1]));
    else for (const [k, item] of Object.entries(v)) if (item !== null && typeof item === 'object') stack.push([item, `${at}.${clip(k, 40)}`, depth + 1]);
  }
  return undefined;
}
