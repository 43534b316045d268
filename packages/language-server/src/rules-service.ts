/**
 * The rules language (`logfilter-rules`, `.rule` files): one expression per document (after an optional
 * `# phase:` comment header), and the `expression` strings of `*.ruleset.json` files (diagnostics, quick
 * fixes, completion and hover in the ruleset's phase), checked, completed, hovered, formatted and
 * highlighted by the core's rules functions. Checks and highlighting of large documents run in the worker.
 */
import { formatRule, minimalEdit, readRuleFileHeader, ruleCompletion, ruleDocumentExpressionAt, ruleHoverAt, type CompletionEntry } from '@logfilter/core';
import { CodeActionKind, CompletionItemKind, CompletionTriggerKind, MarkupKind, type CompletionList, type CompletionParams, type HoverParams, type TextEdit } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { quickFixes, wantsKind } from './code-actions.js';
import { toCompletionItems } from './completion-items.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';
import { tellNotFormatted } from './formatting.js';
import { isRulesetJson, type LanguageService } from './language-service.js';
import type { RulesDocumentKind } from './rules-check.js';
import { rulesetTree } from './ruleset-trees.js';
import { withoutTypedWord } from './typed-word.js';

const kindOf = (doc: TextDocument): RulesDocumentKind => (isRulesetJson(doc) ? 'ruleset-json' : 'rule');

/** The rules language's snippets are its functions; the editor filters on the label (`lower`, not `lower()`). */
const STYLE = { filterText: (e: CompletionEntry) => e.label, snippetKind: CompletionItemKind.Function };

export function rulesService(ctx: ServerContext): LanguageService {
  const phase = () => ctx.settings().defaultPhase;
  const check = (doc: TextDocument) => {
    const p = phase();
    return ctx.runner.run({ kind: 'rules-check', text: doc.getText(), document: kindOf(doc), uri: doc.uri, ...(p ? { phase: p } : {}) }, doc);
  };
  return {
    async diagnostics(doc) {
      const r = await check(doc);
      return { kept: r.diagnostics, omitted: r.omitted };
    },
    completion: (doc, params) => (isRulesetJson(doc) ? rulesetJsonCompletion(doc, params, phase()) : ruleCompletionList(doc, params, phase())),
    hover: (doc, params) => {
      if (isRulesetJson(doc)) {
        const at = ruleDocumentExpressionAt(doc.getText(), doc.offsetAt(params.position), { tree: rulesetTree(doc) });
        const h = at ? ruleHoverAt(at.text, at.offset) : undefined;
        return at && h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(doc, at.toDocument(h.start), at.toDocument(h.end)) } : null;
      }
      // a `# …` header line is a comment: read with the header blanked, it has nothing to hover
      const h = ruleHoverAt(readRuleFileHeader(doc.getText()).text, doc.offsetAt(params.position));
      return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(doc, h.start, h.end) } : null;
    },
    // range formatting formats it all too: a `.rule` file is one expression
    formatting: async (doc) => formatting(ctx, doc),
    rangeFormatting: async (doc) => formatting(ctx, doc),
    semanticTokens: async (doc) => (isRulesetJson(doc) ? new Uint32Array(0) : ctx.runner.run({ kind: 'rules-highlight', text: doc.getText() }, doc)),
    async codeActions(doc, params) {
      if (!wantsKind(params.context.only, CodeActionKind.QuickFix)) return [];
      const r = await check(doc);
      return quickFixes(doc, r.diagnostics, params.context.diagnostics ?? [], doc.offsetAt(params.range.start), doc.offsetAt(params.range.end));
    },
    folding: async () => [],
    codeLens: async () => [],
  };
}

/** `defaultPhase` (settings) when the file's `# phase:` header names none. */
function ruleCompletionList(doc: TextDocument, params: CompletionParams, defaultPhase: string | undefined): CompletionList {
  const header = readRuleFileHeader(doc.getText());
  const text = header.text;
  const offset = doc.offsetAt(params.position);
  // inside a `# …` header line: a comment, where nothing of the language goes
  if (offset <= header.headerLength && /#[^\n]*$/.test(doc.getText().slice(0, offset))) return { isIncomplete: false, items: [] };
  const phase = header.phase ?? defaultPhase;
  const { situation, items } = ruleCompletion(text, offset, phase ? { phase } : {});
  const range = toRange(doc, situation.replace.start, situation.replace.end);
  // `and`/`or` after a closing quote or brace: never on the punctuation that was just typed (Enter would
  // take them), and asked for, they bring their own space (`"/x" and`, not `"/x"and`)
  const trigger = params.context?.triggerKind === CompletionTriggerKind.TriggerCharacter ? params.context.triggerCharacter : undefined;
  const glued = situation.replace.start > 0 && !/\s/.test(text[situation.replace.start - 1]);
  if (situation.kind === 'logical' && trigger !== undefined && trigger !== ' ') return { isIncomplete: false, items: [] };
  const entries = withoutTypedWord(
    situation.kind === 'logical' && glued ? items.map((e) => ({ ...e, insertText: ` ${e.insertText}` })) : items,
    text.slice(situation.replace.start, offset),
  );
  return { isIncomplete: false, items: toCompletionItems(entries, range, STYLE) };
}

/** Completion inside an expression string of a `*.ruleset.json` file, in its ruleset's phase; JSON-escaped, plain text. */
function rulesetJsonCompletion(doc: TextDocument, params: CompletionParams, defaultPhase: string | undefined): CompletionList {
  const at = ruleDocumentExpressionAt(doc.getText(), doc.offsetAt(params.position), { tree: rulesetTree(doc) });
  if (!at) return { isIncomplete: false, items: [] };
  const phase = at.phase ?? defaultPhase;
  const { situation, items } = ruleCompletion(at.text, at.offset, phase ? { phase } : {});
  const range = toRange(doc, at.toDocument(situation.replace.start), at.toDocument(situation.replace.end));
  const plain = (t: string) => t.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
  const insert = (e: CompletionEntry) => ({ text: JSON.stringify(e.snippet ? plain(e.insertText) : e.insertText).slice(1, -1), plain: true });
  return { isIncomplete: false, items: toCompletionItems(items, range, { ...STYLE, insert }) };
}

/**
 * The whole expression formatted, its `# …` header kept as written, a CRLF file kept CRLF and a line break at
 * the end: what `rules fmt` writes. With a syntax error it is left as it is, and the editor is told which line, as for filters. A
 * ruleset JSON file is left to the editor's JSON formatter.
 */
function formatting(ctx: ServerContext, doc: TextDocument): TextEdit[] {
  if (isRulesetJson(doc)) return [];
  const text = doc.getText();
  const header = readRuleFileHeader(text);
  const r = formatRule(header.text);
  if (!r.ok) {
    if (header.text.trim() !== '') tellNotFormatted(ctx, doc, r.diagnostics.find((d) => d.severity === 'error'));
    return [];
  }
  const joined = text.slice(0, header.headerLength) + r.text;
  // ending with a line break, as `rules fmt` writes it (and filters are formatted): `fmt --check` agrees with the editor
  const ended = joined.endsWith('\n') ? joined : `${joined}\n`;
  const formatted = /^[^\n]*\r\n/.test(text) ? ended.replace(/\r?\n/g, '\r\n') : ended;
  const edit = minimalEdit(text, formatted);
  return edit ? [{ range: toRange(doc, edit.start, edit.end), newText: edit.newText }] : [];
}
