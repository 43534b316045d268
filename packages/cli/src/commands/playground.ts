/**
 * `logfilter playground [--port n] [--no-open]`: serves the playground (packages/playground, a static site) on
 * 127.0.0.1, prints its URL and opens it in the browser. The page does everything itself; the server only
 * hands out its files. Runs until interrupted (Ctrl-C: exit 0). Exit 2: bad --port, port in use, or the site's
 * files missing from the installation.
 */
import { Option, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { findSite, serveSite } from '../playground/serve.js';
import { openInBrowser } from '../playground/open.js';

/** A fixed default, so that a bookmark of the page keeps working; `--port 0` takes any free port. */
export const DEFAULT_PLAYGROUND_PORT = 4923;

interface PlaygroundFlags {
  port: string;
  open?: boolean;
}

export function registerPlayground(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('playground')
    .description('serve the playground (write, check, compile and test filters in the browser) on 127.0.0.1 and open it')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1 (0: any free port)').default(String(DEFAULT_PLAYGROUND_PORT)))
    .option('--no-open', 'only print the URL (the browser is opened only when the output is a terminal)')
    .action(async (flags: PlaygroundFlags) => {
      if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not ${JSON.stringify(flags.port)}`);
      const dir = findSite();
      if (!dir) throw new UsageError('the playground files are not in this installation (packages/playground/dist): run `npm run build`');
      const server = await serveSite(dir, Number(flags.port));
      ctx.stdout.write(`Logfilter playground: ${server.url}\n(serving ${dir} on 127.0.0.1 only; the page sends nothing anywhere; Ctrl-C to stop)\n`);
      if (flags.open !== false && ctx.stdout.isTTY) openInBrowser(server.url, (message) => ctx.stderr.write(`could not open a browser (${message}); open the URL above\n`));
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      setExit(EXIT_OK);
    });
}
