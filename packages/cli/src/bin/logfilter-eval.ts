import { startBin } from '../bin-entry.js';
import { runEval } from '../eval-main.js';

startBin((argv) => runEval(argv));

export { warmCodeCache } from '../warm-code-cache.js';

/**
 * For the loader (in bin/compile-filter.cjs), which writes the bundle's code cache once per build from the first
 * run that did its work: only an evaluation that ran (exit 0) compiled the evaluator; exit 1 is a filter with errors.
 */
export const codeCacheWorthy = (code: number): boolean => code === 0;
