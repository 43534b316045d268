/**
 * A CodeMirror 6 editor for one of the languages of languages.ts: highlighting from the core's token tables,
 * lint diagnostics with the core's fixes, completion, hover and format. The editor asks the core on every
 * change; a `refresh()` re-asks after a choice outside the text (dataset, phase) changed the answers.
 */
import { EditorState, StateEffect, type Extension, type Range } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  hoverTooltip,
  keymap,
  lineNumbers,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion, completionKeymap, snippet, type Completion as CmCompletion, type CompletionContext } from '@codemirror/autocomplete';
import { forceLinting, lintGutter, linter, lintKeymap, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import type { Diagnostic } from '@logfilter/core';
import { toCodeMirrorSnippet, type LanguageSupport } from './languages.js';
import { renderMarkdown } from './markdown.js';

const refreshEffect = StateEffect.define<null>();

/** Token classes → CSS classes (style.css colours them; `deprecated` adds a strike-through). */
const marks = new Map<string, Decoration>();
function mark(type: string, deprecated?: boolean): Decoration {
  const key = `${type}${deprecated ? ' tok-deprecated' : ''}`;
  let m = marks.get(key);
  if (!m) marks.set(key, (m = Decoration.mark({ class: `tok-${key}` })));
  return m;
}

function highlighting(lang: LanguageSupport): Extension {
  const build = (view: EditorView): DecorationSet => {
    const text = view.state.doc.toString();
    const ranges: Range<Decoration>[] = [];
    for (const t of lang.tokens(text)) if (t.end > t.start) ranges.push(mark(t.type, t.deprecated).range(t.start, t.end));
    return Decoration.set(ranges, true);
  };
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = build(view);
      }
      update(u: ViewUpdate) {
        if (u.docChanged || u.transactions.some((t) => t.effects.some((e) => e.is(refreshEffect)))) this.decorations = build(u.view);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

/** The core's diagnostics as CodeMirror's, each fix an action. `source` is the stable code. */
export function toCmDiagnostics(diagnostics: readonly Diagnostic[], length: number): CmDiagnostic[] {
  return diagnostics.map((d) => ({
    from: Math.min(d.start, length),
    to: Math.min(Math.max(d.end, d.start), length),
    severity: d.severity === 'info' ? 'info' : d.severity,
    message: d.message,
    source: d.code,
    actions: (d.fixes ?? []).map((f) => ({
      name: f.title,
      apply(view: EditorView) {
        view.dispatch({ changes: f.edits.map((e) => ({ from: e.start, to: e.end, insert: e.newText })), userEvent: 'input.fix' });
      },
    })),
  }));
}

const KIND_TYPES: Record<string, string> = { field: 'property', operator: 'keyword', value: 'constant', keyword: 'keyword', dataset: 'namespace', snippet: 'text', function: 'function' };

/** How long the core took to answer, per kind of question (the page reports them, see main.ts). */
export type Timing = (kind: 'complete' | 'diagnostics', ms: number) => void;

function timed<T>(kind: 'complete' | 'diagnostics', onTiming: Timing | undefined, fn: () => T): T {
  const t0 = performance.now();
  const out = fn();
  onTiming?.(kind, performance.now() - t0);
  return out;
}

function completionSource(lang: LanguageSupport, onTiming?: Timing) {
  return (ctx: CompletionContext) => {
    const text = ctx.state.doc.toString();
    const c = timed('complete', onTiming, () => lang.complete(text, ctx.pos));
    if (!c.items.length) return null;
    // while typing, open only where a word is being typed or just after a space or an opening bracket:
    // not after every character (a closing quote, a digit of a number)
    if (!ctx.explicit && !/[\w."[( ]$/.test(text.slice(Math.max(0, ctx.pos - 1), ctx.pos))) return null;
    const n = c.items.length;
    const options: CmCompletion[] = c.items.map((item, i) => ({
      label: item.filterText ?? item.label,
      displayLabel: item.label,
      detail: item.detail,
      info: item.documentation ? () => renderMarkdown(item.documentation) : undefined,
      type: KIND_TYPES[item.kind] ?? 'text',
      // keeps the core's order among items CodeMirror scores alike
      boost: Math.round(99 - (198 * i) / Math.max(1, n)),
      apply: item.snippet ? snippet(toCodeMirrorSnippet(item.insertText)) : item.insertText,
    }));
    return { from: c.from, to: c.to, options, filter: true };
  };
}

function hover(lang: LanguageSupport): Extension {
  return hoverTooltip((view, pos) => {
    const info = lang.hover(view.state.doc.toString(), pos);
    if (!info) return null;
    return { pos: info.start, end: info.end, above: true, create: () => ({ dom: renderMarkdown(info.markdown) }) };
  });
}

export interface LogfilterEditor {
  view: EditorView;
  /** Re-highlight and re-lint (the dataset or phase changed). */
  refresh(): void;
  /** Formats the text in place; false when it does not parse. */
  format(): boolean;
  setText(text: string): void;
  text(): string;
}

export function createEditor(parent: HTMLElement, lang: LanguageSupport, options: { doc: string; label: string; onChange(text: string): void; onTiming?: Timing }): LogfilterEditor {
  const formatCommand = (view: EditorView): boolean => {
    const formatted = lang.format(view.state.doc.toString());
    if (formatted === undefined) return false;
    if (formatted !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: formatted }, userEvent: 'format' });
    return true;
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        highlighting(lang),
        linter((v) => toCmDiagnostics(timed('diagnostics', options.onTiming, () => lang.diagnostics(v.state.doc.toString())), v.state.doc.length), { delay: 100 }),
        lintGutter(),
        // no wait before asking: the core answers in well under a frame (the browser test measures it)
        autocompletion({ override: [completionSource(lang, options.onTiming)], icons: false, activateOnTypingDelay: 0 }),
        hover(lang),
        keymap.of([{ key: 'Shift-Alt-f', run: formatCommand }, ...completionKeymap, ...lintKeymap, ...historyKeymap, ...defaultKeymap]),
        EditorView.contentAttributes.of({ 'aria-label': options.label }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) options.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    refresh() {
      view.dispatch({ effects: refreshEffect.of(null) });
      forceLinting(view);
    },
    format: () => formatCommand(view),
    setText(text) {
      if (text !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    text: () => view.state.doc.toString(),
  };
}
