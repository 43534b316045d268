/**
 * Syntax check of a `matches`/`~` regex for `rules check`: the API refuses a regex the engine (Rust's regex
 * crate) cannot parse. We parse with RE2 (re2js, the evaluator's engine) and report only what both dialects
 * refuse: a pattern using Rust-only syntax RE2 does not know is not judged, and RE2-only refusals (its repeat
 * limit of 1,000, its smaller table of Unicode properties, nested repetition) are dropped, so a valid
 * expression is never refused. The size limit is not checked here (the production value is unpublished).
 */
import { RE2JS } from 're2js';
import { translateRustFlags } from './eval/regex.js';

/** Rust-only: the x/R flags, class set operations, \u/\U escapes, \< \> \b{…} word boundaries. */
const RUST_ONLY = /\(\?[a-zA-Z-]*[xR]|&&|--|~~|\\[uU<>]|\\[bB]\{/;

/** RE2 messages that Rust's parser does not share. */
const RE2_ONLY = /invalid nested repetition operator|\\[pP]/;

/** The problem with `pattern`, or undefined when the regex parses (or cannot be judged). */
export function regexSyntaxProblem(pattern: string): string | undefined {
  if (RUST_ONLY.test(pattern)) return undefined;
  try {
    RE2JS.compile(translateRustFlags(pattern));
    return undefined;
  } catch (e) {
    const message = (e as Error).message.replace(/^error parsing regexp: /, '');
    if (RE2_ONLY.test(message)) return undefined;
    if (message.startsWith('invalid repeat count') && !descendingRepeat(pattern)) return undefined;
    return message;
  }
}

/** `{n,m}` with n > m: refused by both (RE2 also refuses counts over 1,000, which Rust accepts). */
function descendingRepeat(pattern: string): boolean {
  for (const m of pattern.matchAll(/\{(\d+),(\d+)\}/g)) if (Number(m[1]) > Number(m[2])) return true;
  return false;
}
