/**
 * Which of the project's languages a file is written in, by its type, as the language server decides it:
 * `.rule` files hold a rules-language expression (the editor's `logfilter-rules` language) and `*.ruleset.json`
 * files a ruleset, rule or policy whose `expression` strings are rules; everything else, and standard input,
 * is the filter language (`.logfilter` source or filter JSON). `check` and `fmt` serve both languages through this.
 */
import { inputKind } from '@logfilter/core';

export type FileLanguage = 'filter' | 'rules';

/** A `*.ruleset.json` file: JSON holding rules expressions, not an expression. */
export function isRulesetJsonFile(file: string | undefined): boolean {
  return file !== undefined && /\.ruleset\.json$/i.test(file);
}

export function languageOf(file: string | undefined): FileLanguage {
  return file !== undefined && file !== '-' && (/\.rule$/i.test(file) || isRulesetJsonFile(file)) ? 'rules' : 'filter';
}

/**
 * Whether a filter input is JSON rather than `.logfilter` source. The core tells them apart by the first character
 * (inputKind: `{` or `"`); a `*.json` file holding another JSON value (`[]`, `null`, `1`) is JSON too, so that it is
 * told "a filter is an object" (invalid-node) rather than a source syntax error about `and`/`or`. No source is
 * valid JSON, so no source file changes kind.
 */
export function filterInputIsJson(name: string | undefined, text: string): boolean {
  if (inputKind(text) === 'json') return true;
  if (name === undefined || !/\.json$/i.test(name)) return false;
  if (/^\s*\[/.test(text)) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
