/**
 * What the server asks of a language: one implementation per language (filter-service.ts, rules-service.ts),
 * chosen once per document when it is opened (`languageOf`). server.ts routes every request through it,
 * and the parts both languages share (the diagnostics scheduler, the semantic-token encoder, the completion
 * item mapping, the conversions to LSP) sit beside it, not in the implementations.
 */
import type {
  CodeAction,
  CodeActionParams,
  CodeLens,
  CompletionList,
  CompletionParams,
  DocumentFormattingParams,
  DocumentRangeFormattingParams,
  FoldingRange,
  Hover,
  HoverParams,
  TextEdit,
} from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Published } from './convert.js';

export interface LanguageService {
  /** The diagnostics the editor shows for this version (at most MAX_PUBLISHED, and how many were left out). */
  diagnostics(doc: TextDocument): Promise<Published>;
  completion(doc: TextDocument, params: CompletionParams): CompletionList;
  hover(doc: TextDocument, params: HoverParams): Hover | null;
  /** Edits that format the document; none (and the editor told why) when it has a syntax error. */
  formatting(doc: TextDocument, params: DocumentFormattingParams): Promise<TextEdit[]>;
  rangeFormatting(doc: TextDocument, params: DocumentRangeFormattingParams): Promise<TextEdit[]>;
  /** Tokens encoded by the one encoder (semantic-encoding.ts), in the server's one legend. */
  semanticTokens(doc: TextDocument): Promise<Uint32Array>;
  codeActions(doc: TextDocument, params: CodeActionParams): Promise<CodeAction[]>;
  folding(doc: TextDocument): Promise<FoldingRange[]>;
  codeLens(doc: TextDocument): Promise<CodeLens[]>;
  /**
   * For a large document, diagnostics of this version at once (the edited region checked on its own), before
   * the whole check; undefined when the edit cannot be judged on its own. Languages whose whole check is
   * quick enough leave it out.
   */
  quickDiagnostics?(doc: TextDocument): Published | undefined;
  /** The document was closed: drop what is kept for it. */
  forget?(uri: string): void;
}

export type LanguageName = 'filter' | 'rules';

/** The rules language's id, as the VS Code extension declares it. */
export const RULES_LANGUAGE_ID = 'logfilter-rules';

/** A `*.ruleset.json` file: a ruleset, rules or a policy whose `expression` strings are checked in place. */
export function isRulesetJson(doc: { uri: string }): boolean {
  return /\.ruleset\.json$/i.test(doc.uri);
}

/**
 * The language of a document, by its language id or, whatever id the editor sends (`plaintext`, `json`), its
 * file name: rules expressions (`logfilter-rules`, `*.rule`) and `*.ruleset.json` files are the rules
 * language; everything else the filter language.
 */
export function languageOf(doc: { uri: string; languageId: string }): LanguageName {
  return doc.languageId === RULES_LANGUAGE_ID || /\.rule$/i.test(doc.uri) || isRulesetJson(doc) ? 'rules' : 'filter';
}
