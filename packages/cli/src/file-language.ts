/**
 * Which of the project's languages a file is written in, by its type, as the language server decides it:
 * `.rule` files hold a rules-language expression (the editor's `logfilter-rules` language) and `*.ruleset.json`
 * files a ruleset, rule or policy whose `expression` strings are rules; everything else, and standard input,
 * is the filter language (`.logfilter` source or filter JSON). `check` and `fmt` serve both languages through this.
 */
export type FileLanguage = 'filter' | 'rules';

/** A `*.ruleset.json` file: JSON holding rules expressions, not an expression. */
export function isRulesetJsonFile(file: string | undefined): boolean {
  return file !== undefined && /\.ruleset\.json$/i.test(file);
}

export function languageOf(file: string | undefined): FileLanguage {
  return file !== undefined && file !== '-' && (/\.rule$/i.test(file) || isRulesetJsonFile(file)) ? 'rules' : 'filter';
}
