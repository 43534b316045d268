/**
 * Regular expressions for `matches` and `regex_replace()`: linear-time RE2 semantics (re2js), never the
 * backtracking RegExp, as the engine (Rust regex) does: no backreferences, no look-around. The Rust-only flag
 * `u` (Unicode classes, e.g. `(?u)\p{Hangul}`) is dropped: re2js matches on characters, so Unicode classes
 * always work. A program over MAX_REGEX_INSTRUCTIONS is refused, as the engine refuses a regex over its size
 * limit: matching time grows with program size times input size, and this bound keeps a 1 KB input fast.
 */
import { RE2JS } from 're2js';
import { RULE_SETTINGS } from '../settings.js';

/** The size limit of a compiled regex, in re2 program instructions (documented in docs/rules-language.md). */
export const MAX_REGEX_INSTRUCTIONS = RULE_SETTINGS.maxRegexInstructions;

export type CompiledRegex = { ok: true; re: RE2JS } | { ok: false; message: string };

const cache = new Map<string, CompiledRegex>();

export function compileRegex(pattern: string): CompiledRegex {
  let c = cache.get(pattern);
  if (c) return c;
  c = compile(pattern);
  if (cache.size > 256) cache.clear();
  cache.set(pattern, c);
  return c;
}

/** (?u) and (?iu:…) in Rust syntax: re2js has no u flag and is always Unicode-aware. */
export function translateRustFlags(pattern: string): string {
  return pattern.replace(/\(\?([a-zA-Z-]*)(:|\))/g, (all, flags: string, end: string) => {
    if (!flags.includes('u')) return all;
    // `(?i-u)` loses its u and with it the dash that only turned u off
    const rest = flags.replace(/u/g, '').replace(/-$/, '');
    if (rest === '') return end === ':' ? '(?:' : '';
    return `(?${rest}${end}`;
  });
}

function compile(pattern: string): CompiledRegex {
  const translated = translateRustFlags(pattern);
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated);
  } catch (e) {
    return { ok: false, message: `invalid regular expression: ${(e as Error).message}` };
  }
  const size = (re as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst?.length ?? 0;
  if (size > MAX_REGEX_INSTRUCTIONS) return { ok: false, message: `the regular expression is too large (${size} instructions, the limit is ${MAX_REGEX_INSTRUCTIONS})` };
  return { ok: true, re };
}
