/** What every bundled bin does around its command: exit status without cutting stdout short. */
import { EXIT_FAILURE } from './errors.js';

export function startBin(run: (argv: string[]) => Promise<number>): void {
  // a closed pipe (`logfilter eval --print | head`) is not an error: the commands' stdout (fd-output.ts) ends
  // the process with the status so far, without creating process.stdout here
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT_FAILURE;
    },
  );
}
