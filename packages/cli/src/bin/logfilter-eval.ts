import { startBin } from '../bin-entry.js';
import { runEval } from '../eval-main.js';

startBin((argv) => runEval(argv));

export { warmCodeCache } from '../warm-code-cache.js';
