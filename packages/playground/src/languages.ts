/**
 * The two languages as the page's editor sees them: one small interface over the core's own functions
 * (tokens, diagnostics with fixes, completion, hover, format), so the CodeMirror plumbing (editor.ts) is
 * written once and the page can never disagree with the CLI or the language server about either language.
 * Pure: no DOM here, so vitest runs it as it is.
 */
import {
  checkRule,
  completionItems,
  completionSituation,
  compile,
  format,
  formatRule,
  highlightTokens,
  hoverAt,
  ruleCompletion,
  ruleHighlightTokens,
  ruleHoverAt,
  type CompletionEntry,
  type Diagnostic,
  type HoverInfo,
} from '@logfilter/core';

export type TokenClass = 'keyword' | 'operator' | 'field' | 'unknown-field' | 'dataset' | 'function' | 'string' | 'number' | 'comment';

export interface Token {
  start: number;
  end: number;
  type: TokenClass;
  deprecated?: boolean;
}

export interface Completion {
  /** The span the chosen item replaces. */
  from: number;
  to: number;
  items: CompletionEntry[];
}

export interface LanguageSupport {
  readonly name: 'filter' | 'rules';
  tokens(text: string): Token[];
  diagnostics(text: string): Diagnostic[];
  complete(text: string, offset: number): Completion;
  hover(text: string, offset: number): HoverInfo | undefined;
  /** The canonical text, or undefined when the text does not parse (it is then left as it is). */
  format(text: string): string | undefined;
}

/**
 * The filter language; `dataset()` is the page's dataset choice, used when the source has no `dataset` line;
 * `choices()` the page's compile options (optimize, limits; the API's limits when not given), so that the
 * editor's diagnostics are the problems list's.
 */
export function filterLanguage(dataset: () => string, choices: () => { optimize?: boolean; maxOperators?: number; maxBytes?: number } = () => ({})): LanguageSupport {
  return {
    name: 'filter',
    tokens: (text) => highlightTokens(text, dataset()),
    diagnostics: (text) => compile(text, { dataset: dataset(), ...choices() }).diagnostics,
    complete(text, offset) {
      const situation = completionSituation(text, offset, dataset());
      return { from: situation.replace.start, to: situation.replace.end, items: completionItems(situation) };
    },
    hover: (text, offset) => hoverAt(text, offset, dataset()),
    format(text) {
      const r = format(text);
      return r.ok ? r.text : undefined;
    },
  };
}

/** The rules language (ruleset expressions); `phase()` is the chosen phase, '' for none. */
export function rulesLanguage(phase: () => string): LanguageSupport {
  const opts = () => (phase() ? { phase: phase() } : {});
  return {
    name: 'rules',
    tokens: (text) => ruleHighlightTokens(text),
    diagnostics: (text) => checkRule(text, opts()).diagnostics,
    complete(text, offset) {
      const { situation, items } = ruleCompletion(text, offset, opts());
      return { from: situation.replace.start, to: situation.replace.end, items };
    },
    hover: (text, offset) => ruleHoverAt(text, offset),
    format(text) {
      const r = formatRule(text);
      return r.ok ? r.text : undefined;
    },
  };
}

/**
 * The core writes snippets in the LSP's syntax (`$0`, `${1:x}`, `${1|a,b|}`); CodeMirror's has no choices and
 * no bare `$n`: a choice becomes its first option, `$n` an empty field, and the final `$0` the cursor's last stop.
 */
export function toCodeMirrorSnippet(lsp: string): string {
  return lsp
    .replace(/\$\{(\d+)\|([^,|}]*)[^}]*\|\}/g, (_, n: string, first: string) => `\${${n === '0' ? 99 : n}:${first}}`)
    .replace(/\$\{0:/g, '${99:')
    .replace(/\$(\d+)/g, (_, n: string) => `\${${n === '0' ? 99 : n}}`);
}
