/** The dataset a file names on its `dataset` line, found without lexing the whole (possibly huge) text. */
import { ANY_DATASET, getDataset } from '../datasets/index.js';
import { IDENTIFIER_SOURCE } from '../syntax/field-names.js';

// a dataset name is written as an identifier, like a bare field name
const DATASET_LINE = new RegExp(`^(?:[ \\t\\r\\n\\f\\v\\u00a0\\ufeff]|#[^\\r\\n]*)*dataset[ \\t\\r\\n\\f\\v\\u00a0\\ufeff]+(${IDENTIFIER_SOURCE})`);

/** The file's dataset when its `dataset` line names a known one (or `any`), else `fallback`. */
export function datasetOf(text: string, fallback: string): string {
  const name = DATASET_LINE.exec(text)?.[1];
  return name !== undefined && (name === ANY_DATASET || getDataset(name)) ? name : fallback;
}
