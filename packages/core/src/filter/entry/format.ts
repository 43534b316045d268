/** format(): canonical style, idempotent, meaning-preserving, comments kept. */
import { type Diagnostic, hasErrors } from '../diagnostics.js';
import { printFile } from '../format/print.js';
import { parse } from '../syntax/parse-with-fast-path.js';
import { expectText } from '../../lang/guards.js';

export interface FormatResult {
  /** False when the text has syntax errors: `text` is then the input, unchanged. */
  ok: boolean;
  text: string;
  /** Whether formatting changed anything (for `fmt --check`). */
  changed: boolean;
  /** Syntax diagnostics (a text that does not parse is never reformatted). */
  diagnostics: Diagnostic[];
}

export function format(source: string): FormatResult {
  expectText(source, 'format', '.logfilter source');
  const { file, diagnostics } = parse(source);
  if (hasErrors(diagnostics)) return { ok: false, text: source, changed: false, diagnostics };
  const printed = printFile({
    dataset: file.dataset?.name,
    datasetEnd: file.dataset?.end,
    expr: file.expr,
    comments: file.comments,
    text: source,
  });
  // The printer writes LF; a document whose first line ends in CRLF is given CRLF back (editors and version
  // control keep a file's line endings: rewriting every line would be a change of the whole file).
  const text = /^[^\n]*\r\n/.test(source) ? printed.replace(/\r?\n/g, '\r\n') : printed;
  return { ok: true, text, changed: text !== source, diagnostics };
}
