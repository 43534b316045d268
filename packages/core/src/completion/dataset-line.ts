/** The dataset a file names on its `dataset` line, found without lexing the whole (possibly huge) text. */
import { ANY_DATASET, getDataset } from '../datasets/index.js';

const DATASET_LINE = /^(?:[ \t\r\n\f\v\u00a0\ufeff]|#[^\r\n]*)*dataset[ \t\r\n\f\v\u00a0\ufeff]+([A-Za-z_][A-Za-z0-9_]*)/;

/** The file's dataset when its `dataset` line names a known one (or `any`), else `fallback`. */
export function datasetOf(text: string, fallback: string): string {
  const name = DATASET_LINE.exec(text)?.[1];
  return name !== undefined && (name === ANY_DATASET || getDataset(name)) ? name : fallback;
}
