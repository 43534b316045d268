/** What every bundled bin does around its command: exit status without cutting stdout short. */
import { EXIT_FAILURE } from './errors.js';

export function startBin(run: (argv: string[]) => Promise<number>): void {
  // a closed pipe (`logfilter eval --print | head`) is not an error
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT_FAILURE;
    },
  );
}
