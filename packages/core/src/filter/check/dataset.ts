/** Which dataset a filter is checked against (docs/language.md#datasets), and `unknown-dataset`. */
import type { DatasetDecl } from '../ast.js';
import { ANY_DATASET, DATASETS, DEFAULT_DATASET, type DatasetSchema, getDataset } from '../datasets/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { closest } from '../../lang/closest.js';

/**
 * The `dataset` line, else the caller's choice, else the default. `any` has no schema (field checks off); an
 * unknown name has none either, and is reported.
 */
export function resolveDataset(decl: DatasetDecl | undefined, fallback: string | undefined, diagnostics: Diagnostic[]): { dataset: string; schema?: DatasetSchema } {
  const dataset = decl?.name ?? fallback ?? DEFAULT_DATASET;
  let schema: DatasetSchema | undefined;
  if (dataset !== ANY_DATASET) {
    schema = getDataset(dataset);
    if (!schema) {
      const at = decl ? [decl.nameStart, decl.nameEnd] : [0, 0];
      const near = closest(dataset, [...DATASETS.keys(), ANY_DATASET], 3);
      diagnostics.push(
        diag('unknown-dataset', `unknown dataset ${dataset}; known: ${[...DATASETS.keys(), ANY_DATASET].join(', ')}`, at[0], at[1], {
          suggestions: near,
          fixes: decl ? near.map((n, i) => ({ title: `Change to ${n}`, edits: [{ start: at[0], end: at[1], newText: n }], preferred: i === 0 })) : undefined,
        }),
      );
    }
  }
  return { dataset, schema };
}
