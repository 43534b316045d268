/**
 * decompile(): any valid filter JSON (filter object, JSON-encoded string, job, API envelope) → canonical
 * source. Structural problems get diagnostics located by JSON path and by offset in the given text.
 */
import type { Condition, Expr } from '../ast.js';
import { conditionsIn } from '../walk.js';
import { normalize } from '../compile/normalize.js';
import { serialize, toDocument } from '../compile/serialize.js';
import { diag, type Diagnostic, hasErrors } from '../diagnostics.js';
import type { FilterDocument } from '../filter.js';
import { printFile } from '../format/print.js';
import { isWritableField } from '../syntax/field-names.js';
import type { FilterInputForm } from '../json/read-filter.js';
import { readFilter } from './read.js';
import { exponentOf, MAX_EXPONENT } from '../util/values.js';
import { expectOptionalString, optionsOf } from '../../lang/guards.js';

export interface DecompileOptions {
  /**
   * Write a `dataset` line naming this dataset at the top of the source, when the input does not name one
   * itself (a job's `dataset` wins, as a source's `dataset` line wins over the compile option).
   */
  dataset?: string;
}

export interface DecompileResult {
  ok: boolean;
  /** Canonical source; only when `ok`. */
  source?: string;
  /** The filter document that was read (normalised: flattened, single-item groups unwrapped). */
  filter?: FilterDocument;
  /** The same document as canonical compact JSON (integers keep their exact digits); only when `ok`. */
  json?: string;
  /** Which input form was recognised. */
  form?: FilterInputForm;
  /** The dataset of the `dataset` line written, if any: the input job's, else the option's. */
  dataset?: string;
  diagnostics: Diagnostic[];
  /** The tree that was read (offsets into the input text), for tools that check it further. */
  expr?: Expr;
}

export function decompile(input: string | unknown, options?: DecompileOptions): DecompileResult {
  const { dataset: datasetOption } = optionsOf(options, 'decompile') as DecompileOptions;
  expectOptionalString(datasetOption, 'decompile', 'dataset');
  const read = readFilter(input);
  const diagnostics = [...read.diagnostics];
  if (!read.expr || hasErrors(diagnostics)) return { ok: false, form: read.form, diagnostics };
  const expr = read.expr;
  conditionsIn(expr).forEach((c: Condition) => {
    if (!isWritableField(c.field.name)) {
      diagnostics.push(
        diag('invalid-node', 'this key cannot be written as a field name (it is empty, or holds a backquote, a line break or a lone surrogate)', c.field.start, c.field.end, {
          path: c.path ? [...c.path, 'key'] : undefined,
        }),
      );
    }
    // What decompile prints must compile back to the same filter: what the language cannot write is reported here.
    const valuePath = c.path ? [...c.path, 'value'] : undefined;
    if (c.value.kind === 'list' && c.value.items.length === 0) {
      diagnostics.push(diag('empty-list', `'${c.operator.spelling}' needs at least one value; an empty list cannot be written as source`, c.value.start, c.value.end, { path: valuePath }));
    }
    const items = c.value.kind === 'list' ? c.value.items : [c.value];
    items.forEach((v, i) => {
      if (v.kind === 'float' && Math.abs(exponentOf(v.raw)) > MAX_EXPONENT) {
        diagnostics.push(
          diag('invalid-node', `the number ${v.raw.slice(0, 40)} has an exponent beyond ±${MAX_EXPONENT}; write it without one`, v.start, v.end, {
            path: valuePath && c.value.kind === 'list' ? [...valuePath, i] : valuePath,
          }),
        );
      }
    });
  });
  if (hasErrors(diagnostics)) return { ok: false, form: read.form, diagnostics };
  const dataset = read.dataset ?? datasetOption;
  const source = printFile({ dataset, expr });
  const normal = normalize(expr);
  return { ok: true, source, filter: toDocument(normal), json: serialize(normal).json, form: read.form, ...(dataset !== undefined ? { dataset } : {}), diagnostics, expr };
}
