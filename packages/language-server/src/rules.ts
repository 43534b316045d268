/**
 * The rules language (`logfilter-rules`, `.rule` files) beside the filter language: one expression per
 * document (and the `expression` strings of `*.ruleset.json` files: diagnostics, quick fixes, completion and
 * hover in the ruleset's phase), checked, completed, hovered, formatted and highlighted by the core's rules functions. The
 * server routes a request here when its document is a rules document (server.ts); everything else about
 * the protocol (guards, conversions) is shared with the filter language.
 */
import { checkRule, checkRuleDocument, formatRule, minimalEdit, readRuleFileHeader, ruleDocumentExpressionAt, ruleCompletion, ruleHighlightTokens, ruleHoverAt, lineStarts, type CompletionEntry, type RuleHighlightType } from '@logfilter/core';
import {
  CodeActionKind,
  CompletionItemKind,
  CompletionItemTag,
  CompletionTriggerKind,
  InsertTextFormat,
  MarkupKind,
  type CodeAction,
  type CodeActionParams,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
  type Hover,
  type HoverParams,
  type SemanticTokens,
  type TextEdit,
} from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { toDiagnostics, toRange } from './convert.js';
import { LEGEND } from './semantic-tokens.js';
import { quickFixes, wantsKind } from './code-actions.js';
import { withoutTypedWord } from './typed-word.js';
import { tellNotFormatted } from './formatting.js';

export const RULES_LANGUAGE_ID = 'logfilter-rules';

/** A `*.ruleset.json` file: a ruleset, rules or a policy whose `expression` strings are checked in place. */
export function isRulesetJson(doc: TextDocument | undefined): boolean {
  return doc !== undefined && /\.ruleset\.json$/i.test(doc.uri);
}

/** Documents this module answers: rules expressions (`logfilter-rules`, `*.rule`) and `*.ruleset.json` files. */
export function isRulesDocument(doc: TextDocument | undefined): doc is TextDocument {
  return doc !== undefined && (doc.languageId === RULES_LANGUAGE_ID || /\.rule$/i.test(doc.uri) || isRulesetJson(doc));
}

/**
 * The diagnostics of a rules document: one expression, or every expression of a ruleset JSON file. A blank
 * `.rule` (a new file) is not an error while it is being written, as a blank filter is not.
 */
function diagnosticsOf(doc: TextDocument) {
  if (isRulesetJson(doc)) return checkRuleDocument(doc.getText()).diagnostics;
  // a .rule file's comment header: `# phase: …` sets the phase its checks and completion follow
  const header = readRuleFileHeader(doc.getText());
  const all = [...header.diagnostics, ...checkRule(header.text, header.phase ? { phase: header.phase } : {}).diagnostics];
  return header.text.trim() === '' ? all.filter((d) => d.code !== 'rule-empty') : all;
}

/** Diagnostics of rules documents, on the next turn of the event loop (a burst of edits is checked once). */
export class RulesDiagnostics {
  private readonly timers = new Map<string, NodeJS.Immediate>();

  constructor(private readonly ctx: ServerContext) {}

  schedule(doc: TextDocument): void {
    this.cancel(doc.uri);
    this.timers.set(
      doc.uri,
      setImmediate(() => {
        this.timers.delete(doc.uri);
        const current = this.ctx.documents.get(doc.uri);
        if (!current || current.version !== doc.version) return;
        void this.ctx.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: toDiagnostics(current, diagnosticsOf(current)) });
      }),
    );
  }

  cancel(uri: string): void {
    const t = this.timers.get(uri);
    if (t !== undefined) clearImmediate(t);
    this.timers.delete(uri);
  }
}

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  field: CompletionItemKind.Field,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  keyword: CompletionItemKind.Keyword,
  dataset: CompletionItemKind.Module,
  snippet: CompletionItemKind.Function,
};

export function rulesCompletion(doc: TextDocument, params: CompletionParams): CompletionList {
  if (isRulesetJson(doc)) return rulesetJsonCompletion(doc, params);
  const header = readRuleFileHeader(doc.getText());
  const text = header.text;
  const offset = doc.offsetAt(params.position);
  const { situation, items } = ruleCompletion(text, offset, header.phase ? { phase: header.phase } : {});
  const range = toRange(doc, situation.replace.start, situation.replace.end);
  // `and`/`or` after a closing quote or brace: never on the punctuation that was just typed (Enter would
  // take them), and asked for, they bring their own space (`"/x" and`, not `"/x"and`)
  const trigger = params.context?.triggerKind === CompletionTriggerKind.TriggerCharacter ? params.context.triggerCharacter : undefined;
  const glued = situation.replace.start > 0 && !/\s/.test(text[situation.replace.start - 1]);
  if (situation.kind === 'logical' && trigger !== undefined && trigger !== ' ') return { isIncomplete: false, items: [] };
  return {
    isIncomplete: false,
    items: withoutTypedWord(
      situation.kind === 'logical' && glued ? items.map((e) => ({ ...e, insertText: ` ${e.insertText}` })) : items,
      text.slice(situation.replace.start, offset),
    ).map(
      (e): CompletionItem => ({
        label: e.label,
        kind: KIND[e.kind],
        detail: e.detail,
        ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
        textEdit: { range, newText: e.insertText },
        filterText: e.label,
        insertTextFormat: e.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        sortText: e.sortText,
        ...(e.deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
      }),
    ),
  };
}

/** Completion inside an expression string of a `*.ruleset.json` file, in its ruleset's phase; JSON-escaped, plain text. */
function rulesetJsonCompletion(doc: TextDocument, params: CompletionParams): CompletionList {
  const at = ruleDocumentExpressionAt(doc.getText(), doc.offsetAt(params.position));
  if (!at) return { isIncomplete: false, items: [] };
  const { situation, items } = ruleCompletion(at.text, at.offset, at.phase ? { phase: at.phase } : {});
  const range = toRange(doc, at.toDocument(situation.replace.start), at.toDocument(situation.replace.end));
  const plain = (t: string) => t.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
  return {
    isIncomplete: false,
    items: items.map((e): CompletionItem => ({ label: e.label, kind: KIND[e.kind], detail: e.detail, textEdit: { range, newText: JSON.stringify(e.snippet ? plain(e.insertText) : e.insertText).slice(1, -1) }, filterText: e.label, sortText: e.sortText })),
  };
}

export function rulesHover(doc: TextDocument, params: HoverParams): Hover | null {
  if (isRulesetJson(doc)) {
    const at = ruleDocumentExpressionAt(doc.getText(), doc.offsetAt(params.position));
    const h = at ? ruleHoverAt(at.text, at.offset) : undefined;
    return at && h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(doc, at.toDocument(h.start), at.toDocument(h.end)) } : null;
  }
  const h = ruleHoverAt(doc.getText(), doc.offsetAt(params.position));
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(doc, h.start, h.end) } : null;
}

/**
 * The whole expression formatted (range formatting formats it all too: it is one expression). With a
 * syntax error it is left as it is, and the editor is told which line, as for filters.
 */
export function rulesFormatting(doc: TextDocument, ctx: ServerContext): TextEdit[] {
  if (isRulesetJson(doc)) return [];
  const text = doc.getText();
  const r = formatRule(text);
  if (!r.ok) {
    if (text.trim() !== '') tellNotFormatted(ctx, doc, r.diagnostics.find((d) => d.severity === 'error'));
    return [];
  }
  const edit = minimalEdit(text, r.text);
  return edit ? [{ range: toRange(doc, edit.start, edit.end), newText: edit.newText }] : [];
}

/** Classes in the server's legend (the filter language's, with `function` appended). */
const CLASS: Record<RuleHighlightType, string> = { keyword: 'keyword', operator: 'operator', field: 'property', function: 'function', string: 'string', number: 'number' };

export function rulesSemanticTokens(doc: TextDocument): SemanticTokens {
  if (isRulesetJson(doc)) return { data: [] };
  const text = doc.getText();
  const lines = lineStarts(text);
  const data: number[] = [];
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of ruleHighlightTokens(text)) {
    while (line + 1 < lines.length && lines[line + 1] <= t.start) line++;
    const character = t.start - lines[line];
    // a token never spans lines except a string with a line break: cut it at its line's end
    const nextLine = line + 1 < lines.length ? lines[line + 1] - 1 : text.length;
    const length = Math.min(t.end, nextLine) - t.start;
    data.push(line - prevLine, line === prevLine ? character - prevChar : character, length, LEGEND.tokenTypes.indexOf(CLASS[t.type]), t.deprecated ? 1 : 0);
    prevLine = line;
    prevChar = character;
  }
  return { data };
}

/** The core's fixes behind each diagnostic, as quick fixes. */
export function rulesCodeActions(doc: TextDocument, params: CodeActionParams): CodeAction[] {
  if (!wantsKind(params.context.only, CodeActionKind.QuickFix)) return [];
  return quickFixes(doc, diagnosticsOf(doc), params.context.diagnostics ?? [], doc.offsetAt(params.range.start), doc.offsetAt(params.range.end));
}

export type { ServerContext };
