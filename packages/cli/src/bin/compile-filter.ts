import { runCompileFilter } from '../compile-filter-main.js';

runCompileFilter(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);

export { warmSourceFilters as warmCodeCache } from '../warm-code-cache.js';
