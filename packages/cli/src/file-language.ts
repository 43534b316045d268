/**
 * Which of the project's languages a file is written in, by its type: `.rule` files hold a rules-language
 * expression (the editor's `logfilter-rules` language); everything else, and standard input, is the filter
 * language (`.logfilter` source or filter JSON). `check` and `fmt` serve both languages through this.
 */
export type FileLanguage = 'filter' | 'rules';

export function languageOf(file: string | undefined): FileLanguage {
  return file !== undefined && file !== '-' && file.toLowerCase().endsWith('.rule') ? 'rules' : 'filter';
}
