/** textDocument/hover: the core's hoverAt, with the span converted to a range. */
import { hoverAt } from '@logfilter/core';
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function hover(ctx: ServerContext, doc: TextDocument, params: HoverParams): Hover | null {
  const h = hoverAt(doc.getText(), doc.offsetAt(params.position), ctx.settings().dataset);
  if (!h) return null;
  return { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(doc, h.start, h.end) };
}
